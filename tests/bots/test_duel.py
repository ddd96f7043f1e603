"""The same-deals duel tool: reproducible from its seed, zero between a bot
and itself, and a difference traced to the phase where it began."""

from __future__ import annotations

import pytest

from games.bots import duel
from games.engine import Rules


def test_a_bot_against_itself_differs_nowhere(small_budget: None) -> None:
    for i in range(3):
        got = duel.compare(i, "medium", "medium", "medium", 7, Rules(), 10)
        assert got.diff == 0 and got.part is None


def test_the_figures_follow_the_seed_and_name_the_phase(
    small_budget: None, capsys: pytest.CaptureFixture[str]
) -> None:
    first = [duel.compare(i, "hard", "easy", "medium", 3, Rules(), 10) for i in range(6)]
    again = [duel.compare(i, "hard", "easy", "medium", 3, Rules(), 10) for i in range(6)]
    assert [(c.diff, c.part) for c in first] == [(c.diff, c.part) for c in again]
    assert {c.part for c in first} - {None} <= set(duel.PARTS)
    assert any(c.part is not None for c in first)  # easy decides differently somewhere
    assert duel.main(["--a", "hard", "--b", "easy", "--deals", "3", "--procs", "1"]) == 0
    out = capsys.readouterr().out
    assert "3 deals, hard against easy" in out and "points a hand (95% interval" in out
    assert "decision time of hard: p50" in out


def test_the_interval() -> None:
    mean, lo, hi = duel.interval([1.0, -1.0, 1.0, -1.0])
    assert mean == 0 and lo == pytest.approx(-1.1316, abs=1e-3) and hi == -lo


def test_a_bot_of_a_git_revision_plays_as_that_revisions_code() -> None:
    """`git:<rev>:<level>` runs the bots of that revision (no fork kept in the
    tree): the medium bot of HEAD decides as today's medium bot."""
    for i in range(3):
        got = duel.compare(i, "medium", "git:HEAD:medium", "medium", 5, Rules(), 10)
        assert got.diff == 0 and got.part is None and got.times_b


def test_the_defence_measure_plays_each_defence_on_the_same_bid_hands(
    small_budget: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The maker's level bids every seat, so each defence meets the same hand
    at the first card; a defence against itself concedes the same."""
    from games.bots import defence

    rules = Rules().to_dict()
    got = [defence._job((i, "medium", ("easy", "easy", "medium"), 4, rules, 10)) for i in range(12)]
    played = [g for g in got if g is not None]
    assert played and all(g[0] == g[1] for g in played)
    assert any(g[0] != g[2] for g in played)  # easy and medium defend differently somewhere
    assert defence.main(["--defenders", "easy", "medium", "--deals", "3", "--procs", "1"]) == 0
    out = capsys.readouterr().out
    assert "the maker's net" in out and "medium - easy:" in out
