from __future__ import annotations

import random
from typing import Any

import pytest

from euchre_site.refusal import Code, Refusal
from games import engine, services
from games.models import Game, Hand, Seat, Table
from tests.games.refusals import refused_with

from .conftest import open_table, play_one, players, state_of, to_act

pytestmark = pytest.mark.django_db


def test_creating_a_table_seats_the_creator_and_stores_every_rule(alice: Any) -> None:
    table = open_table(alice, rules={"deck": "25", "stick_the_dealer": True}, target=11)
    assert table.rules == {
        "deck": "25",
        "stick_the_dealer": True,
        "second_round_turned_suit": False,
        "lone_maker_march": 3,
    }
    assert table.seats.get(position=0).user == alice
    assert [s.is_empty for s in table.seats.all()] == [False, True, True]
    assert "Stick the dealer" in " ".join(table.rules_in_words())


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"name": "  "}, "Give the table a name."),
        ({"target": 4}, "The target must be between 5 and 25 points."),
        ({"rules": {"deck": "52"}}, "Those table options are not valid."),
        ({"mode": "turns", "move_seconds": 5}, "Choose the time per move."),
    ],
)
def test_creating_a_table_rejects_bad_input(alice: Any, kw: dict[str, Any], message: str) -> None:
    with pytest.raises(Refusal) as err:
        open_table(alice, **kw)
    assert err.value.message == message
    assert not Table.objects.exists()


def test_the_game_starts_when_the_third_seat_is_filled(alice: Any, bob: Any, carol: Any) -> None:
    table = open_table(alice)
    assert services.table_join(table=table, user=bob, position=1) is None
    game = services.table_join(table=table, user=carol, position=2)
    assert game is not None and game.version == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    hand = Hand.objects.get(game=game)
    assert hand.record["format"] == "euchre3-hand/1"
    assert hand.record["dealer"] == game.first_dealer
    assert game.to_act == (game.first_dealer + 1) % 3


def test_a_taken_seat_cannot_be_joined(alice: Any, bob: Any, carol: Any) -> None:
    table = open_table(alice)
    services.table_join(table=table, user=bob, position=1)
    with pytest.raises(Refusal, match=r"^That seat is taken\.$"):
        services.table_join(table=table, user=carol, position=1)
    with pytest.raises(Refusal, match=r"^You already have a seat at this table\.$"):
        services.table_join(table=table, user=bob, position=2)


def test_one_check_says_which_seats_are_free_for_people_bots_and_invitations(
    alice: Any, bob: Any
) -> None:
    table = open_table(alice)
    services.table_set_bot(table=table, user=alice, position=2, level="easy")
    services.check_seat_free(table, 1)  # open: nothing raised
    for position in (0, 2):  # a person's, a bot's
        with refused_with(Code.CONFLICT, match=r"^That seat is taken\.$"):
            services.check_seat_free(table, position)
    for position in (-1, 3):
        with refused_with(Code.INVALID, match=r"^Choose seat 1, 2 or 3\.$"):
            services.check_seat_free(table, position)
    assert [services.seat_position(t) for t in ("0", "1", "2")] == [0, 1, 2]
    for text in ("", "3", "1.0", " 1", "-0", None):
        with refused_with(Code.INVALID, match=r"^Choose seat 1, 2 or 3\.$"):
            services.seat_position(text)
    services.table_join(table=table, user=bob, position=1)  # full: the game starts
    table.refresh_from_db()
    with refused_with(Code.CONFLICT, match=r"^The game at this table has already started\.$"):
        services.check_seat_free(table, 1)


def test_players_leave_before_the_start_and_an_empty_table_closes(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    services.table_join(table=table, user=bob, position=1)
    services.table_leave(table=table, user=bob)
    assert table.seats.get(position=1).is_empty
    services.table_leave(table=table, user=alice)
    assert not Table.objects.filter(pk=table.pk).exists()


def test_only_the_creator_seats_bots_and_bots_fill_the_table(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    with pytest.raises(Refusal, match=r"^Only the table's creator can seat bots\.$"):
        services.table_set_bot(table=table, user=bob, position=1, level="easy")
    services.table_set_bot(table=table, user=alice, position=1, level="hard")
    game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
    assert game is not None
    assert [s.bot_level for s in Seat.objects.filter(table=table)] == ["", "hard", "easy"]


def test_a_legal_move_is_stored_and_bumps_the_version(game: Game) -> None:
    before = len(game.hands.get().record["actions"])
    action = play_one(game)
    game.refresh_from_db()
    assert game.version == 2
    record = game.hands.get().record
    assert len(record["actions"]) == before + 1
    assert record["actions"][-1]["type"] == action["type"]


def test_it_rejects_a_stale_version_and_changes_nothing(game: Game) -> None:
    seat = to_act(game)
    user = players(game.table)[seat]
    with refused_with(Code.STALE):
        services.game_act(
            game_id=game.pk,
            version=game.version - 1,
            action={"type": "pass"},
            actor=services.Actor.person(user),
        )
    game.refresh_from_db()
    assert game.version == 1
    assert game.hands.get().record["actions"] == []


def test_the_same_move_twice_is_applied_once(game: Game) -> None:
    seat = to_act(game)
    user = players(game.table)[seat]
    services.game_act(
        game_id=game.pk, version=1, action={"type": "pass"}, actor=services.Actor.person(user)
    )
    with refused_with(Code.STALE):
        services.game_act(
            game_id=game.pk, version=1, action={"type": "pass"}, actor=services.Actor.person(user)
        )
    assert len(game.hands.get().record["actions"]) == 1


def test_it_rejects_a_move_out_of_turn(game: Game) -> None:
    seat = (to_act(game) + 1) % 3
    with pytest.raises(Refusal, match=r"^It is not your turn\.$"):
        services.game_act(
            game_id=game.pk,
            version=1,
            action={"type": "pass"},
            actor=services.Actor.person(players(game.table)[seat]),
        )


def test_it_rejects_someone_not_seated(game: Game, outsider: Any) -> None:
    with pytest.raises(Refusal, match=r"^You are not playing at this table\.$"):
        services.game_act(
            game_id=game.pk,
            version=1,
            action={"type": "pass"},
            actor=services.Actor.person(outsider),
        )


def test_an_illegal_action_says_why_and_changes_nothing(game: Game) -> None:
    seat = to_act(game)
    user = players(game.table)[seat]
    with pytest.raises(Refusal) as err:
        services.game_act(
            game_id=game.pk,
            version=1,
            action={"type": "play", "card": "9C"},
            actor=services.Actor.person(user),
        )
    assert err.value.message == "Order it up or pass."
    assert err.value.rule == "first-round"
    with pytest.raises(Refusal):
        services.game_act(
            game_id=game.pk, version=1, action={"type": "fly"}, actor=services.Actor.person(user)
        )
    game.refresh_from_db()
    assert game.version == 1


def test_a_move_naming_a_seat_or_carrying_other_fields_is_refused(game: Game) -> None:
    seat = to_act(game)
    user = players(game.table)[seat]
    before = game.hands.get().record
    for action, message in (
        ({"type": "pass", "seat": (seat + 1) % 3}, "That is not a move."),
        ({"type": "pass", "auto": True}, "The move 'pass' has no field 'auto'."),
        ({"type": "pass", "note": "x"}, "The move 'pass' has no field 'note'."),
        ({"type": "order", "card": "9C"}, "The move 'order' has no field 'card'."),
    ):
        with pytest.raises(Refusal) as err:
            services.game_act(
                game_id=game.pk, version=1, action=action, actor=services.Actor.person(user)
            )
        assert err.value.message == message
    game.refresh_from_db()
    assert game.version == 1 and game.hands.get().record == before


def test_using_the_dummy_is_a_step_of_its_own_then_keep_five(game: Game) -> None:
    play_one(game, prefer="order")
    state = state_of(game)
    while state.current is not None and state.current.phase != "maker_choice":
        play_one(game, prefer="pickup")
        state = state_of(game)
    maker = to_act(game)
    user = players(game.table)[maker]
    assert engine.game_view(state, maker)["exchange"] is None
    services.game_act(
        game_id=game.pk,
        version=game.version,
        action={"type": "dummy"},
        actor=services.Actor.person(user),
    )
    game.refresh_from_db()
    assert game.hands.get(number=0).record["actions"][-1] == {"seat": maker, "type": "dummy"}
    view = engine.game_view(state_of(game), maker)
    ten = view["exchange"]
    assert ten is not None and len(ten) == 10
    assert engine.game_view(state_of(game), (maker + 1) % 3)["exchange"] is None
    with pytest.raises(Refusal, match=r"^Choose the five cards to keep\.$"):
        services.game_act(
            game_id=game.pk,
            version=game.version,
            action={"type": "alone"},
            actor=services.Actor.person(user),
        )
    services.game_act(
        game_id=game.pk,
        version=game.version,
        action={"type": "dummy", "keep": ten[5:]},
        actor=services.Actor.person(user),
    )
    last = game.hands.get(number=0).record["actions"][-1]
    assert last["type"] == "dummy" and sorted(last["keep"]) == sorted(ten[5:])


def test_a_whole_game_is_played_and_finished_through_the_service(game: Game, alice: Any) -> None:
    rng = random.Random(7)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        play_one(game, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner is not None and max(game.scores) >= 5
    game.table.refresh_from_db()
    assert game.table.status == Table.Status.FINISHED
    hands = list(game.hands.order_by("number"))
    assert all(h.result is not None for h in hands)
    with pytest.raises(Refusal, match=r"^The game is over\.$"):
        services.game_act(
            game_id=game.pk,
            version=game.version,
            action={"type": "pass"},
            actor=services.Actor.person(alice),
        )
    rematch = services.game_rematch(table=game.table, user=alice)
    assert rematch.number == 2 and rematch.status == Game.Status.PLAYING


def test_a_rematch_needs_a_finished_game(game: Game, alice: Any, outsider: Any) -> None:
    with pytest.raises(Refusal, match=r"^The current game is not finished yet\.$"):
        services.game_rematch(table=game.table, user=alice)
    with pytest.raises(Refusal, match=r"^Only the players at this table can start a rematch\.$"):
        services.game_rematch(table=game.table, user=outsider)
