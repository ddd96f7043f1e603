"""The games' side of a vacation (accounts.vacations owns the days): the
deadlines of the by-turns games waiting for the player move with it."""

from __future__ import annotations

import datetime

from accounts.models import User
from games.models import Game, Seat, Table

from .turns import turn_deadline


def reset_deadlines(
    sender: object, *, user: User, now: datetime.datetime, **kwargs: object
) -> None:
    """accounts.signals.vacation_changed: recompute the deadlines of the
    by-turns games waiting for this player (in the vacation's transaction)."""
    for seat in Seat.objects.filter(user=user, table__mode=Table.Mode.TURNS).select_related(
        "table"
    ):
        for game in Game.objects.filter(
            table=seat.table, status=Game.Status.PLAYING, to_act=seat.position
        ):
            game.deadline = turn_deadline(game, now)
            game.save(update_fields=["deadline"])
