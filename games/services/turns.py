"""Whose turn it is, when it runs out, and how long the site waits before it
moves for a bot (or a player's only card).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone

from games import bots, engine
from games.engine import GameState
from games.models import Game, Seat, Table


def set_turn(game: Game, state: GameState) -> None:
    now = timezone.now()
    cur = state.current
    game.to_act = None if cur is None else cur.to_act
    game.last_move_at = now
    game.turn_started = now if game.to_act is not None else None
    game.deadline = turn_deadline(game, now)


def turn_deadline(game: Game, now: datetime.datetime) -> datetime.datetime | None:
    """When the seat to act runs out of time: by-turns tables only, for people
    only, and counted from the end of their vacation if they are on one."""
    seconds = game.table.move_seconds if game.table.mode == Table.Mode.TURNS else None
    if not seconds or game.to_act is None:
        return None
    seat = next(s for s in game.table.seats.all() if s.position == game.to_act)
    if seat.user is None or seat.is_bot:
        return None
    start = max(now, seat.user.vacation_until or now)
    return start + datetime.timedelta(seconds=seconds)


def lock_owner(table: Table, seat: Seat) -> int | None:
    """The player whose bot-move lock a bot's move at `seat` takes
    (games.tasks.play_bot_turn): the table's owner for a searching bot
    (bots.SEARCHING), nobody for the levels that decide at once."""
    return table.owner_id if seat.bot_level in bots.SEARCHING else None


def bot_countdown(table: Table, previous: GameState | None, state: GameState) -> float:
    """Seconds before the site moves after the move from `previous` to `state`
    (a bot's move, or a player's only card). In a live game the table names a
    trick's winner before the next lead (BOT_TRICK_PAUSE) and shows a hand's
    result before the next deal is bid on (BOT_HAND_PAUSE); otherwise, and
    after anything but a move, BOT_MOVE_DELAY. From the states alone: no query."""
    if previous is None or table.mode != Table.Mode.LIVE:
        return settings.BOT_MOVE_DELAY
    if len(state.hands) > len(previous.hands):  # the hand ended and the next was dealt
        return settings.BOT_HAND_PAUSE
    before, after = previous.current, state.current
    if before is not None and after is not None and sum(after.tricks_won) > sum(before.tricks_won):
        return settings.BOT_TRICK_PAUSE
    return settings.BOT_MOVE_DELAY


def only_card(cur: engine.HandState | None) -> str | None:
    """The one card the player to act may play now, if exactly one."""
    if cur is None or cur.phase != "play":
        return None
    plays = [a.card for a in engine.legal_actions(cur) if a.type == "play"]
    return plays[0] if len(plays) == 1 else None
