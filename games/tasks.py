"""Celery tasks. A bot's move goes through the same service as a person's;
the game version makes a duplicate or late task a no-op."""

from __future__ import annotations

import logging
import random
import secrets
from typing import Any

from celery import shared_task

from . import services
from .models import Game

log = logging.getLogger(__name__)


def bot_action(level: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Ask the seat's bot for one of the view's legal actions."""
    from games import bots

    return bots.choose_action(level, view, rng)


@shared_task(acks_late=True, ignore_result=True)
def play_bot_turn(game_id: int, version: int) -> str:
    """Play the bot's move of `game_id` at `version`; anything else does nothing."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.PLAYING:
        return "stale"
    state = services.game_state(game)
    cur = state.current
    if cur is None or cur.to_act is None:
        return "no turn"
    seat = game.table.seats.get(position=cur.to_act)
    if not seat.is_bot:
        return "not a bot"
    view = services.seat_view(game, state, seat.position, services.current_hand_row(game))
    action = bot_action(seat.bot_level, view, random.Random(secrets.randbits(64)))
    try:
        services.game_act(game_id=game_id, version=version, action=action, bot_seat=seat.position)
    except services.GameError as exc:
        log.info("bot move for game %s v%s not applied: %s", game_id, version, exc.message)
        return "refused"
    return "played"
