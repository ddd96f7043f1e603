"""Same-deals measure of the defence: what two defenders concede to a fixed maker.

    python -m games.bots.defence --defenders hard git:c00a88c --maker hard --deals 1000 --seed 1

Deal i (dealer i % 3, the scores drawn from the seed as in the duel) is bid
by the `--maker` level in every seat, so the maker, trump, the lone calls and
the maker's five kept cards are the same whichever defence plays. From the
first card on, the maker's seat is played by `--maker` and both defenders'
seats by each level of `--defenders` in turn, every random draw the same.
The figure for a defence is the maker's points minus the mean of the two
defenders' per hand that reached the play (lower is better defence), with
its euchres and marches; each later defence is compared with the first on
the same deals, with a 95% interval.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import HandState, Phase, Rules, RulesDict, apply, new_hand, result, view

from .duel import bot_spec, decide, draw_scores, interval, parse_deal_args, run_deals


@dataclass(slots=True)
class Defended:
    """One deal played out by one defence: the maker's net points, and how it ended."""

    net: float
    euchred: bool
    marched: bool


def _bid(
    i: int, maker_level: str, seed: int, rules: Rules, target: int
) -> tuple[HandState, list[int]]:
    """Deal i bid by the maker's level in every seat, up to the first card."""
    rng = random.Random(f"defence-deal-{seed}-{i}")
    scores = draw_scores(rng, target)
    state = new_hand(rules, i % 3, rng)
    rngs = [random.Random(f"defence-bid-{seed}-{i}-{s}") for s in range(3)]
    while state.to_act is not None and state.phase is not Phase.PLAY:
        s = state.to_act
        state = apply(
            state, decide(maker_level, view(state, s), scores, target, f"bid-{i}-{s}", rngs[s])
        )
    return state, scores


def play_out(
    i: int,
    state: HandState,
    scores: list[int],
    maker_level: str,
    defence: str,
    seed: int,
    target: int,
) -> Defended:
    """The play of deal i from its first card (`state`) with this defence."""
    maker = state.maker
    assert maker is not None
    rngs = [random.Random(f"defence-play-{seed}-{i}-{s}") for s in range(3)]
    while state.to_act is not None:
        s = state.to_act
        level = maker_level if s == maker else defence
        state = apply(
            state, decide(level, view(state, s), scores, target, f"play-{i}-{s}", rngs[s])
        )
    r = result(state)
    pts = r["points"]
    others = [s for s in range(3) if s != maker]
    won = r["tricks"][maker]
    return Defended(
        net=pts[maker] - (pts[others[0]] + pts[others[1]]) / 2,
        euchred=won < 3,
        marched=won == 5,
    )


def _job(args: tuple[int, str, tuple[str, ...], int, RulesDict, int]) -> list[Defended] | None:
    """Deal i with each defence (None: thrown in, nobody made trump)."""
    i, maker_level, defences, seed, rules, target = args
    state, scores = _bid(i, maker_level, seed, Rules.from_dict(rules), target)
    if state.phase is not Phase.PLAY or state.maker is None:
        return None
    return [play_out(i, state, scores, maker_level, d, seed, target) for d in defences]


def report(results: list[list[Defended]], defences: Sequence[str], maker: str) -> str:
    n = len(results)
    lines = [f"{n} deals reached the play, {maker} the maker's level"]
    for j, d in enumerate(defences):
        nets = [r[j].net for r in results]
        mean, lo, hi = interval(nets)
        eu = sum(r[j].euchred for r in results)
        ma = sum(r[j].marched for r in results)
        lines.append(
            f"  {d:16} the maker's net {mean:+.4f} a hand ({lo:+.4f} to {hi:+.4f}),"
            f" euchred {100 * eu / max(n, 1):.1f}%, marched {100 * ma / max(n, 1):.1f}%"
        )
    for j, d in enumerate(defences[1:], start=1):
        mean, lo, hi = interval([r[j].net - r[0].net for r in results])
        differed = sum(1 for r in results if r[j].net != r[0].net)
        lines.append(
            f"  {d} - {defences[0]}: {mean:+.4f} a hand conceded ({lo:+.4f} to {hi:+.4f}),"
            f" {differed} deals ended differently"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.defence", description=__doc__.split("\n")[0]
    )
    p.add_argument(
        "--defenders", type=bot_spec, nargs="+", default=["hard"], help="levels or git:<rev>"
    )
    p.add_argument("--maker", type=bot_spec, default="hard")
    args = parse_deal_args(p, argv)
    rules = Rules(deck=args.deck).to_dict()
    defences = tuple(args.defenders)
    jobs = [(i, args.maker, defences, args.seed, rules, args.target) for i in range(args.deals)]
    start = time.perf_counter()
    results: list[list[Defended]] = []
    for n, r in enumerate(run_deals(_job, jobs, args.procs), start=1):
        if r is not None:
            results.append(r)
        if n % 100 == 0 or n == len(jobs):
            print(f"{n}/{len(jobs)} deals ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    print(report(results, defences, args.maker))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
