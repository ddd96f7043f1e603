"""Every example record replays to its `expect`: the examples kept with the
tests (tests/data/examples), or those of $EUCHRE_SPEC_DIR. Missing or empty
example files fail the tests, they are never skipped."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import HandFault, replay_game, replay_hand

from .helpers import example_cases, game_error, hand_error, missing_examples


def same_hand_error(got: HandFault, expect: dict[str, Any]) -> None:
    """The same fault at the same place: `index` and `action` as expected (both
    null for a malformed record); `reason` is free text, so only present."""
    assert set(got) == {"index", "action", "reason"}, got
    assert (got["index"], got["action"]) == (expect["index"], expect["action"]), got
    assert isinstance(got["reason"], str) and got["reason"], got


@pytest.mark.parametrize("case", example_cases("hands.jsonl"))
def test_hand_example_replays_to_its_expectation(case: dict[str, Any]) -> None:
    missing_examples(case)
    got = replay_hand(case["record"])
    expect = case["expect"]
    if "error" in expect:
        same_hand_error(hand_error(got), expect["error"])
    else:
        assert got == expect


@pytest.mark.parametrize("case", example_cases("games.jsonl"))
def test_game_example_replays_to_its_expectation(case: dict[str, Any]) -> None:
    missing_examples(case)
    record = case["record"]
    is_game = record.get("format") == "euchre3-game/1"
    expect = case["expect"]
    if not is_game:
        hand = replay_hand(record)
        if "error" in expect:
            same_hand_error(hand_error(hand), expect["error"])
        else:
            assert hand == expect
    elif "error" not in expect:
        assert replay_game(record) == expect
    else:
        got = replay_game(record)
        e, g = expect["error"], game_error(got)
        assert set(g) == set(e), got  # `detail` only when a hand's replay failed
        assert g["hand"] == e["hand"], got
        assert isinstance(g["reason"], str) and g["reason"], got
        if "detail" in e:
            same_hand_error(g["detail"], e["detail"])
