"""Issue 21, "no user can slow others down", for the bots: a player has at
most MAX_EXPERT_TABLES tables with expert bots that are not finished and
MAX_AUTOPILOT_SEATS seats on "let a bot play for me" at games under way
(over either cap nothing changes and the refusal says why), and one
player's bots decide one at a time across the workers: a bot move that
finds its table owner's lock held is queued again shortly instead of
waiting in a worker, so other players' bots go on at their pace."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from celery.signals import before_task_publish
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from euchre_site.refusal import Code, Refusal
from games import services, tasks
from games.models import Game, Seat, Table
from tests.conftest import celery_conf
from tests.games.refusals import refused_with

from .conftest import open_table
from .test_views import HTMX, logged_in
from .wsclient import acommunicator


@pytest.fixture(autouse=True)
def _caps(settings: Any) -> None:
    settings.MAX_EXPERT_TABLES = 2
    settings.MAX_AUTOPILOT_SEATS = 2


def expert_table(owner: Any, name: str = "Expert table", third: str = "") -> Table:
    """`owner`'s table with an expert bot in seat 2 and seat 3 open (or `third`'s bot)."""
    return open_table(owner, name=name, bots={1: "expert", 2: third})


def bot_table(owner: Any, name: str = "Easy table", level: str = "easy") -> Game:
    """`owner` against two `level` bots: the game is under way."""
    table = open_table(owner, name=name, bots={1: level, 2: level})
    return table.games.select_related("table").get()


def seat_level(table: Table, user: Any) -> str:
    return Seat.objects.get(table=table, user=user).bot_level


# --------------------------------------------------------------------- caps


@pytest.mark.django_db
def test_a_third_expert_table_is_refused_and_leaves_nothing_behind(alice: Any) -> None:
    one, _two = expert_table(alice, "one"), expert_table(alice, "two")
    tables, seats = Table.objects.count(), Seat.objects.count()
    with pytest.raises(Refusal) as refused:
        expert_table(alice, "three")
    assert refused.value.status == 409
    assert "2 tables with expert bots at a time" in refused.value.message
    assert (Table.objects.count(), Seat.objects.count()) == (tables, seats)
    # Nor can an expert bot be seated at one of her other tables...
    plain = open_table(alice, name="plain")
    with refused_with(Code.CONFLICT):
        services.table_set_bot(table=plain, user=alice, position=1, level="expert")
    assert not plain.seats.get(position=1).bot_level
    # ...while other bots are welcome, and a second expert at an expert table too.
    services.table_set_bot(table=plain, user=alice, position=1, level="hard")
    game = services.table_set_bot(table=one, user=alice, position=2, level="expert")
    assert game is not None and game.status == Game.Status.PLAYING


@pytest.mark.django_db
def test_a_finished_table_frees_its_slot_and_a_rematch_takes_one_again(alice: Any) -> None:
    one = expert_table(alice, "one", third="expert")  # full: its game is under way
    expert_table(alice, "two")  # waiting for a player: not finished either
    with refused_with(Code.CONFLICT):
        expert_table(alice, "three")
    assert services.game_stop(game_id=one.games.get().pk)
    three = expert_table(alice, "three")
    # Restarting the finished table would make three again.
    with refused_with(Code.CONFLICT):
        services.game_rematch(table=one, user=alice)
    assert one.games.count() == 1
    services.table_leave(table=three, user=alice)  # the last person leaves: the table closes
    assert services.game_rematch(table=one, user=alice).number == 2


@pytest.mark.django_db
def test_others_tables_and_other_bots_do_not_count(alice: Any, bob: Any) -> None:
    from daily import services as daily

    daily.attempt_start(user=alice)  # the daily deal: hard bots, at a table of hers
    for name in ("hard one", "hard two", "hard three"):
        open_table(alice, name=name, bots={1: "hard", 2: "hard"})
    expert_table(bob, "bob's one"), expert_table(bob, "bob's two")
    expert_table(alice, "one"), expert_table(alice, "two")
    assert Table.objects.filter(owner=alice).count() == 6


@pytest.mark.django_db
def test_the_lobby_form_shows_the_refusal(alice: Any) -> None:
    expert_table(alice, "one"), expert_table(alice, "two")
    response = logged_in(alice).post(
        reverse("games:create"),
        {
            "name": "Third",
            "deck": "24",
            "target": "10",
            "lone_maker_march": "4",
            "mode": "live",
            "visibility": "public",
            "seat_2": "expert",
            "seat_3": "easy",
        },
    )
    assert response.status_code == 409
    assert "2 tables with expert bots at a time" in response.content.decode()
    assert not Table.objects.filter(name="Third").exists()


@pytest.mark.django_db
def test_a_third_autopilot_seat_is_refused_and_nothing_changes(alice: Any) -> None:
    g1, g2, g3 = (bot_table(alice, f"t{i}") for i in (1, 2, 3))
    services.seat_set_autopilot(table=g1.table, user=alice, level="expert")
    services.seat_set_autopilot(table=g2.table, user=alice, level="medium")
    version = Game.objects.get(pk=g3.pk).version
    with pytest.raises(Refusal) as refused:
        services.seat_set_autopilot(table=g3.table, user=alice, level="medium")
    assert "already play for you in 2 games" in refused.value.message
    assert seat_level(g3.table, alice) == ""
    assert Game.objects.get(pk=g3.pk).version == version
    # Another level for a seat on autopilot already is no new seat; taking
    # one back frees its place.
    services.seat_set_autopilot(table=g1.table, user=alice, level="hard")
    services.seat_set_autopilot(table=g2.table, user=alice, level="")
    services.seat_set_autopilot(table=g3.table, user=alice, level="medium")
    assert [seat_level(g.table, alice) for g in (g1, g2, g3)] == ["hard", "", "medium"]


@pytest.mark.django_db
def test_a_finished_game_frees_an_autopilot_seat(alice: Any) -> None:
    g1, g2, g3 = (bot_table(alice, f"t{i}") for i in (1, 2, 3))
    for game in (g1, g2):
        services.seat_set_autopilot(table=game.table, user=alice, level="medium")
    with refused_with(Code.CONFLICT):
        services.seat_set_autopilot(table=g3.table, user=alice, level="medium")
    assert services.game_stop(game_id=g1.pk)
    services.seat_set_autopilot(table=g3.table, user=alice, level="medium")
    # A rematch at the finished table keeps her seat on autopilot only within
    # the cap: over it, she plays that seat herself.
    services.game_rematch(table=g1.table, user=alice)
    assert seat_level(g1.table, alice) == ""


@pytest.mark.django_db
def test_stand_ins_are_not_autopilot_seats(alice: Any) -> None:
    g1, g2, g3, g4 = (bot_table(alice, f"t{i}") for i in (1, 2, 3, 4))
    # Away from a live table (a stand-in plays), and handed over after time-outs.
    assert services.seat_set_away(table_id=g1.table_id, user_id=alice.pk, away=True)
    Seat.objects.filter(table=g2.table, user=alice).update(
        bot_level="medium", timeouts_in_row=services.TIMEOUTS_BEFORE_HANDOVER
    )
    services.seat_set_autopilot(table=g3.table, user=alice, level="medium")
    services.seat_set_autopilot(table=g4.table, user=alice, level="medium")


@pytest.mark.django_db
def test_the_table_page_shows_the_autopilot_refusal(alice: Any) -> None:
    g1, g2, g3 = (bot_table(alice, f"t{i}") for i in (1, 2, 3))
    client = logged_in(alice)
    for game in (g1, g2):
        url = reverse("games:autopilot", args=[game.table_id])
        assert client.post(url, {"level": "medium"}, headers=HTMX).status_code == 200
    url = reverse("games:autopilot", args=[g3.table_id])
    response = client.post(url, {"level": "expert"}, headers=HTMX)
    assert response.status_code == 409 and response["X-Table-Refused"] == "1"
    assert "already play for you in 2 games" in response.content.decode()
    assert seat_level(g3.table, alice) == ""


# --------------------------------------------------------------- scheduling


def bot_to_act(owner: Any, level: str = "hard") -> Game:
    """`owner` against two `level` bots (by default searching ones: those
    the owner's lock is for), a bot to act first."""
    for _ in range(50):
        game = bot_table(owner, level=level)
        if game.to_act != 0:
            return game
        game.table.delete()
    raise AssertionError("no deal gave a bot the first turn")


@pytest.fixture
def published() -> Iterator[list[tuple[tuple[Any, ...], dict[str, Any], float]]]:
    """The bot moves queued while the test runs: (args, kwargs, seconds to
    their ETA). Afterwards they are revoked and taken off the broker's queue,
    so no worker of the session plays them."""
    import redis

    from euchre_site.celery import app

    sent: list[tuple[tuple[Any, ...], dict[str, Any], float]] = []
    ids: list[str] = []

    def record(sender: Any = None, headers: Any = None, body: Any = None, **kw: Any) -> None:
        if sender != tasks.play_bot_turn.name:
            return
        ids.append(headers["id"])
        eta = headers.get("eta")
        wait = (datetime.datetime.fromisoformat(eta) - timezone.now()).total_seconds() if eta else 0
        sent.append((tuple(body[0]), dict(body[1]), wait))

    before_task_publish.connect(record, weak=False)
    try:
        yield sent
    finally:
        before_task_publish.disconnect(record)
        if ids:
            app.control.revoke(ids)
            queue = redis.Redis.from_url(app.conf.broker_url)
            for raw in queue.lrange("celery", 0, -1):
                text = raw if isinstance(raw, str) else raw.decode()
                if json.loads(text)["headers"].get("id") in ids:
                    queue.lrem("celery", 0, text)


def moves(game: Game) -> int:
    return sum(len(h.record["actions"]) for h in game.hands.all())


@pytest.mark.django_db
def test_with_the_owners_lock_held_a_bot_move_is_queued_again_not_played(
    alice: Any, published: list[tuple[tuple[Any, ...], dict[str, Any], float]]
) -> None:
    game = bot_to_act(alice)
    key = tasks.owner_lock_key(alice.pk)
    assert cache.add(key, "another worker's search", 60)
    try:
        # Told the owner (as the site queues it), and not told (as a sweep might have).
        assert tasks.play_bot_turn(game.pk, game.version, owner=alice.pk) == "deferred"
        assert tasks.play_bot_turn(game.pk, game.version) == "deferred"
        assert moves(game) == 0 and Game.objects.get(pk=game.pk).version == game.version
        assert [(args, kwargs) for args, kwargs, _ in published] == [
            ((game.pk, game.version), {"owner": alice.pk})
        ] * 2
        retry = settings.BOT_OWNER_RETRY_SECONDS
        assert all(0 <= wait <= 1.25 * retry + 0.5 for *_, wait in published), published
        assert cache.get(key) == "another worker's search"  # a deferred move takes nothing
    finally:
        cache.delete(key)
    assert tasks.play_bot_turn(game.pk, game.version, owner=alice.pk) == "played"
    assert moves(game) == 1
    assert cache.get(key) is None  # let go once the bot has decided


@pytest.mark.django_db
def test_a_bot_that_does_not_search_takes_no_lock_and_waits_for_none(
    alice: Any,
    published: list[tuple[tuple[Any, ...], dict[str, Any], float]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """An easy or medium bot decides in a tenth of a millisecond: its move
    neither waits for its owner's searches nor asks Redis about them, and
    the next bot move the site queues for it says no owner."""
    game = bot_to_act(alice, level="medium")
    key = tasks.owner_lock_key(alice.pk)
    assert cache.add(key, "another worker's search", 60)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.play_bot_turn(game.pk, game.version) == "played"
        assert moves(game) == 1
        assert cache.get(key) == "another worker's search"
    finally:
        cache.delete(key)
    game.refresh_from_db()
    queued = [(args, kwargs) for args, kwargs, _ in published]
    assert queued == ([((game.pk, game.version), {})] if game.to_act != 0 else []), queued


@pytest.mark.django_db
def test_a_stale_move_never_takes_the_lock(alice: Any) -> None:
    game = bot_to_act(alice)
    assert tasks.play_bot_turn(game.pk, game.version - 1, owner=alice.pk) == "stale"
    assert cache.get(tasks.owner_lock_key(alice.pk)) is None


@pytest.mark.django_db
def test_run_eagerly_a_bot_move_has_no_lock_to_wait_for(alice: Any) -> None:
    """In the caller's process (CELERY_TASK_ALWAYS_EAGER) a deferral would
    call itself at once while another thread decides: no lock there."""
    game = bot_to_act(alice)
    key = tasks.owner_lock_key(alice.pk)
    assert cache.add(key, "another thread's search", 60)
    celery_conf(task_always_eager=True)
    try:
        assert tasks.play_bot_turn(game.pk, game.version, owner=alice.pk) == "played"
    finally:
        celery_conf(task_always_eager=False)
        cache.delete(key)


@pytest.mark.django_db
def test_one_owners_lock_does_not_hold_up_another_owners_bots(alice: Any, bob: Any) -> None:
    alices, bobs = bot_to_act(alice), bot_to_act(bob)
    key = tasks.owner_lock_key(alice.pk)
    assert cache.add(key, "alice's bots are searching", 60)
    try:
        assert tasks.play_bot_turn(bobs.pk, bobs.version, owner=bob.pk) == "played"
        assert moves(bobs) == 1 and moves(alices) == 0
    finally:
        cache.delete(key)


async def frames_until(table_id: int, user: Any, done: Any, timeout: float = 30) -> int:
    """At the table's socket, the frames received until `done()` (read from
    the database after each) holds."""
    ws = await acommunicator(f"/ws/tables/{table_id}/", user)
    assert (await ws.connect())[0]
    n = 0
    try:
        await ws.receive_from(timeout=10)  # the snapshot
        while not await sync_to_async(done)():
            await ws.receive_from(timeout=timeout)
            n += 1
    finally:
        await ws.disconnect()
    return n


def all_bots(owner: Any, name: str) -> Game:
    """`owner`'s table of hard bots (searching: their owner's lock counts)
    with their own seat on the autopilot: the worker plays it on its own."""
    game = bot_table(owner, name, level="hard")
    services.seat_set_autopilot(table=game.table, user=owner, level="hard")
    return Game.objects.select_related("table").get(pk=game.pk)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_through_the_worker_a_held_owner_waits_and_others_play_on(
    alice: Any, bob: Any, celery_worker: Any
) -> None:
    """alice's two tables of bots while her lock is held (as by a long
    search): their moves go round the queue without holding a worker (had
    they waited in one, her two would hold both of the worker's processes),
    so bob's bots play on; once the lock goes her bots move."""
    celery_conf(task_always_eager=False)
    key = tasks.owner_lock_key(alice.pk)
    cache.set(key, "a long search", 120)
    games: list[Game] = []
    try:
        games += [all_bots(alice, "alice one"), all_bots(alice, "alice two")]
        held = {g.pk: Game.objects.get(pk=g.pk).version for g in games[:2]}
        games.append(all_bots(bob, "bob's"))
        bobs = games[2]

        def bob_moved_on() -> bool:
            return moves(bobs) >= 10 or Game.objects.get(pk=bobs.pk).status == "finished"

        async_to_sync(frames_until)(bobs.table_id, bob, bob_moved_on)
        assert {g.pk: Game.objects.get(pk=g.pk).version for g in games[:2]} == held
        assert all(moves(g) == 0 for g in games[:2])
        cache.delete(key)
        first = games[0]
        async_to_sync(frames_until)(first.table_id, alice, lambda: moves(first) > 0)
    finally:
        cache.delete(key)
        for game in games:
            services.game_stop(game_id=game.pk)
