"""A game of fixed deals (the daily deal): each hand starts from a given deal,
and the game ends after its hand limit whatever the target."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.engine import Action, IllegalAction, MalformedAction, RecordError, Rules

from .helpers import game_error


def deals(n: int, seed: int = 7) -> list[engine.RecordDeal]:
    rng = random.Random(seed)
    return [engine.hand_to_record(engine.new_hand(Rules(), 0, rng))["deal"] for _ in range(n)]


def play_out(game: engine.GameState, fixed: list[engine.RecordDeal], seed: int) -> engine.GameState:
    rng = random.Random(seed)
    while not game.over:
        game = engine.game_deal_hand(game, fixed[len(game.hands)])
        while game.current is not None:
            view = engine.game_view(game, game.current.to_act)
            action = dict(rng.choice(view["legal_actions"]))
            if view["exchange"]:
                action["keep"] = view["exchange"][:5]
            game = engine.game_apply(game, Action.from_dict(action))
    return game


def test_each_hand_is_dealt_from_its_fixed_deal_with_the_dealer_passing_left() -> None:
    fixed = deals(5)
    game = play_out(engine.new_game(Rules(), 25, 2, hand_limit=5), fixed, seed=1)
    assert [engine.hand_to_record(h)["deal"] for h in game.hands] == fixed
    assert [h.dealer for h in game.hands] == [2, 0, 1, 2, 0]


@pytest.mark.parametrize("seed", range(20))
def test_the_game_ends_after_its_last_hand_below_the_target(seed: int) -> None:
    game = play_out(engine.new_game(Rules(), 25, 0, hand_limit=5), deals(5, seed), seed)
    assert game.over and len(game.hands) == 5 and game.next_dealer is None
    top = max(game.scores)
    # The strictly highest score wins; a tie at the top leaves no winner.
    assert game.winner == (game.scores.index(top) if game.scores.count(top) == 1 else None)
    view = engine.game_view(game, 0)
    assert view["over"] and view["hand_limit"] == 5
    with pytest.raises(IllegalAction):
        engine.game_deal_hand(game, deals(1)[0])


def test_the_record_keeps_the_hand_limit_and_replays_to_the_same_end() -> None:
    game = play_out(engine.new_game(Rules(), 25, 1, hand_limit=3), deals(3), seed=3)
    record = engine.game_to_record(game)
    assert record["hand_limit"] == 3
    assert engine.replay_game(record) == engine.game_result(game)
    again = engine.game_from_record(record)
    assert again.over and again.hand_limit == 3
    # A hand after the last one is a fault, as after a won game.
    extra = engine.hand_to_record(engine.new_hand(Rules(), 1, random.Random(1)))
    assert engine.replay_game({**record, "hands": [*record["hands"], extra]}) == {
        "error": {"hand": 3, "reason": "game is over"}
    }


@pytest.mark.parametrize("limit", [0, -1, 101, 2.0, "5", True])
def test_a_hand_limit_must_be_a_whole_number_from_1_to_100(limit: object) -> None:
    with pytest.raises(MalformedAction):
        engine.new_game(Rules(), 25, 0, hand_limit=limit)  # type: ignore[arg-type]
    record = {"format": "euchre3-game/1", "first_dealer": 0, "hand_limit": limit, "hands": []}
    assert game_error(engine.replay_game(record))["hand"] is None


def test_a_deal_that_is_not_a_whole_deck_is_refused() -> None:
    game = engine.new_game(Rules(), 25, 0, hand_limit=5)
    good = deals(1)[0]
    twice = {**good, "dummy": [good["hands"][0][0], *good["dummy"][1:]]}
    spoiled: list[object] = [{}, {"hands": []}, twice, {**good, "kitty": good["kitty"][:2]}]
    for bad in spoiled:
        with pytest.raises(RecordError):
            engine.game_deal_hand(game, bad)
