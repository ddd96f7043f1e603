from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.models import Game, Table

from .conftest import open_table, players, to_act

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def card_codes(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def test_the_lobby_lists_public_open_tables_only(alice: Any, bob: Any) -> None:
    open_table(alice, name="Open and public")
    open_table(alice, name="Secret club", visibility="private")
    html = logged_in(bob).get(reverse("games:lobby")).content.decode()
    assert "Open and public" in html
    assert "Secret club" not in html


def test_creating_a_table_from_the_form_with_bots(alice: Any) -> None:
    client = logged_in(alice)
    response = client.post(
        reverse("games:create"),
        {
            "name": "Evening",
            "deck": "32",
            "target": "7",
            "stick_the_dealer": "on",
            "lone_maker_march": "4",
            "mode": "turns",
            "move_seconds": "43200",
            "visibility": "private",
            "seat_2": "easy",
            "seat_3": "hard",
        },
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.rules == {
        "deck": "32",
        "stick_the_dealer": True,
        "second_round_turned_suit": False,
        "lone_maker_march": 4,
    }
    assert (table.target, table.mode, table.move_seconds, table.visibility) == (
        7,
        "turns",
        43200,
        "private",
    )
    assert table.games.count() == 1  # two bots filled the table: the game started
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Deck: 32 cards" in page and "By turns, 12 hours per move" in page


def test_creating_a_table_with_bad_input_shows_the_errors(alice: Any) -> None:
    response = logged_in(alice).post(
        reverse("games:create"), {"name": "", "deck": "52", "target": "99"}
    )
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert b"errorlist" in response.content


def test_join_and_leave_through_the_views(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    client = logged_in(bob)
    response = client.post(reverse("games:join", args=[table.pk]), {"position": "2"}, headers=HTMX)
    assert response.status_code == 200 and "Leave" in response.content.decode()
    assert table.seats.get(position=2).user == bob
    response = client.post(reverse("games:join", args=[table.pk]), {"position": "7"}, headers=HTMX)
    assert "Choose seat 1, 2 or 3" in response.content.decode()
    client.post(reverse("games:leave", args=[table.pk]), headers=HTMX)
    assert table.seats.get(position=2).user is None


def test_a_private_table_is_reached_only_through_its_invitation(alice: Any, bob: Any) -> None:
    table = open_table(alice, visibility="private")
    client = logged_in(bob)
    assert client.get(table.get_absolute_url()).status_code == 404
    assert client.post(reverse("games:join", args=[table.pk]), {"position": "1"}).status_code == 404
    response = client.get(table.invite_url())
    assert response.status_code == 302
    assert client.get(table.get_absolute_url()).status_code == 200
    client.post(reverse("games:join", args=[table.pk]), {"position": "1"})
    assert table.seats.get(position=1).user == bob


def test_each_player_sees_only_their_own_hand(game: Game, outsider: Any) -> None:
    seated = players(game.table)
    state = services.game_state(game)
    assert state.current is not None
    hands = {s: set(state.current.hand_of(s)) for s in range(3)}
    for seat, user in seated.items():
        html = logged_in(user).get(game.table.get_absolute_url()).content.decode()
        shown = card_codes(html)
        assert hands[seat] <= shown
        for other in range(3):
            if other != seat:
                assert not (hands[other] & shown)
    spectator = card_codes(logged_in(outsider).get(game.table.get_absolute_url()).content.decode())
    assert not (spectator & (hands[0] | hands[1] | hands[2]))


def test_only_legal_actions_are_offered(game: Game) -> None:
    seat = to_act(game)
    user = players(game.table)[seat]
    html = logged_in(user).get(game.table.get_absolute_url()).content.decode()
    offered = [
        json.loads(v.replace("&quot;", '"'))
        for v in re.findall(r'name="action" value="([^"]+)"', html)
    ]
    view = engine.game_view(services.game_state(game), seat)
    # The page posts them without the seat (always the player's own).
    assert all("seat" not in a for a in offered)
    assert sorted(json.dumps(a, sort_keys=True) for a in offered) == sorted(
        json.dumps({k: v for k, v in a.items() if k != "seat"}, sort_keys=True)
        for a in view["legal_actions"]
    )
    assert "Pass" in html
    other = players(game.table)[(seat + 1) % 3]
    assert (
        'name="action"' not in logged_in(other).get(game.table.get_absolute_url()).content.decode()
    )


def test_a_move_posted_with_htmx_returns_the_updated_table(game: Game) -> None:
    seat = to_act(game)
    client = logged_in(players(game.table)[seat])
    response = client.post(
        reverse("games:act", args=[game.table_id]),
        {"action": '{"type":"pass"}', "version": "1"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert 'data-version="2"' in response.content.decode()
    game.refresh_from_db()
    assert game.version == 2


@pytest.mark.django_db(transaction=True)
def test_the_answer_to_a_move_is_the_table_it_made_even_when_bots_moved_since(
    alice: Any, eager_celery: None
) -> None:
    """The bots (eager, instant) answer inside the request, before its answer
    is written. The answer is the table of the player's move all the same:
    the bots' moves come as frames after it, each with its motion; a later
    table would skip them (the page discards older frames)."""
    for _ in range(20):  # a deal where alice, to act, may pass
        table = open_table(alice)
        services.table_set_bot(table=table, user=alice, position=1, level="easy")
        game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
        assert game is not None
        game.refresh_from_db()
        assert game.to_act == 0  # the bots before her played at once
        legal = engine.game_view(services.game_state(game), 0)["legal_actions"]
        if {"type": "pass", "seat": 0} in legal:
            break
    else:
        raise AssertionError("no deal let alice pass")
    assert game is not None
    before = game.version
    response = logged_in(alice).post(
        reverse("games:act", args=[table.pk]),
        {"action": '{"type":"pass"}', "version": str(before)},
        headers=HTMX,
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version > before + 1  # the bots moved before the answer was written
    assert f'data-version="{before + 1}"' in response.content.decode()


def test_a_stale_move_shows_the_current_table_and_a_message(game: Game) -> None:
    seat = to_act(game)
    client = logged_in(players(game.table)[seat])
    url = reverse("games:act", args=[game.table_id])
    client.post(url, {"action": '{"type":"pass"}', "version": "1"}, headers=HTMX)
    response = client.post(
        url, {"action": '{"type":"pass"}', "version": "1"}, headers=HTMX
    )  # the double click
    html = response.content.decode()
    assert "as it stands now" in html and 'data-version="2"' in html
    assert len(game.hands.get().record["actions"]) == 1


@pytest.mark.parametrize(
    "data, message",
    [
        ({"action": "not json", "version": "1"}, "That is not a move."),
        ({"action": '{"type":"pass"}', "version": "x"}, "That is not a move."),
        ({"action": "[1,2]", "version": "1"}, "That is not a move."),
        ({"action": "x" * 5000, "version": "1"}, "That is not a move."),
        ({"action": '{"type":"play","card":"ZZ"}', "version": "1"}, "That is not a card."),
        (
            {"action": '{"type":"launch"}', "version": "1"},
            "There is no move called &#x27;launch&#x27;.",
        ),
        ({"action": '{"type":"pass","x":NaN}', "version": "1"}, "That is not a move."),
        ({"action": '{"type":"pass","x":-Infinity}', "version": "1"}, "That is not a move."),
        (
            {"action": '{"type":"pass"}', "version": "99999999999999999999999"},
            "That is not a move.",
        ),
        ({"action": '{"type":"pass"}', "version": "²"}, "That is not a move."),
    ],
)
def test_bad_moves_change_nothing_and_say_why(
    game: Game, data: dict[str, str], message: str
) -> None:
    seat = to_act(game)
    client = logged_in(players(game.table)[seat])
    response = client.post(reverse("games:act", args=[game.table_id]), data, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 400 and response["X-Table-Refused"] == "1"
    assert f'<p class="message error" role="alert">{message}</p>' in html
    game.refresh_from_db()
    assert game.version == 1


def test_a_plain_form_post_without_htmx_gets_the_page_with_the_reason(game: Game) -> None:
    seat = to_act(game)
    client = logged_in(players(game.table)[(seat + 1) % 3])
    response = client.post(
        reverse("games:act", args=[game.table_id]), {"action": '{"type":"pass"}', "version": "1"}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert '<p class="message error" role="alert">It is not your turn.</p>' in page
    assert "<html" in page and 'ws-connect="/ws/tables/' in page


def test_the_game_record_is_for_players_of_finished_games(game: Game, outsider: Any) -> None:
    url = reverse("games:record", args=[game.pk])
    seated = players(game.table)
    assert logged_in(outsider).get(url).status_code == 404
    assert logged_in(seated[0]).get(url).status_code == 409
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = logged_in(seated[0]).get(url)
    assert response.status_code == 200
    record = response.json()
    assert record["format"] == "euchre3-game/1" and record["first_dealer"] == game.first_dealer
    assert "attachment" in response["Content-Disposition"]


def test_my_games_lists_the_players_tables_with_their_turn_first(game: Game) -> None:
    seat = to_act(game)
    html = logged_in(players(game.table)[seat]).get(reverse("games:my_games")).content.decode()
    assert "Friday table" in html and "Your turn" in html


def test_names_with_script_payloads_are_escaped_everywhere(alice: Any, bob: Any) -> None:
    payload = '<script>alert("x")</script>'
    bob.username = '<img src=x onerror="alert(1)">'
    bob.save()
    table = open_table(alice, name=payload)
    services.table_join(table=table, user=bob, position=1)
    services.table_set_bot(table=table, user=alice, position=2, level="easy")
    client = logged_in(alice)
    pages = [
        client.get(reverse("games:lobby")),
        client.get(table.get_absolute_url()),
        client.get(reverse("games:my_games")),
        client.get(table.get_absolute_url(), {"partial": "1"}, headers=HTMX),
    ]
    for response in pages:
        html = response.content.decode()
        assert payload not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in pages[1].content.decode()


def test_a_flood_of_moves_is_turned_away_with_a_message(game: Game) -> None:
    from django.conf import settings

    limit = int(settings.TABLE_POST_RATE.split("/")[0])
    seat = to_act(game)
    # Not this player's turn: every post that gets through changes nothing either.
    client = logged_in(players(game.table)[(seat + 1) % 3])
    url = reverse("games:act", args=[game.table_id])
    # Fixed windows: the count may restart once mid-way, so allow two windows' worth.
    answers = [
        client.post(
            url, {"action": '{"type":"pass"}', "version": "1"}, headers=HTMX
        ).content.decode()
        for _ in range(2 * limit + 1)
    ]
    assert "It is not your turn." in answers[0]
    assert any("Too many moves at once" in html for html in answers)
    game.refresh_from_db()
    assert game.version == 1


def test_opening_tables_is_rate_limited(alice: Any) -> None:
    client = logged_in(alice)
    data = {
        "name": "T",
        "deck": "24",
        "target": "10",
        "lone_maker_march": "3",
        "mode": "live",
        "visibility": "public",
    }
    responses = [client.post(reverse("games:create"), data) for _ in range(41)]
    codes = [r.status_code for r in responses]
    assert codes[0] == 302 and 429 in codes  # (the hour's window may restart once)
    assert b"many tables" in responses[codes.index(429)].content
    assert Table.objects.count() == codes.count(302)


def test_a_move_posted_to_another_tables_game_is_refused(
    game: Game, alice: Any, outsider: Any
) -> None:
    other = open_table(outsider, name="Elsewhere")
    services.table_set_bot(table=other, user=outsider, position=1, level="easy")
    services.table_set_bot(table=other, user=outsider, position=2, level="easy")
    other_game = other.games.get()
    client = logged_in(alice)  # seated at `game`, not at `other`
    response = client.post(
        reverse("games:act", args=[other.pk]),
        {"action": '{"type":"pass"}', "version": str(other_game.version)},
        headers=HTMX,
    )
    assert "You are not playing at this table." in response.content.decode()
    other_game.refresh_from_db()
    assert other_game.version == 1
    assert (
        client.post(
            reverse("games:act", args=[987654]), {"action": "{}", "version": "1"}
        ).status_code
        == 404
    )


@pytest.mark.parametrize("htmx", [True, False])
def test_a_database_error_answers_503_with_a_clear_message(
    game: Game, monkeypatch: pytest.MonkeyPatch, htmx: bool
) -> None:
    """The scaled-out tests stop PostgreSQL for real; here the service raises
    what psycopg raises then, to pin the page and the htmx answer."""
    from django.db import OperationalError

    def database_gone(**kwargs: Any) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "game_act", database_gone)
    user = players(game.table)[to_act(game)]
    client = Client(raise_request_exception=False)
    client.force_login(user)
    response = client.post(
        reverse("games:act", args=[game.table_id]),
        {"action": json.dumps({"type": "pass"}), "version": "1"},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    text = response.content.decode()
    assert "cannot reach its database" in text and "your move was not made" in text
    assert response["Content-Type"].startswith("text/plain" if htmx else "text/html")
