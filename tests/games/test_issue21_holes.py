"""Issue 21, items 8-10: table names without hidden characters, an invitation
link that stays closed across a rematch, a spectator's end-of-hand summary
without hidden cards, and time-outs that count from the seat."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services, tasks
from games.forms import TableForm
from games.models import Game, Seat, Table

from .conftest import expire, open_table, play_one, players, state_of

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
CARD_CODE = re.compile(r"\b(?:[789TJQKA][CDHS]|JK)\b")
SUMMARY = re.compile(r'<section class="hand-summary" data-hand="(\d+)".*?</section>', re.S)
DAY = 86400


def logged_in(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


# --------------------------------------------------------------------------- table names

HIDDEN = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
]


def form_data(name: str) -> dict[str, str]:
    return {
        "name": name,
        "deck": "24",
        "target": "5",
        "lone_maker_march": "3",
        "mode": "live",
        "visibility": "public",
    }


@pytest.mark.parametrize("ch", HIDDEN)
def test_a_table_name_refuses_direction_controls_and_zero_width_characters(ch: str) -> None:
    form = TableForm(form_data(f"Friday{ch}table"))
    assert not form.is_valid()
    assert form.errors["name"] == [
        "A table name cannot contain invisible characters (direction marks or"
        " zero-width spaces): type it again without them."
    ]


def test_the_lobby_form_says_why_and_opens_no_table(alice: Any) -> None:
    r = logged_in(alice).post(reverse("games:create"), form_data("\u202egnp.exe \u202cFriday"))
    assert r.status_code == 400
    assert not Table.objects.exists()
    assert "invisible characters" in r.content.decode()
    # Letters of any script are welcome, right-to-left ones too.
    r = logged_in(alice).post(reverse("games:create"), form_data("طاولة الجمعة"))
    assert r.status_code == 302 and Table.objects.get().name == "طاولة الجمعة"


# --------------------------------------------------------------------------- invitation links


@pytest.mark.django_db(transaction=True)
def test_a_closed_invitation_link_stays_closed_after_a_rematch(
    alice: Any, bob: Any, carol: Any, outsider: Any
) -> None:
    table = open_table(alice, visibility="private")
    early = logged_in(new_user("early"))
    old_link = table.invite_url()
    assert early.get(old_link).status_code == 302  # a viewer while it is open
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    game = Game.objects.get(table=table)
    assert services.game_stop(game_id=game.pk)
    late = logged_in(outsider)
    assert late.get(old_link).status_code == 410
    rematch = services.game_rematch(table=table, user=bob)
    assert rematch.number == 2
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    # The old link admits nobody again: it is gone, not reopened.
    assert late.get(old_link).status_code == 410
    assert late.get(table.get_absolute_url()).status_code == 404
    # The players keep their access by their seats; the rematch has its own link.
    for user in (alice, bob, carol):
        assert logged_in(user).get(table.get_absolute_url()).status_code == 200
    assert table.invite_url() != old_link
    newcomer = logged_in(outsider)
    assert newcomer.get(table.invite_url()).status_code == 302
    assert newcomer.get(table.get_absolute_url()).status_code == 200


def new_user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, f"{name}@example.com", "pw-x-12345")


# --------------------------------------------------------------------------- spectators


def finish_a_hand(game: Game) -> None:
    """Play legal moves until the first hand is over and the second dealt."""
    for _ in range(200):
        if len(state_of(game).hands) > 1 or game.status == Game.Status.FINISHED:
            return
        play_one(game)
        game.refresh_from_db()
    raise AssertionError("the hand never ended")


def hidden_cards_of_the_first_hand(game: Game) -> set[str]:
    """Every card of the first hand that no spectator may see: dealt and not
    played, the dummy, the kitty (but the up card) and the discards."""
    record = engine.hand_to_record(state_of(game).hands[0])
    deal = record["deal"]
    every = {c for h in deal["hands"] for c in h} | set(deal["dummy"]) | set(deal["kitty"])
    public = {a["card"] for a in record["actions"] if a["type"] == "play"}
    public.add(deal["kitty"][0])  # the up card, turned up for everyone
    return every - public


def summary_of(html: str) -> str:
    found = SUMMARY.search(html)
    assert found is not None, "no end-of-hand summary"
    return found.group(0)


@pytest.mark.django_db(transaction=True)
def test_a_spectator_sees_a_finished_hand_only_as_its_public_history(
    full_table: Table, outsider: Any
) -> None:
    game = full_table.games.select_related("table").get()
    finish_a_hand(game)
    hidden = hidden_cards_of_the_first_hand(game)
    assert hidden  # a hand always leaves cards unplayed (the kitty at least)
    record = engine.hand_to_record(state_of(game).hands[0])
    played = {a["card"] for a in record["actions"] if a["type"] == "play"}

    spectator = logged_in(outsider).get(full_table.get_absolute_url()).content.decode()
    summary = summary_of(spectator)
    assert not set(CARD_CODE.findall(summary)) & hidden
    assert set(CARD_CODE.findall(summary)) <= played | {record["deal"]["kitty"][0]}
    # The whole page and the socket's frame for spectators show no more than
    # the public cards of both hands (the new hand's up card, any play).
    from games import frames

    now = engine.hand_to_record(state_of(game).hands[1])
    public = played | {record["deal"]["kitty"][0], now["deal"]["kitty"][0]}
    public |= {a["card"] for a in now["actions"] if a["type"] == "play"}
    frame = frames.render_table(full_table, game, None)
    for html in (spectator, frame):
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
        assert set(CARD_CODE.findall(html)) <= public

    # Each of the hand's three players still sees its whole deal.
    seated = players(full_table)
    deal = record["deal"]
    for seat in (0, 1, 2):
        page = logged_in(seated[seat]).get(full_table.get_absolute_url()).content.decode()
        mine = set(CARD_CODE.findall(summary_of(page)))
        assert set(deal["kitty"]) <= mine and set(deal["dummy"]) <= mine
        assert all(set(h) <= mine for h in deal["hands"])


def test_the_engine_still_gives_seated_players_the_whole_deal(game: Game) -> None:
    finish_a_hand(game)
    state = state_of(game)
    for seat in (0, 1, 2):
        last = engine.game_view(state, seat)["last_hand"]
        assert last is not None and last["deal"]["hands"] and last["deal"]["kitty"]
    json.dumps(engine.game_view(state, None))  # JSON-able for every viewer


# --------------------------------------------------------------------------- time-outs


def time_out_until(game: Game, victim: int, times: int) -> None:
    """Let `victim` time out `times` times; the others play."""
    n = 0
    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            raise AssertionError("the game ended first")
        if game.to_act == victim:
            if Seat.objects.get(table=game.table, position=victim).is_bot:
                tasks.play_bot_turn(game.pk, game.version)
                continue
            expire(game)
            assert tasks.play_timeout(game.pk, game.version) == "played"
            n += 1
            if n == times:
                return
        else:
            play_one(game)
    raise AssertionError("not enough turns")


def test_taking_the_seat_back_keeps_the_time_out_count(turns_game: Game) -> None:
    victim = turns_game.to_act
    assert victim is not None
    time_out_until(turns_game, victim, 3)
    seat = Seat.objects.get(table=turns_game.table, position=victim)
    assert (seat.bot_level, seat.timeouts_in_row) == ("medium", 3)
    person = logged_in(seat.user)
    person.post(f"/tables/{turns_game.table_id}/autopilot/", {"level": ""}, headers=HTMX)
    seat.refresh_from_db()
    assert (seat.bot_level, seat.timeouts_in_row) == ("", 3)  # the seat is theirs, the count too
    # One more time-out hands it over again at once (not three more deadlines).
    time_out_until(turns_game, victim, 1)
    seat.refresh_from_db()
    assert (seat.bot_level, seat.timeouts_in_row) == ("medium", 4)
    # Handing it to a bot and back resets nothing either.
    assert seat.user is not None
    services.seat_set_autopilot(table=turns_game.table, user=seat.user, level="easy")
    services.seat_set_autopilot(table=turns_game.table, user=seat.user, level="")
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 4


def test_a_move_made_in_time_resets_the_count(turns_game: Game) -> None:
    victim = turns_game.to_act
    assert victim is not None
    time_out_until(turns_game, victim, 2)
    for _ in range(100):
        turns_game.refresh_from_db()
        if turns_game.to_act == victim:
            break
        play_one(turns_game)
    assert Seat.objects.get(table=turns_game.table, position=victim).timeouts_in_row == 2
    play_one(turns_game)  # the person's own move, in time
    assert Seat.objects.get(table=turns_game.table, position=victim).timeouts_in_row == 0
