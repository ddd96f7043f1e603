"""The solver's verdict against the hand as bots play it (games.bots.calibrate):
steps are the score's, the counts add up, and the figures follow the seed."""

from __future__ import annotations

import json

import pytest

from games.bots import calibrate
from games.engine import Rules


def test_tricks_are_rounded_down_to_the_scores_steps() -> None:
    assert [calibrate.step(t, False) for t in range(6)] == [0, 0, 0, 3, 3, 5]
    assert [calibrate.step(t, True) for t in range(6)] == [0, 1, 1, 3, 3, 5]
    assert calibrate.kind(True, False) == "maker alone"
    assert calibrate.kind(True, True) == "defender alone"


def test_each_hand_is_counted_once_from_its_first_card(capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules().to_dict()
    rows = [calibrate.play_deal((i, "medium", 5, rules, 10)) for i in range(12)]
    again = [calibrate.play_deal((i, "medium", 5, rules, 10)) for i in range(12)]
    assert rows == again
    played = [r for r in rows if r is not None]
    assert played and all(r[1] in (0, 1, 3, 5) and r[2] in (0, 1, 3, 5) for r in played)
    assert (
        calibrate.main(["--level", "medium", "--deals", "12", "--seed", "5", "--procs", "1"]) == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == len(played)
    counted = sum(
        n for verdicts in doc["counts"].values() for c in verdicts.values() for n in c.values()
    )
    assert counted == len(played)
    assert doc["counts"] == calibrate.table(played)
