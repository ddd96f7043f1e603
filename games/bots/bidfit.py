"""How boldly bots bid in the first round, against the rules that model them.

    python -m games.bots.bidfit --level hard --deals 600 --seed 3 --procs 2

Before the play, the search values each call by finishing the hand in
sampled deals, where the other seats bid by the rule-based policy
(`hard._policy`) and their bids so far are read with the same rules
(`hard._bid_weight`). A model that bids more timidly than the real players
misjudges a pass: it expects the auction to come back round. This tool plays
the auction of each deal (the deals and scores as the duel draws them) with
three bots of `--level`, and for every first-round decision computes the
rules' margin for ordering up on the true deal (`hard.order_margin`). It
prints, for each offset added to that margin (`Level.bold`), how often the
rules then order and how often they make the bots' own call.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from games.engine import Phase, Rules, apply, view

from . import hard
from .common import Knowledge
from .duel import LevelJob, decide, level_jobs, run_deals, start_deal

OFFSETS = tuple(x / 10 for x in range(16))

# A first-round decision: (the seat's place after the dealer: 1 first, 0 the
# dealer; whether the bot ordered; the rules' margin).
Call = tuple[int, bool, float]


def auction(job: LevelJob) -> list[Call]:
    """The first-round decisions of deal i bid by three bots of `level`."""
    i, level, seed, rules, target = job
    scores, state, keys, rngs = start_deal(i, seed, Rules.from_dict(rules), target, "bidfit")
    out = []
    while state.phase is Phase.BID1 or state.phase is Phase.JOKER_SUIT:
        seat = state.to_act
        assert seat is not None
        hv = view(state, seat)
        a = decide(level, hv, scores, target, keys[seat], rngs[seat])
        if state.phase is Phase.BID1:
            k = Knowledge.from_view({**hv, "scores": scores, "target": target})  # type: ignore[typeddict-item]
            margin = hard.order_margin(k, state, random.Random(keys[seat]))
            out.append(((seat - state.dealer) % 3, a.type == "order", margin))
        state = apply(state, a)
    return out


def fit(calls: Sequence[Call]) -> list[tuple[float, float, float]]:
    """For each offset: (offset, the rules' order rate, their agreement with the bots)."""
    rows = []
    for d in OFFSETS:
        rules_order = [m + d >= 0 for _, _, m in calls]
        agree = sum(r == o for r, (_, o, _) in zip(rules_order, calls, strict=True))
        rows.append((d, sum(rules_order) / len(calls), agree / len(calls)))
    return rows


def report(calls: Sequence[Call], level: str) -> str:
    if not calls:
        return "no first-round decisions"
    ordered = sum(o for _, o, _ in calls) / len(calls)
    lines = [f"{len(calls)} first-round decisions of {level}: ordered {ordered:.1%}"]
    for place, name in ((1, "left of the dealer"), (2, "second"), (0, "the dealer")):
        got = [c for c in calls if c[0] == place]
        if got:
            share = sum(o for _, o, _ in got) / len(got)
            lines.append(f"  {name:18} {len(got):5} decisions, ordered {share:.1%}")
    lines.append("offset  rules order  agree with the bots")
    for d, rate, agree in fit(calls):
        lines.append(f"  {d:.1f}      {rate:6.1%}       {agree:6.1%}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.bidfit", description=__doc__.split("\n")[0]
    )
    args, jobs = level_jobs(p, argv)
    calls = [c for got in run_deals(auction, jobs, args.procs) for c in got]
    print(report(calls, args.level))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
