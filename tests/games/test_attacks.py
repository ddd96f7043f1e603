"""The holes an outside attack found, reproduced through the real pages and
sockets: each of these failed before its fix."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from euchre_site.asgi import application
from games import engine, services
from games.models import Game, Table
from games.services import state as game_states

from .conftest import open_table, play_one, players, see_the_rule, state_of, to_act
from .wsclient import ORIGIN

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def alert(html: str) -> str:
    """The refusal's text in a table partial (with its link to the rule, if any)."""
    start = html.index('role="alert">') + len('role="alert">')
    return html[start : html.index("</p>", start)]


def _to_maker_choice(game: Game) -> int:
    """Order up and settle the pick-up: the maker's seat, at maker_choice."""
    play_one(game, prefer="order")
    while (cur := state_of(game).current) is not None and cur.phase != "maker_choice":
        play_one(game, prefer="pickup")
    return to_act(game)


# --------------------------------------------------------------------------- 1


def test_a_maker_cannot_test_the_dummy_card_by_card_before_choosing(game: Game) -> None:
    """Keeps sent before "use the dummy" are refused alike whatever they hold,
    and the maker may still choose to go alone: nothing was seen."""
    maker = _to_maker_choice(game)
    client = logged_in(players(game.table)[maker])
    url = reverse("games:act", args=[game.table_id])
    record = game.hands.get(number=0).record
    ten_in_dummy = record["deal"]["dummy"]
    own = state_of(game).current.hand_of(maker)  # type: ignore[union-attr]
    kitty = record["deal"]["kitty"][1:]
    version = game.version
    answers = set()
    for keep in (ten_in_dummy, own, (own[:3] + ten_in_dummy[:2]), (kitty + own)[:5]):
        for data in (
            {"action": '{"type":"dummy"}', "keep": keep, "version": str(version)},
            {"action": json.dumps({"type": "dummy", "keep": keep}), "version": str(version)},
        ):
            response = client.post(url, data, headers=HTMX)
            assert response.status_code == 400
            answers.add(alert(response.content.decode()))
            game.refresh_from_db()
            assert game.version == version
    assert answers == {
        "First choose between using the dummy and going alone; the dummy&#x27;s cards "
        "are shown once you choose to use it." + see_the_rule("makers-choice")
    }
    for c in ten_in_dummy:  # no page of the maker showed a dummy card
        assert f'data-card="{c}"' not in client.get(game.table.get_absolute_url()).content.decode()
    response = client.post(
        url, {"action": '{"type":"alone"}', "version": str(version)}, headers=HTMX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == version + 1


def test_after_choosing_the_dummy_the_maker_sees_it_and_cannot_go_alone(game: Game) -> None:
    maker = _to_maker_choice(game)
    client = logged_in(players(game.table)[maker])
    url = reverse("games:act", args=[game.table_id])
    dummy = game.hands.get(number=0).record["deal"]["dummy"]
    response = client.post(
        url, {"action": '{"type":"dummy"}', "version": str(game.version)}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and all(f'data-card="{c}"' in html for c in dummy)
    game.refresh_from_db()
    response = client.post(
        url, {"action": '{"type":"alone"}', "version": str(game.version)}, headers=HTMX
    )
    assert response.status_code == 400
    assert alert(response.content.decode()) == (
        "Choose the five cards to keep." + see_the_rule("makers-choice")
    )
    response = client.post(
        url,
        {"action": '{"type":"dummy"}', "keep": dummy, "version": str(game.version)},
        headers=HTMX,
    )
    assert response.status_code == 200
    last = game.hands.get(number=0).record["actions"][-1]
    assert last == {"seat": maker, "type": "dummy", "keep": dummy}


# --------------------------------------------------------------------------- 5


@pytest.mark.parametrize(
    "action, reason",
    [
        (
            {"type": "pass", "auto": True},
            "The move &#x27;pass&#x27; has no field &#x27;auto&#x27;.",
        ),
        ({"type": "pass", "note": "x"}, "The move &#x27;pass&#x27; has no field &#x27;note&#x27;."),
        (
            {"type": "order", "suit": "H"},
            "The move &#x27;order&#x27; has no field &#x27;suit&#x27;.",
        ),
        ({"type": "pass", "seat": 0}, "A move cannot name its seat: it is always your own."),
    ],
)
def test_a_move_cannot_carry_fields_its_type_does_not_have(
    game: Game, action: dict[str, Any], reason: str
) -> None:
    """Else `"auto": true` made one's own move read "time ran out, the bot moved"."""
    seat = to_act(game)
    client = logged_in(players(game.table)[seat])
    response = client.post(
        reverse("games:act", args=[game.table_id]),
        {"action": json.dumps(action), "version": "1"},
        headers=HTMX,
    )
    assert response.status_code == 400 and alert(response.content.decode()) == reason
    game.refresh_from_db()
    assert game.version == 1 and game.hands.get().record["actions"] == []


# --------------------------------------------------------------------------- 7


def _socket(table: Table, client: Client) -> WebsocketCommunicator:
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[
            (b"host", b"127.0.0.1:8000"),
            (b"origin", ORIGIN),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        ],
    )


def _connects(table: Table, client: Client) -> bool:
    async def run() -> bool:
        ws = _socket(table, client)
        connected, _ = await ws.connect()
        if connected:
            await ws.receive_from(timeout=5)
            await ws.disconnect()
        return bool(connected)

    return async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_an_invited_viewer_gets_the_page_and_its_live_updates(alice: Any, outsider: Any) -> None:
    table = open_table(alice, visibility="private")
    guest = logged_in(outsider)
    assert guest.get(table.get_absolute_url()).status_code == 404
    assert not _connects(table, guest)
    assert guest.get(table.invite_url()).status_code == 302
    assert guest.get(table.get_absolute_url()).status_code == 200
    assert _connects(table, guest)  # refused before: the two checks had drifted apart


@pytest.mark.django_db(transaction=True)
def test_the_owner_revokes_the_invitation(alice: Any, outsider: Any) -> None:
    table = open_table(alice, visibility="private")
    guest = logged_in(outsider)
    old_link = table.invite_url()
    guest.get(old_link)
    owner = logged_in(alice)

    async def watch_then_revoke() -> int:
        ws = _socket(table, guest)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        response = await sync_to_async(owner.post)(
            reverse("games:revoke_invite", args=[table.pk]), headers=HTMX
        )
        assert response.status_code == 200
        out = await ws.receive_output(timeout=5)  # the open page is closed
        return int(out.get("code", 0))

    assert async_to_sync(watch_then_revoke)() == 4403
    table.refresh_from_db()
    assert table.invite_url() != old_link
    assert guest.get(table.get_absolute_url()).status_code == 404
    assert guest.get(old_link).status_code == 410
    stranger_attempt = logged_in(outsider).post(
        reverse("games:revoke_invite", args=[table.pk]), headers=HTMX
    )
    assert stranger_attempt.status_code == 404  # not even visible to them now
    newcomer = logged_in(outsider)
    assert newcomer.get(table.invite_url()).status_code == 302  # the new link works
    assert newcomer.get(table.get_absolute_url()).status_code == 200


def test_only_the_owner_may_revoke(alice: Any, bob: Any) -> None:
    table = open_table(alice, visibility="public")
    token = table.invite_token
    response = logged_in(bob).post(reverse("games:revoke_invite", args=[table.pk]), headers=HTMX)
    assert response.status_code == 403
    assert alert(response.content.decode()) == (
        "Only the table&#x27;s creator can revoke its invitation link."
    )
    table.refresh_from_db()
    assert table.invite_token == token


def test_an_invitation_admits_nobody_new_once_the_game_has_ended(
    alice: Any, bob: Any, carol: Any, outsider: Any, db: Any
) -> None:
    table = open_table(alice, visibility="private")
    early = logged_in(bob)
    early.get(table.invite_url())
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Game.objects.filter(table=table).update(status=Game.Status.FINISHED)
    late = logged_in(outsider)
    response = late.get(table.invite_url())
    assert response.status_code == 410
    assert "This invitation is closed" in response.content.decode()
    assert late.get(table.get_absolute_url()).status_code == 404
    assert early.get(table.get_absolute_url()).status_code == 200  # seated: still sees it


# --------------------------------------------------------------------------- cache


@pytest.mark.django_db(transaction=True)
def test_a_failed_commit_leaves_no_trace_in_the_state_cache(game: Game) -> None:
    """The move is applied inside a transaction that then fails: no process
    may keep the state the database never had, and the next move builds on
    the committed one."""
    seat = to_act(game)
    user = players(game.table)[seat]
    before = services.game_state(game)
    key_after = (game.pk, game.created, 2)

    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        result = services.game_act(
            game_id=game.pk,
            version=1,
            action={"type": "order"},
            actor=services.Actor.person(user),
        )
        assert result.game.version == 2
        raise Boom
    assert key_after not in game_states._STATE_CACHE
    game.refresh_from_db()
    assert game.version == 1 and game.hands.get().record["actions"] == []
    assert services.game_state(game) is before
    # The next move is built on the committed state: a pass, not the lost order.
    services.game_act(
        game_id=game.pk, version=1, action={"type": "pass"}, actor=services.Actor.person(user)
    )
    game.refresh_from_db()
    after = services.game_state(game)
    assert [a.type for a in after.current.actions] == ["pass"]  # type: ignore[union-attr]
    assert game_states._STATE_CACHE[key_after][0] is after


@pytest.mark.django_db
def test_another_process_reads_a_moves_state_from_the_shared_cache(
    game: Game,
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    """A game's next move may go to any worker process: with
    GAME_STATE_SHARED (PostgreSQL's default) the state its last move stored
    is read from Redis there, not replayed from the records."""
    settings.GAME_STATE_SHARED = True
    seat = to_act(game)
    user = players(game.table)[seat]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_act(
            game_id=game.pk, version=1, action={"type": "pass"}, actor=services.Actor.person(user)
        )
    game.refresh_from_db()
    stored, hand_id = game_states._STATE_CACHE[game_states.cache_key(game)]
    assert hand_id == game.hands.get().pk
    game_states._STATE_CACHE.clear()  # another process: nothing of its own
    with django_assert_num_queries(0):
        state = services.game_state(game)
    assert state is not stored and same_state(state, stored)  # unpickled, the same
    game_states._STATE_CACHE.clear()
    cache.delete(game_states._shared_key(game_states.cache_key(game)))
    with CaptureQueriesContext(connection) as replay:
        assert same_state(services.game_state(game), stored)
    assert any("games_hand" in q["sql"] for q in replay.captured_queries)  # the hands, replayed


def same_state(a: engine.GameState, b: engine.GameState) -> bool:
    return a.scores == b.scores and [engine.hand_to_record(h) for h in a.hands] == [
        engine.hand_to_record(h) for h in b.hands
    ]
