"""What follows a change once it is committed: the table is pushed, the bot to
act is queued, the players are told. Said through games.events (the one
after-commit door), never by importing the pushes or the tasks.
"""

from __future__ import annotations

from games import events
from games.engine import GameState
from games.events import Event
from games.models import Game, Hand, Table

from .turns import bot_countdown, lock_owner, only_card


def after_move(
    game: Game, state: GameState, hand: Hand | None = None, *, previous: GameState | None = None
) -> None:
    """After the commit: push the table, queue the bot's move, tell the players.
    Each is `robust` (games.events): the move is stored whatever happens to Redis; a lost push
    is healed by the sockets' resync and a lost bot move by the sweeper.

    With `hand` (the game's current hand row), `game` is the row as committed,
    with its table's seats and their users loaded, and the push renders from
    them and `state`, without reading the game again. `previous` is the state
    before the move (a move; None for a start or a seat change): it sets the
    pause before the next bot move (`bot_countdown`).
    """
    game_id, version = game.pk, game.version
    events.on_commit(
        Event.GAME_CHANGED, game_id, loaded=None if hand is None else (game, state, hand)
    )
    cur = state.current
    if cur is not None and cur.to_act is not None:
        seat = next(s for s in game.table.seats.all() if s.position == cur.to_act)
        if seat.is_bot:
            # A searching bot's owner lets the task see a busy owner without a
            # query (games.tasks.play_bot_turn); the other levels take no lock.
            events.on_commit(
                Event.BOT_TURN,
                game_id,
                version,
                owner=lock_owner(game.table, seat),
                countdown=bot_countdown(game.table, previous, state),
            )
        elif seat.user is not None and seat.user.play_only_card and only_card(cur):
            events.on_commit(
                Event.ONLY_CARD,
                game_id,
                version,
                countdown=bot_countdown(game.table, previous, state),
            )
    # People are told of their turns in by-turns games, and of every start and end.
    if game.table.mode == Table.Mode.TURNS or game.status == Game.Status.FINISHED or version == 1:
        events.on_commit(Event.TURN_NEWS, game_id, version)


def after_lobby_change(table: Table | None) -> None:
    """The lobby's list (and the table's page, if `table`) changed."""
    events.on_commit(Event.LOBBY_CHANGED)
    if table is not None:
        events.on_commit(Event.TABLE_CHANGED, table.pk)
