"""Every example record of spec/examples replays to its `expect`."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import replay_game, replay_hand

from .helpers import load_examples, spec_examples_dir

pytestmark = pytest.mark.skipif(
    not (spec_examples_dir() / "hands.jsonl").exists(), reason="spec examples not found"
)


def _hands() -> list[dict[str, Any]]:
    return load_examples("hands.jsonl") if (spec_examples_dir() / "hands.jsonl").exists() else []


def _games() -> list[dict[str, Any]]:
    return load_examples("games.jsonl") if (spec_examples_dir() / "games.jsonl").exists() else []


@pytest.mark.parametrize("case", _hands(), ids=lambda c: "")
def test_hand_example_replays_to_its_expectation(case: dict[str, Any]) -> None:
    got = replay_hand(case["record"])
    expect = case["expect"]
    if "error" in expect:
        assert "error" in got, got
        assert got["error"]["index"] == expect["error"]["index"], got
        assert set(got["error"]) == {"index", "action", "reason"}
        if expect["error"]["index"] is not None:
            assert got["error"]["action"] == expect["error"]["action"]
    else:
        assert got == expect


@pytest.mark.parametrize("case", _games(), ids=lambda c: "")
def test_game_example_replays_to_its_expectation(case: dict[str, Any]) -> None:
    got = (
        replay_game(case["record"])
        if case["record"].get("format") == "euchre3-game/1"
        else (replay_hand(case["record"]))
    )
    expect = case["expect"]
    if "error" in expect:
        assert "error" in got, got
        e, g = expect["error"], got["error"]
        if "hand" in e:
            assert g["hand"] == e["hand"], got
            assert ("detail" in g) == ("detail" in e)
            if "detail" in e:
                assert g["detail"]["index"] == e["detail"]["index"], got
        else:
            assert g["index"] == e["index"]
    else:
        assert got == expect
