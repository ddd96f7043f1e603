"""Side effects after the commit, through one door (like Zulip's
`send_event_on_commit`).

The services say what happened, `events.on_commit(Event.X, *args)`, and
never import who acts on it: games.apps subscribes the handlers at start-up
(games.realtime pushes frames, games.tasks queues Celery tasks). Each runs
once the transaction commits, and `robust`: the change is stored whatever
happens to Redis or the broker (a lost push is healed by the sockets'
resync, a lost bot move by the sweeper); a rolled-back change says nothing.

This module is a leaf: it imports nothing of the site.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial

from django.db import transaction


class Event(StrEnum):
    """What happened, and the arguments its handler receives."""

    GAME_CHANGED = "game_changed"  # (game_id, loaded=None): push the table to every viewer
    TABLE_CHANGED = "table_changed"  # (table_id): seats changed before the game starts
    LOBBY_CHANGED = "lobby_changed"  # (): the lobby's list of tables changed
    BOT_TURN = "bot_turn"  # (game_id, version, owner=, countdown=): a bot is to act
    ONLY_CARD = "only_card"  # (game_id, version, countdown=): a player's only card
    TURN_NEWS = "turn_news"  # (game_id, version): tell the players (turn, start, end)


_HANDLERS: dict[Event, Callable[..., object]] = {}


def subscribe(event: Event, handler: Callable[..., object]) -> None:
    """`handler` acts on `event` (one handler each; games.apps)."""
    _HANDLERS[event] = handler


def on_commit(event: Event, *args: object, **kwargs: object) -> None:
    """Run `event`'s handler once the current transaction commits (at once
    outside one)."""
    transaction.on_commit(partial(_run, event, args, kwargs), robust=True)


def _run(event: Event, args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    handler = _HANDLERS.get(event)
    if handler is None:
        raise LookupError(f"nothing subscribed to {event}")
    handler(*args, **kwargs)
