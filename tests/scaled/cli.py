"""Set-up and inspection for the scaled-out tests, run in a process of its own
on the stack's database (`python -m tests.scaled.cli CMD ...`, prints JSON).

The tests themselves only talk HTTP and websockets to the web processes; this
is how they create players and tables and read what the database holds.

    table --humans N [--target T]
        N people seated, medium bots in the other seats (the last seat filled
        starts the game), each person with a session cookie, and a spectator
    autopilot TABLE   every seated person hands their seat to the medium bot
    game GAME         version, status, to_act, winner and hand count
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from typing import Any


def setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import warnings

    import django

    warnings.filterwarnings("ignore", message=r"A \{% csrf_token %\} was used")
    django.setup()


def cookie_for(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def make_table(humans: int, target: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from games import services

    User = get_user_model()
    run = uuid.uuid4().hex[:6]
    users = [User.objects.create_user(username=f"p{run}{s}") for s in range(humans)]
    spectator = User.objects.create_user(username=f"x{run}")
    table = services.table_create(
        owner=users[0],
        name=f"Scaled {run}",
        rules={},
        target=target,
        mode="live",
        move_seconds=None,
        visibility="public",
    )
    game = None
    for position in range(1, 3):
        if position < humans:
            game = services.table_join(table=table, user=users[position], position=position)
        else:
            game = services.table_set_bot(
                table=table, user=users[0], position=position, level="medium"
            )
    assert game is not None, "the table did not start"
    return {
        "table": table.pk,
        "game": game.pk,
        "players": [{"seat": s, "id": u.pk, "cookie": cookie_for(u)} for s, u in enumerate(users)],
        "spectator": cookie_for(spectator),
    }


def autopilot(table_id: int) -> dict[str, Any]:
    from games import services
    from games.models import Table

    table = Table.objects.get(pk=table_id)
    for seat in table.seats.select_related("user").filter(user__isnull=False):
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
    t.add_argument("--humans", type=int, default=3)
    t.add_argument("--target", type=int, default=5)
    sub.add_parser("autopilot").add_argument("table", type=int)
    sub.add_parser("game").add_argument("game", type=int)
    args = parser.parse_args(argv)
    setup()
    if args.cmd == "table":
        out = make_table(args.humans, args.target)
    elif args.cmd == "autopilot":
        out = autopilot(args.table)
    else:
        out = game(args.game)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
