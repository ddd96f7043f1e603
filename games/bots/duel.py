"""Same-deals duel: how much better one bot decides than another, hand by hand.

    python -m games.bots.duel --a hard --b git:c00a88c --deals 300 --seed 1

A bot is a level (easy, medium, hard, expert) or `git:<rev>[:<level>]`, the
bot of that git revision (hard unless named; `games.bots.revision` runs it).

Deal i is played twice from the same cards and the same scores, with the
hero at seat i % 3 and the dealer at (i // 3) % 3: once with the hero's
decisions made by bot A, once by bot B. The other two seats (the field,
`--field`, B's level unless given) and every random draw are identical in
both, so the two hands differ only from the hero's first decision on which
A and B disagree. The figure is A's hero's points minus B's (each as points
of the hero minus the mean of the other two) per hand, with a 95% interval,
and split by the phase of that first disagreement: bidding, maker's choice
(dummy or alone, and the five to keep), defending alone, and the play.

The scores before each deal are drawn from the seed (a quarter of the deals
at 0-0-0, the others anywhere below the target), since the bots weigh the
score. The bots' wall-time cap is lifted, so the figures follow the seed
alone. Deals run in `--procs` processes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from games.engine import (
    Action,
    GameView,
    HandState,
    HandView,
    Rules,
    RulesDict,
    apply,
    new_hand,
    result,
    view,
)

from . import LEVELS, choose_action, hard, revision

PHASES = {
    "joker_suit": "bidding",
    "bid1": "bidding",
    "dealer_pickup": "bidding",
    "bid2": "bidding",
    "maker_choice": "maker's choice",
    "dummy_keep": "maker's choice",
    "defender_alone": "defending alone",
    "play": "play",
}
PARTS = ("bidding", "maker's choice", "defending alone", "play")


@dataclass(slots=True)
class Played:
    """One play of a deal: the hero's decisions (phase, action) and its value."""

    decisions: list[tuple[str, Action]] = field(default_factory=list)
    value: float = 0.0
    times: list[float] = field(default_factory=list)


def draw_scores(rng: random.Random, target: int) -> list[int]:
    if rng.random() < 0.25:
        return [0, 0, 0]
    return [rng.randrange(target) for _ in range(3)]


def decide(
    level: str,
    hv: HandView,
    scores: list[int],
    target: int,
    key: str,
    rng: random.Random,
) -> Action:
    """The action of a bot (a level or git:<rev>) from a seat's view of this
    one hand, made a game view at these scores (`key` seeds a revision's bot)."""
    v = GameView(
        **hv,
        scores=scores,
        target=target,
        hand_limit=None,
        hand_number=1,
        over=False,
        winner=None,
        first_dealer=hv["dealer"] or 0,
        next_dealer=None,
        last_hand=None,
        score_pad=[],
    )
    if revision.parse(level) is not None:
        return Action.from_dict(revision.bot(level).choose(key, v))
    return choose_action(level, v, rng)


def start_deal(
    i: int, seed: int, rules: Rules, target: int, tag: str
) -> tuple[list[int], HandState, list[str], list[random.Random]]:
    """Deal i as every same-deals tool draws it from the seed: the scores
    before it, the hand (the dealer (i // 3) % 3), and each seat's bot key
    (`tag`-seed-i-seat) and random draws."""
    deal_rng = random.Random(f"duel-deal-{seed}-{i}")
    scores = draw_scores(deal_rng, target)
    state = new_hand(rules, (i // 3) % 3, deal_rng)
    keys = [f"{tag}-{seed}-{i}-{s}" for s in range(3)]
    return scores, state, keys, [random.Random(key) for key in keys]


def play_deal(
    i: int, hero_level: str, field_level: str, seed: int, rules: Rules, target: int
) -> Played:
    """Deal i with the hero's seat played by `hero_level`."""
    hero = i % 3
    scores, state, keys, rngs = start_deal(i, seed, rules, target, "duel-bot")
    out = Played()
    while state.to_act is not None:
        seat = state.to_act
        hv = view(state, seat)
        level = hero_level if seat == hero else field_level
        t0 = time.perf_counter()
        a = decide(level, hv, scores, target, keys[seat], rngs[seat])
        if seat == hero:
            if len(hv["legal_actions"]) > 1 or a.type == "dummy":
                out.times.append(time.perf_counter() - t0)
            out.decisions.append((PHASES.get(hv["phase"] or "", "play"), a))
        state = apply(state, a)
    pts = result(state)["points"]
    others = [s for s in range(3) if s != hero]
    out.value = pts[hero] - (pts[others[0]] + pts[others[1]]) / 2
    return out


@dataclass(slots=True)
class Compared:
    """A deal played by A and by B: the difference and where it began."""

    diff: float
    part: str | None  # the phase of the first disagreement (None: they agreed throughout)
    times_a: list[float]
    times_b: list[float]


def compare(
    i: int, a: str, b: str, field_level: str, seed: int, rules: Rules, target: int
) -> Compared:
    pa = play_deal(i, a, field_level, seed, rules, target)
    pb = play_deal(i, b, field_level, seed, rules, target)
    part = next(
        (da[0] for da, db in zip(pa.decisions, pb.decisions, strict=False) if da != db),
        None,
    )
    if part is None and len(pa.decisions) != len(pb.decisions):
        part = "play"  # pragma: no cover - the same decisions give the same hand
    return Compared(pa.value - pb.value, part, pa.times, pb.times)


def lift_caps() -> None:
    """No wall-time cap on a decision: each bot takes its sample budget, so
    the figures follow the seed, not the machine's load."""
    hard.CAP_MS = hard.EXPERT_CAP_MS = math.inf


def _job(args: tuple[int, str, str, str, int, RulesDict, int]) -> Compared:
    i, a, b, field_level, seed, rules, target = args
    return compare(i, a, b, field_level, seed, Rules.from_dict(rules), target)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _pct(times: list[float], q: float) -> float:
    if not times:
        return 0.0
    s = sorted(times)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def report(results: list[Compared], a: str, b: str) -> str:
    diffs = [r.diff for r in results]
    mean, lo, hi = interval(diffs)
    lines = [
        f"{len(results)} deals, {a} against {b} in the hero's seat",
        f"{a} - {b}: {mean:+.4f} points a hand (95% interval {lo:+.4f} to {hi:+.4f})",
        "by the phase of the first different decision (share of the total per hand):",
    ]
    for part in PARTS:
        got = [r.diff for r in results if r.part == part]
        share = sum(got) / len(results)
        m, plo, phi = interval(got)
        lines.append(
            f"  {part:16} {len(got):5} deals  {share:+.4f} a hand"
            f"  (mean {m:+.3f} where it differed, {plo:+.3f} to {phi:+.3f})"
        )
    same = sum(1 for r in results if r.part is None)
    lines.append(f"  {'no difference':16} {same:5} deals")
    for name, times in ((a, [t for r in results for t in r.times_a]),
                        (b, [t for r in results for t in r.times_b])):  # fmt: skip
        lines.append(
            f"decision time of {name}: p50 {_pct(times, 0.5):.0f} ms, p99 {_pct(times, 0.99):.0f} ms"
            f" ({len(times)} decisions)"
        )
    return "\n".join(lines)


def bot_spec(spec: str) -> str:
    if spec in LEVELS or revision.parse(spec) is not None:
        return spec
    raise argparse.ArgumentTypeError(f"{spec!r} is not one of {', '.join(LEVELS)} or git:<rev>")


def _level(spec: str) -> str:
    parsed = revision.parse(spec)
    return spec if parsed is None else parsed[1]


def parse_deal_args(p: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Add the options of a run over numbered deals (this tool's and
    games.bots.defence's) to `p`, and parse `argv`."""
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--target", type=int, default=10)
    p.add_argument("--deck", choices=("24", "32", "25"), default="24")
    p.add_argument("--procs", type=int, default=2)
    args = p.parse_args(argv)
    if args.deals < 1 or args.procs < 1:
        p.error("--deals and --procs must be at least 1")
    return args


# A job of a tool that plays deal i with bots of one level: (i, level, seed, rules, target).
LevelJob = tuple[int, str, int, RulesDict, int]


def level_jobs(
    p: argparse.ArgumentParser, argv: Sequence[str] | None
) -> tuple[argparse.Namespace, list[LevelJob]]:
    """Add `--level` and the deal options to `p`, parse `argv`, and list a
    job for each deal (games.bots.calibrate, games.bots.bidfit)."""
    p.add_argument("--level", type=bot_spec, default="hard")
    args = parse_deal_args(p, argv)
    rules = Rules(deck=args.deck).to_dict()
    return args, [(i, args.level, args.seed, rules, args.target) for i in range(args.deals)]


def run_deals[J, R](job: Callable[[J], R], jobs: list[J], procs: int) -> Iterator[R]:
    """Each job's result, in order, from `procs` processes; the bots'
    wall-time cap lifted in each (`lift_caps`)."""
    if procs == 1:
        lift_caps()
        yield from map(job, jobs)
        return
    with multiprocessing.get_context("fork").Pool(procs, initializer=lift_caps) as pool:
        yield from pool.imap(job, jobs, chunksize=4)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.duel", description=__doc__.split("\n")[0]
    )
    p.add_argument("--a", type=bot_spec, default="hard", help="a level or git:<rev>[:<level>]")
    p.add_argument(
        "--b", type=bot_spec, default="git:c00a88c", help="as --a (default: git:c00a88c)"
    )
    p.add_argument(
        "--field",
        choices=LEVELS,
        default=None,
        help="the other two seats (default: B's level)",
    )
    args = parse_deal_args(p, argv)
    rules = Rules(deck=args.deck).to_dict()
    jobs = [
        (i, args.a, args.b, args.field or _level(args.b), args.seed, rules, args.target)
        for i in range(args.deals)
    ]
    results: list[Compared] = []
    start = time.perf_counter()
    for n, r in enumerate(run_deals(_job, jobs, args.procs), start=1):
        results.append(r)
        if n % 50 == 0 or n == len(jobs):
            mean, lo, hi = interval([x.diff for x in results])
            print(
                f"{n}/{len(jobs)} deals ({time.perf_counter() - start:.0f} s):"
                f" {mean:+.4f} ({lo:+.4f} to {hi:+.4f})",
                file=sys.stderr,
                flush=True,
            )
    print(report(results, args.a, args.b))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
