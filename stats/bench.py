"""Benchmark: recompute every figure of a player with 5,000 stored hands, and
render their stats page.

    python -m stats.bench [--hands 5000] [--renders 50]

Runs on a throw-away SQLite database (WAL, like the default set-up): random
games of one person against two others are played by the engine, stored as
the site stores them (tables, seats, games, hands with their records) with
their fact rows, then timed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import tempfile
import time

from games import engine  # pure Python: no Django needed yet


def play_game(rng: random.Random, target: int = 10) -> engine.GameState:
    """A whole game played by random legal moves (the fill_history command's too)."""
    state = engine.new_game(engine.Rules(), target, rng.randrange(3))
    while not state.over:
        state = engine.game_start_hand(state, rng)
        while state.current is not None and not state.current.over:
            state = engine.game_apply(state, rng.choice(engine.legal_actions(state.current)))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--renders", type=int, default=50)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="stats-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # Django and the apps are imported only now, once the throw-away database
    # is in the environment: the settings read it once, at setup.
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    from games.models import Game, Hand, Seat, Table
    from stats import services
    from stats.facts import rules_key
    from stats.models import GameFact, HandFact

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.DEBUG = False
    call_command("migrate", verbosity=0)
    User = get_user_model()
    hero, p2, p3 = (
        User.objects.create_user(n, f"{n}@example.com", "x") for n in ("hero", "villain", "third")
    )
    rng = random.Random(1)
    now = timezone.now()
    t0 = time.perf_counter()
    stored = 0
    while stored < args.hands:
        state = play_game(rng)
        table = Table.objects.create(
            name="bench", owner=hero, rules=engine.Rules().to_dict(), target=10, status="finished"
        )
        Seat.objects.bulk_create(
            [Seat(table=table, position=i, user=u) for i, u in enumerate((hero, p2, p3))]
        )
        at = now - datetime.timedelta(minutes=args.hands - stored)
        game = Game.objects.create(
            table=table, first_dealer=state.first_dealer,
            scores=list(state.scores), winner=state.winner, status="finished", finished=at,
        )  # fmt: skip
        hands = Hand.objects.bulk_create(
            [
                Hand(
                    game=game,
                    number=n,
                    record=engine.hand_to_record(h),
                    result=engine.result(h),
                    finished=at,
                )
                for n, h in enumerate(state.hands)
            ]
        )
        people = {i: u.pk for i, u in enumerate((hero, p2, p3))}
        facts = []
        for hand in hands:
            facts += services.hand_fact_rows(
                hand=hand, people=people, finished=at, mode="live", key=rules_key(table.rules)
            )
        HandFact.objects.bulk_create(facts)
        GameFact.objects.bulk_create(
            [
                GameFact(
                    game=game, user=u, seat=i, finished=at, mode="live", rules_key="24",
                    won=state.winner == i, score=state.scores[i],
                )
                for i, u in enumerate((hero, p2, p3))
            ]
        )  # fmt: skip
        services.ratings_update(game=game)
        stored += len(hands)
    setup = time.perf_counter() - t0
    n_hands = HandFact.objects.filter(user=hero).count()
    n_games = GameFact.objects.filter(user=hero).count()
    print(f"stored {n_hands} hands in {n_games} games for one player ({setup:.1f} s to set up)")

    times = []
    for _ in range(5):
        t = time.perf_counter()
        services.player_stats_recompute(user_id=hero.pk)
        times.append(time.perf_counter() - t)
    print(
        f"recompute all stats of the player: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms (5 runs)"
    )
    t = time.perf_counter()
    services.average_stats_recompute()
    print(
        f"recompute the average player ({HandFact.objects.count()} fact rows): {(time.perf_counter() - t) * 1000:.1f} ms"
    )

    client = Client()
    client.force_login(hero)
    url = f"/stats/players/{hero.username}/"
    assert client.get(url).status_code == 200  # warm: templates compiled
    renders = []
    for _ in range(args.renders):
        t = time.perf_counter()
        response = client.get(url)
        renders.append(time.perf_counter() - t)
        assert response.status_code == 200
    renders.sort()
    print(
        f"stats page render ({args.renders} requests through the test client): "
        f"median {statistics.median(renders) * 1000:.1f} ms, p95 {renders[min(len(renders) - 1, int(0.95 * len(renders)))] * 1000:.1f} ms, "
        f"{len(response.content) // 1024} KiB"
    )


if __name__ == "__main__":
    main()
