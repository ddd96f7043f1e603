"""Fit the chance-of-winning model to bots' own games, and check it on others.

    python -m games.bots.winfit --level hard --games 300 --seed 7 --out var/winfit-hard.jsonl
    python -m games.bots.winfit --load var/winfit-hard.jsonl

Plays `--games` whole games to `--target` with three bots of `--level`
(game i's deals and bots' randomness from the seed and i, the first dealer
i % 3), and keeps every hand: its dealer, the scores before it and its
points. Or reads such a file (`--load`).

The even games fit the model: how often a hand scores each vector of points,
seen from the dealer's seat (left of the dealer, second, dealer), so who is
likelier to make and what a hand scores are both the games' own. The odd
games check it: at the start of each of their hands, each model's chance
for the player who went on to win the game, as a log loss and a Brier score
(lower is better), for the fixed frequencies `winprob.HAND` and for the fit.
The fit is printed as Python to paste into `winprob.FITTED`.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from games.engine import Rules, game_apply, game_start_hand, game_view, new_game, result

from . import ALL_LEVELS, choose_action
from .winprob import DEALT_FIXED, Outcomes, chances

Hand = tuple[int, list[int], list[int]]  # dealer, scores before, points


def play_game(i: int, level: str, seed: int, target: int) -> tuple[list[Hand], int | None]:
    """Game i with three bots of `level`: its hands and its winner."""
    deal_rng = random.Random(f"winfit-deal-{seed}-{i}")
    rngs = [random.Random(f"winfit-bot-{seed}-{i}-{s}") for s in range(3)]
    game = new_game(Rules(), target, i % 3)
    hands: list[Hand] = []
    while not game.over:
        before = list(game.scores)
        game = game_start_hand(game, deal_rng)
        while (state := game.current) is not None:
            seat = state.to_act
            assert seat is not None
            game = game_apply(game, choose_action(level, game_view(game, seat), rngs[seat]))
        last = game.hands[-1]
        hands.append((last.dealer, before, list(result(last)["points"])))
    return hands, game.winner


def _job(args: tuple[int, str, int, int]) -> tuple[int, list[Hand], int | None]:
    i = args[0]
    return (i, *play_game(*args))


def fit(games: Sequence[tuple[list[Hand], int | None]]) -> Outcomes:
    """Each points vector's frequency, as (left of the dealer, second, dealer)."""
    seen: Counter[tuple[int, int, int]] = Counter()
    for hands, _ in games:
        for dealer, _before, pts in hands:
            seen[(pts[(dealer + 1) % 3], pts[(dealer + 2) % 3], pts[dealer])] += 1
    n = sum(seen.values())
    return tuple((round(c / n, 4), v) for v, c in sorted(seen.items(), key=lambda kv: -kv[1]))


def score(
    games: Sequence[tuple[list[Hand], int | None]], model: Outcomes, target: int
) -> tuple[float, float, int]:
    """Mean log loss and Brier score of the model's chance for the eventual
    winner at each hand's start, and the hands counted."""
    loss = brier = 0.0
    n = 0
    for hands, winner in games:
        if winner is None:
            continue
        for dealer, before, _pts in hands:
            p = chances(before, target, dealer, model)
            loss -= math.log(max(p[winner], 1e-9))
            brier += sum((p[s] - (s == winner)) ** 2 for s in range(3))
            n += 1
    return loss / max(n, 1), brier / max(n, 1), n


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.winfit", description=__doc__.split("\n")[0]
    )
    p.add_argument("--level", choices=ALL_LEVELS, default="hard")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--target", type=int, default=10)
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--out", help="write the games' hands here (JSON lines)")
    p.add_argument("--load", help="read games written by --out instead of playing")
    a = p.parse_args(argv)

    games: dict[int, tuple[list[Hand], int | None]] = {}
    if a.load:
        with open(a.load) as f:
            for line in f:
                g = json.loads(line)
                games[g["game"]] = ([tuple(h) for h in g["hands"]], g["winner"])  # type: ignore[misc]
    else:
        t0 = time.perf_counter()
        jobs = [(i, a.level, a.seed, a.target) for i in range(a.games)]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(a.procs) as pool:
            for i, hands, winner in pool.imap_unordered(_job, jobs, chunksize=1):
                games[i] = (hands, winner)
                if len(games) % 25 == 0:
                    print(
                        f"[{len(games)}/{a.games}] {time.perf_counter() - t0:.0f} s",
                        file=sys.stderr,
                    )
        if a.out:
            with open(a.out, "w") as f:
                for i in sorted(games):
                    f.write(
                        json.dumps({"game": i, "hands": games[i][0], "winner": games[i][1]}) + "\n"
                    )

    train = [games[i] for i in sorted(games) if i % 2 == 0]
    test = [games[i] for i in sorted(games) if i % 2 == 1]
    fitted = fit(train)
    n_hands = sum(len(h) for h, _ in train)
    print(f"{len(games)} games; fitted on the {len(train)} even ones ({n_hands} hands):")
    print("FITTED: Outcomes = (")
    for prob, v in fitted:
        print(f"    ({prob}, {v}),")
    print(")")
    print(f"checked on the {len(test)} odd games (the winner's chance at each hand's start):")
    for name, model in (("fixed (winprob.HAND)", DEALT_FIXED), ("fitted", fitted)):
        loss, brier, n = score(test, model, a.target)
        print(f"  {name:22} log loss {loss:.4f}  Brier {brier:.4f}  ({n} hands)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
