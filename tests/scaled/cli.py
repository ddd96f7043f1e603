"""Set-up and inspection for the scaled-out tests, run in a process of its own
on the stack's database (`python -m tests.scaled.cli CMD ...`, prints JSON).

The tests themselves only talk HTTP and websockets to the web processes; this
is how they create players and tables and read what the database holds.

    table [--target T]
        three people seated (the third starts the game), each with a session
        cookie, and a spectator
    autopilot TABLE   every seated person hands their seat to the medium bot
    game GAME         version, status, to_act, winner and hand count
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from typing import Any


def make_table(target: int) -> dict[str, Any]:
    from benchmarks.live import session_cookie, start_table

    run = uuid.uuid4().hex[:6]
    table, game, users, spectator = start_table(f"p{run}", f"Scaled {run}", target=target)
    return {
        "table": table.pk,
        "game": game.pk,
        "players": [
            {"seat": s, "id": u.pk, "cookie": session_cookie(u)} for s, u in enumerate(users)
        ],
        "spectator": session_cookie(spectator),
    }


def autopilot(table_id: int) -> dict[str, Any]:
    from games import services
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    for seat in table.seats.select_related("user").filter(user__isnull=False):
        assert seat.user is not None
        services.seat_set_autopilot(table=table, user=seat.user, level="medium")
    return {"table": table_id}


def game(game_id: int) -> dict[str, Any]:
    from games.models import Game

    g = Game.objects.get(pk=game_id)
    return {
        "version": g.version,
        "status": g.status,
        "to_act": g.to_act,
        "winner": g.winner,
        "hands": g.hands.count(),
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("--target", type=int, default=5)
    sub.add_parser("autopilot").add_argument("table", type=int)
    sub.add_parser("game").add_argument("game", type=int)
    args = parser.parse_args(argv)
    from benchmarks.live import django_setup

    django_setup()
    if args.cmd == "table":
        out = make_table(args.target)
    elif args.cmd == "autopilot":
        out = autopilot(args.table)
    else:
        out = game(args.game)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
