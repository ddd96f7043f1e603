"""Every bot returns a legal action, over thousands of random positions of every deck and option."""

from __future__ import annotations

import itertools
import json
import random
import zlib

import pytest

from games.bots import LEVELS, choose_action
from games.engine import (
    Action,
    HandState,
    Rules,
    apply,
    game_apply,
    game_start_hand,
    game_view,
    legal_actions,
    new_game,
    new_hand,
    view,
)

ALL_RULES = [
    Rules(deck=d, stick_the_dealer=s, second_round_turned_suit=t, lone_maker_march=m)
    for d, s, t, m in itertools.product(("24", "32", "25"), (False, True), (False, True), (3, 4))
]


def _check(level: str, state: HandState, rng: random.Random) -> Action:
    """Ask the bot about the seat to act; assert the answer is legal; return it as an Action."""
    seat = state.to_act
    v = view(state, seat)
    act = choose_action(level, v, rng)
    assert isinstance(act, Action)  # typed, not a dict
    if v["exchange"]:  # dummy_keep: five of the ten cards the maker now sees
        assert act.type == "dummy" and act.keep is not None and len(set(act.keep)) == 5
        assert set(act.keep) <= set(v["exchange"])
    else:
        assert act.to_dict() in v["legal_actions"], (level, act, v["legal_actions"])
    assert act in legal_actions(state)
    apply(state, act)  # raises if illegal
    return act


@pytest.mark.parametrize(
    "rules",
    ALL_RULES,
    ids=lambda r: (
        f"{r.deck}-{r.stick_the_dealer:d}{r.second_round_turned_suit:d}{r.lone_maker_march}"
    ),
)
def test_every_bot_answers_legally_in_random_positions(rules: Rules, small_budget: None) -> None:
    """Random hands where a random mix of moves reaches odd positions; every bot is asked at each."""
    # A stable seed per rule set: hash() of a string changes from one process to the next.
    rng = random.Random(zlib.crc32(json.dumps(rules.to_dict(), sort_keys=True).encode()))
    asked = 0
    for hand_no in range(14):
        state = new_hand(rules, hand_no % 3, rng)
        while not state.over:
            for level in ("easy", "medium"):
                _check(level, state, rng)
                asked += 1
            if hand_no % 4 == 0:
                _check("hard", state, rng)
                asked += 1
            # Move on by a random legal action (sometimes a bot's), to reach loners and sticks.
            if rng.random() < 0.5:
                acts = legal_actions(state)
                act = acts[rng.randrange(len(acts))]
            else:
                act = _check("medium", state, rng)
            state = apply(state, act)
    assert asked > 100


@pytest.mark.parametrize("level", LEVELS)
def test_three_bots_play_whole_games(level: str, small_budget: None) -> None:
    rng = random.Random(11)
    # The search levels play one short game (their decisions cost the most).
    search = level in ("hard", "expert")
    for g in range(1 if search else 4):
        rules = ALL_RULES[(g * 7 + LEVELS.index(level)) % len(ALL_RULES)]
        game = new_game(rules, 5 if search else 10, g % 3)
        n = 0
        while not game.over:
            game = game_start_hand(game, rng)
            while (state := game.current) is not None:
                v = game_view(game, state.to_act)
                a = choose_action(level, v, rng)
                assert a.to_dict() in v["legal_actions"] or (
                    v["exchange"] and set(a.keep or ()) <= set(v["exchange"])
                )
                game = game_apply(game, a)
                n += 1
        assert game.winner is not None and n > 0


def test_an_unknown_level_is_refused() -> None:
    state = new_hand(Rules(), 0, random.Random(1))
    with pytest.raises(
        ValueError,
        match=r"^unknown bot level 'grandmaster'; choose one of easy, medium, hard, expert$",
    ):
        choose_action("grandmaster", view(state, 1), random.Random(1))


def test_a_seat_not_to_act_is_refused() -> None:
    state = new_hand(Rules(), 0, random.Random(1))
    with pytest.raises(ValueError, match=r"^this seat has nothing to decide now$"):
        choose_action("medium", view(state, 0), random.Random(1))


@pytest.mark.parametrize("level", LEVELS)
def test_the_maker_chooses_before_seeing_the_dummy_then_keeps_five(
    level: str, small_budget: None
) -> None:
    """At maker_choice the bot picks `alone` or a keep-less `dummy`; at
    dummy_keep it keeps five of the ten cards its view now shows."""
    rng = random.Random(4)
    found = 0
    while found < 3:
        state = new_hand(Rules(), 0, rng)
        while not state.over and state.phase.value != "maker_choice":
            acts = legal_actions(state)
            state = apply(state, acts[rng.randrange(len(acts))])
        if state.over:
            continue
        seat = state.to_act
        assert seat is not None
        choice = choose_action(level, view(state, seat), random.Random(1))
        assert choice in (Action(seat, "alone"), Action(seat, "dummy"))
        state = apply(state, Action(seat, "dummy"))
        v = view(state, seat)
        assert v["legal_actions"] == [{"seat": seat, "type": "dummy", "keep": None}]
        a = choose_action(level, v, random.Random(1))
        assert a.type == "dummy" and a.seat == seat and a.keep is not None
        assert len(set(a.keep)) == 5 and set(a.keep) <= set(v["exchange"] or [])
        apply(state, a)
        found += 1
