"""Benchmark: the pages as the data grows.

    python -m benchmarks.pages [--scale 1] [--compare 0.1] [--postgres] [--requests 30]

For each size (--compare first, then --scale; 1 is 10,000 players and
1,000,000 hands) it makes a throw-away database (SQLite in a temporary
folder, or with --postgres a cluster of euchre_site.embedded_postgres in
var/), migrates it, fills it with `manage.py fill_history` (timed), then
times each page with Django's test client: p50 and p95 of --requests
requests after a warm-up, and the page's query count. Also the busiest
player's statistics recompute and the database's size. It prints a table
(docs/data-growth.md). A page whose query count differs between the two
sizes is marked: no page's count may grow with the data.

    python -m benchmarks.pages --database-url URL [--database-url URL2]   # filled before
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FULL = {"players": 10_000, "games": 100_000, "daily_entries": 30}


def fill_args(scale: float) -> list[str]:
    return [
        "--players", str(max(20, round(FULL["players"] * scale))),
        "--games", str(max(30, round(FULL["games"] * scale))),
        "--daily-entries", str(max(3, round(FULL["daily_entries"] * scale))),
    ]  # fmt: skip


# --------------------------------------------------------------------------- measuring (a child)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def page_urls() -> tuple[Any, dict[str, str]]:
    """The busiest player (most games) and the pages measured, by name: what
    they see of the filled database. Django must be set up."""
    from django.db.models import Count

    from accounts.models import User
    from daily.models import DailyDeal
    from games.models import Table
    from stats.models import GameFact, HandFact
    from stats.views import HISTORY_PAGE

    busiest = GameFact.objects.values("user").annotate(n=Count("pk")).order_by("-n", "user").first()
    assert busiest is not None, "an empty database: run fill_history first"
    user = User.objects.get(pk=busiest["user"])
    live = Table.objects.filter(status=Table.Status.PLAYING).order_by("pk").first()
    done = (
        Table.objects.filter(
            seats__user=user, status=Table.Status.FINISHED, daily_date__isnull=True
        )
        .order_by("-updated")
        .first()
    )
    fact = HandFact.objects.filter(user=user).order_by("-finished", "-hand_id").first()
    deal = DailyDeal.objects.order_by("-date").first()
    assert live and done and fact and deal
    last_page = max(1, -(-HandFact.objects.filter(user=user).count() // HISTORY_PAGE))
    return user, {
        "lobby": "/lobby/",
        "table (in progress)": f"/tables/{live.pk}/",
        "table (finished)": f"/tables/{done.pk}/",
        "my games": "/games/mine/",
        "player's stats": f"/stats/players/{user.username}/",
        "leaderboard": "/stats/leaderboard/",
        "history (first page)": "/stats/hands/",
        "history (last page)": f"/stats/hands/?page={last_page}",
        "replay": f"/stats/hands/{fact.hand_id}/",
        "daily deal's day": f"/daily/{deal.date.isoformat()}/",
    }


def measure(requests: int) -> dict[str, Any]:
    """Time the pages on the database of DATABASE_URL (already filled)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from games.models import Hand
    from stats import services
    from stats.models import GameFact, HandFact

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.DEBUG = False
    user, pages = page_urls()
    my_hands = HandFact.objects.filter(user=user).count()
    my_games = GameFact.objects.filter(user=user).count()
    client = Client()
    client.force_login(user)
    out: dict[str, Any] = {"pages": {}}
    for name, url in pages.items():
        for _ in range(3):  # warm-up: templates compiled, caches filled
            assert client.get(url).status_code == 200, url
        queries: list[str] = []

        def count(execute: Any, sql: str, *rest: Any, seen: list[str] = queries) -> Any:
            seen.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):
            client.get(url)
        times = []
        for _ in range(requests):
            t = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - t) * 1000)
            assert response.status_code == 200, url
        out["pages"][name] = {
            "url": url,
            "p50": statistics.median(times),
            "p95": _pct(times, 0.95),
            "queries": len(queries),
        }
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        services.player_stats_recompute(user_id=user.pk)
        runs.append(time.perf_counter() - t)
    out["recompute"] = {"median": statistics.median(runs), "max": max(runs)}
    hands = Hand.objects.count()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_database_size(current_database())")
            size = cursor.fetchone()[0]
        else:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            cursor.execute("PRAGMA page_count")
            pages_n = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_size")
            size = pages_n * cursor.fetchone()[0]
    out.update(
        vendor=connection.vendor,
        players=User.objects.count(),
        hands=hands,
        games=GameFact.objects.values("game").distinct().count(),
        busiest=user.username,
        busiest_games=my_games,
        busiest_hands=my_hands,
        size=size,
        requests=requests,
    )
    return out


# --------------------------------------------------------------------------- the run (the parent)


def run_size(scale: float, args: argparse.Namespace, base: Path, n: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update(DJANGO_SETTINGS_MODULE="euchre_site.settings", LOG_LEVEL="WARNING")
    if args.postgres:
        env["DATABASE_URL"] = args.cluster.url(f"pages{n}")
        args.cluster.create_database(f"pages{n}")
    else:
        env["DATABASE_URL"] = f"sqlite:///{base}/pages{n}.sqlite3"
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    print(f"filling at scale {scale} ({' '.join(fill_args(scale))})", file=sys.stderr)
    t = time.perf_counter()
    subprocess.run([*manage, "fill_history", *fill_args(scale)], env=env, check=True)
    fill = time.perf_counter() - t
    got = subprocess.run(
        [sys.executable, "-m", "benchmarks.pages", "--measure", "--requests", str(args.requests)],
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(got.stdout)
    result.update(scale=scale, fill=fill)
    return result


def report(results: list[dict[str, Any]]) -> None:
    big = results[-1]
    small = results[0] if len(results) > 1 else None
    print(
        f"\n{big['vendor']}: {big['players']} players, {big['hands']} hands in "
        f"{big['games']} games; busiest player {big['busiest']} "
        f"({big['busiest_games']} games, {big['busiest_hands']} hands); "
        f"{big['requests']} requests a page after 3 to warm up"
    )
    head = f"{'page':<22} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}"
    if small:
        head += f" {'queries at ' + str(small['hands']) + ' hands':>24}"
    print(head)
    grew = []
    for name, row in big["pages"].items():
        line = f"{name:<22} {row['p50']:8.1f} {row['p95']:8.1f} {row['queries']:8d}"
        if small:
            was = small["pages"][name]["queries"]
            line += f" {was:24d}"
            if was != row["queries"]:
                line += "  <- differs"
                grew.append(name)
        print(line)
    rc = big["recompute"]
    print(
        f"busiest player's statistics recompute: median {rc['median']:.3f} s, max {rc['max']:.3f} s"
    )
    for r in results:
        per_m = r["size"] / max(1, r["hands"]) * 1_000_000 / 2**20
        print(
            f"at {r['hands']} hands: database {r['size'] / 2**20:.0f} MiB "
            f"({per_m:.0f} MiB per million hands)"
            + (f", filled in {r['fill']:.0f} s" if r["fill"] else "")
        )
    if small:
        print("query counts equal at both sizes" if not grew else f"counts differ: {grew}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=1.0, help="1: 10,000 players, 1M hands")
    parser.add_argument("--compare", type=float, default=0.1, help="the smaller size; 0: none")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument(
        "--database-url",
        action="append",
        help="measure this filled database only (twice: the smaller first, counts compared)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.requests)))
        return
    if args.database_url:
        results = []
        child = [sys.executable, "-m", "benchmarks.pages", "--measure", "--requests"]
        for url in args.database_url:  # each in its own process: settings are read once
            got = subprocess.run(
                [*child, str(args.requests)],
                env={**os.environ, "DATABASE_URL": url},
                check=True,
                stdout=subprocess.PIPE,
                cwd=ROOT,
            )
            results.append({**json.loads(got.stdout), "scale": None, "fill": 0.0})
        report(results)
        return
    scales = [s for s in (args.compare, args.scale) if s]
    proc = None
    if args.postgres:
        from euchre_site import embedded_redis
        from euchre_site.embedded_postgres import Cluster

        base = ROOT / "var" / f"pages-{os.getpid()}"
        base.mkdir(parents=True)
        args.cluster = Cluster(base / "pg", embedded_redis.free_port())
        # A throw-away cluster: no fsync, as the scaled-out tests run it.
        proc = args.cluster.start("-c", "fsync=off", "-c", "full_page_writes=off")
    else:
        base = Path(tempfile.mkdtemp(prefix="pages-bench-"))
    try:
        results = [run_size(s, args, base, n) for n, s in enumerate(scales)]
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=60)
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"databases kept in {base}", file=sys.stderr)
    report(results)


if __name__ == "__main__":
    main()
