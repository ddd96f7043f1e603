"""The bot levels' ratings as the site would give them, from recorded bot matches.

    python -m games.bots.match --hero medium --field easy --games 600 --seed 1 --record var/ladder/medium-easy.jsonl
    python -m benchmarks.ladder var/ladder/*.jsonl

Each game of the records (`games.bots.match --record`: each seat's level,
the final scores, the winner) is rated as the site rates a finished game
(`stats.services.rating_ranks` for the places, `stats.services.rate_seats`
for OpenSkill's update, a level seated twice as one pseudo-player), every
level starting as a new player. The files' games are taken in turn, one
from each file, so no level meets its opponents in one long block. Prints
each level's shown rating (`stats.models.shown_rating`), mu, sigma and
games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def _games(paths: Sequence[str]) -> list[dict[str, object]]:
    per_file = [
        [json.loads(line) for line in Path(p).read_text().splitlines() if line.strip()]
        for p in paths
    ]
    return [g for row in itertools.zip_longest(*per_file) for g in row if g is not None]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.ladder", description=__doc__.split("\n")[0]
    )
    p.add_argument("records", nargs="+", help="files written by games.bots.match --record")
    args = p.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import django

    django.setup()
    from stats.models import shown_rating
    from stats.services import MODEL, rate_seats, rating_ranks

    fresh = MODEL.rating()
    ratings: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    for g in _games(args.records):
        levels = [str(x) for x in g["levels"]]  # type: ignore[attr-defined]
        scores = [int(x) for x in g["scores"]]  # type: ignore[attr-defined]
        winner = g["winner"]
        ranks = rating_ranks(scores, winner if isinstance(winner, int) else None)
        seats = [(lv, *ratings.get(lv, (fresh.mu, fresh.sigma))) for lv in levels]
        ratings.update(rate_seats(seats, ranks))
        for lv in set(levels):
            played[lv] = played.get(lv, 0) + 1
    print(f"{'level':8} {'rating':>6} {'mu':>7} {'sigma':>6} {'games':>6}")
    for lv, (mu, sigma) in sorted(ratings.items(), key=lambda kv: -kv[1][0]):
        print(f"{lv:8} {shown_rating(mu):6d} {mu:7.2f} {sigma:6.2f} {played[lv]:6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
