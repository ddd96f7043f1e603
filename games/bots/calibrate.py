"""How the solver's verdict on a hand compares with the hand as bots play it.

    python -m games.bots.calibrate --level hard --deals 1200 --seed 2 --procs 2

(seed 2: other deals than those of the duel's figures, seed 1).

The search values a call before the play by solving the play double-dummy
(`hard._finish`): every seat sees every card, so the two defenders defend
as one and the maker never guesses. Real play is neither. This tool plays
whole hands with all three seats at `--level` (the deals and scores as the
duel draws them), solves each hand at its first card as the search would,
and counts, for each of the solver's verdicts (the maker's tricks rounded
down to a score step: 0, 3, 5, or 1 against a lone defender), how many
tricks the maker really took, rounded the same way, and prints the table
as JSON. Where the two differ, the solver's verdict misjudges the hand as
these bots play it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.engine import HandState, Phase, Rules, apply, view
from games.engine.cards import SUIT_INDEX

from . import hard
from .common import mask
from .duel import LevelJob, decide, level_jobs, run_deals, start_deal
from .solver import Solver


def kind(maker_alone: bool, defender_alone: bool) -> str:
    """A hand's kind: who plays alone decides the score steps."""
    return "defender alone" if defender_alone else "maker alone" if maker_alone else "together"


def step(tricks: int, defender_alone: bool) -> int:
    """The maker's tricks rounded down to a score step."""
    return max((t for t in hard.thresholds(defender_alone) if tricks >= t), default=0)


def play_deal(job: LevelJob) -> tuple[str, int, int] | None:
    """Deal i played by three bots of `level`: (kind, the solver's step at
    the first card, the step the maker took), or None if thrown in."""
    i, level, seed, rules, target = job
    scores, state, keys, rngs = start_deal(i, seed, Rules.from_dict(rules), target, "calibrate")
    solved: tuple[str, int] | None = None
    while state.to_act is not None:
        if solved is None and state.phase is Phase.PLAY:
            solved = _solve(state)
        seat = state.to_act
        state = apply(
            state, decide(level, view(state, seat), scores, target, keys[seat], rngs[seat])
        )
    if solved is None or state.maker is None:
        return None
    defender_alone = solved[0] == "defender alone"
    return solved[0], solved[1], step(state.tricks_won[state.maker], defender_alone)


def _solve(state: HandState) -> tuple[str, int]:
    """The hand's kind and the solver's step for the maker, at the first card."""
    assert state.maker is not None and state.trump is not None
    maker, out = state.maker, state.sitting_out
    defender_alone = any(s != maker for s in state.alone)
    hands = [0 if s == out else mask(state.hand_of(s)) for s in range(3)]
    solver = Solver(SUIT_INDEX[state.trump], maker, out)
    assert state.to_act is not None
    got = hard.solve_bucket(solver, hands, state.to_act, [], 0, defender_alone)
    return kind(maker in state.alone, defender_alone), got


def table(rows: list[tuple[str, int, int]]) -> dict[str, dict[str, dict[str, int]]]:
    """Counts: kind -> the solver's step -> the step taken -> hands."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for k, dd, real in rows:
        cell = out.setdefault(k, {}).setdefault(str(dd), {})
        cell[str(real)] = cell.get(str(real), 0) + 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.calibrate", description=__doc__.split("\n")[0]
    )
    args, jobs = level_jobs(p, argv)
    rows = [r for r in run_deals(play_deal, jobs, args.procs) if r is not None]
    counts = table(rows)
    doc = {
        "command": "python -m games.bots.calibrate "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "hands": len(rows),
        "counts": counts,
    }
    print(json.dumps(doc, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
