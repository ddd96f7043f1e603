"""The engine's state of each game, rebuilt from its stored hand records and
kept (committed states only) for the next move and the next push.

Kept in this process (the last few hundred states) and, with
GAME_STATE_SHARED (the default on PostgreSQL), in the shared cache (Redis)
for a few minutes, because a game's consecutive moves go to any process of
any worker. A state another process stored is then read back (one GET and
an unpickling, about half a millisecond) instead of being replayed from all
the game's hand records (a query and the replay: about 3 ms on PostgreSQL,
1-1.5 ms on SQLite, where sharing costs about what it saves:
docs/performance.md). The shared key carries a stamp of the engine's
source, so a state pickled by other code is never read.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import logging
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from euchre_site.prepared import Prepared
from games import engine
from games.engine import GameState
from games.models import Game, Hand, Seat

# Keyed by (id, creation time, version): ids alone repeat when a database is
# recreated (the tests do it constantly). With each state, the id of the
# game's current hand row at that version (current_hand_row).
_STATE_CACHE: OrderedDict[tuple[int, object, int], tuple[GameState, int]] = OrderedDict()


_STATE_CACHE_SIZE = 512
SHARED_SECONDS = 300  # a live game moves every second or so; a by-turns one rebuilds

log = logging.getLogger(__name__)


@functools.cache
def _engine_stamp() -> str:
    """A digest of the engine's source, read once, on the first shared state."""
    files = sorted(Path(engine.__file__).parent.glob("*.py"))
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:12]


def cache_key(game: Game) -> tuple[int, object, int]:
    return (game.pk, game.created, game.version)


def _shared_key(key: tuple[int, object, int]) -> str:
    game_id, created, version = key
    stamp = created.timestamp() if isinstance(created, datetime.datetime) else created
    return f"game-state:{_engine_stamp()}:{game_id}:{stamp}:{version}"


def game_state(game: Game) -> GameState:
    """The engine's state of a game, rebuilt from its stored hand records.

    States are immutable, so one rebuilt for (game, version) is kept and
    shared, but only once it is committed: a state built inside a transaction
    that then rolls back must never be the base of a later move.
    """
    key = cache_key(game)
    kept = _STATE_CACHE.get(key)
    if kept is not None:
        _STATE_CACHE.move_to_end(key)
        return kept[0]
    kept = _shared_get(key)
    if kept is not None:
        _local_put(key, kept)
        return kept[0]
    hands = list(game.hands.order_by("number"))
    record = {
        "format": "euchre3-game/1",
        "target": game.table.target,
        "rules": game.table.rules,
        "first_dealer": game.first_dealer,
        "hands": [h.record for h in hands],
    }
    if game.deals:  # a game of fixed deals ends after the last one
        record["hand_limit"] = len(game.deals)
    # The last hand may be waiting for the maker's five (a keep-less `dummy`).
    state = engine.game_from_record(record, pending_keep=True)
    hand_id = hands[-1].pk if hands else 0
    # Rows read inside a transaction may be its own, not yet committed, writes.
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(partial(cache_put, key, state, hand_id))
    else:
        cache_put(key, state, hand_id)
    return state


def cache_put(key: tuple[int, object, int], state: GameState, hand_id: int) -> None:
    """Only committed states go here: `game_state` puts what it read from the
    database, `game_act` what it stored, once the transaction has committed;
    `hand_id` is the game's current hand row then."""
    _local_put(key, (state, hand_id))
    if not settings.GAME_STATE_SHARED:
        return
    try:
        cache.set(_shared_key(key), (state, hand_id), SHARED_SECONDS)
    except Exception:  # Redis away: this process still has it, others rebuild
        log.warning("game state %s not shared", key[0], exc_info=True)


def _local_put(key: tuple[int, object, int], kept: tuple[GameState, int]) -> None:
    _STATE_CACHE[key] = kept
    if len(_STATE_CACHE) > _STATE_CACHE_SIZE:
        _STATE_CACHE.popitem(last=False)


def _shared_get(key: tuple[int, object, int]) -> tuple[GameState, int] | None:
    if not settings.GAME_STATE_SHARED:
        return None
    try:
        kept = cache.get(_shared_key(key))
    except Exception:  # Redis away, or a pickle this code cannot read: rebuild
        log.warning("shared game state %s unreadable", key[0], exc_info=True)
        return None
    match kept:
        case (GameState() as state, int() as hand_id):
            return state, hand_id
    return None


def current_hand_row(game: Game, state: GameState | None = None) -> Hand | None:
    """The game's current hand row. Given the game's `state` at its version
    while a hand is under way, made from it and the row's id kept with it,
    without a query: its record is the state's hand (`started` is not
    loaded); else read."""
    kept = _STATE_CACHE.get(cache_key(game)) if state is not None else None
    if kept is not None and kept[0] is state and state.current is not None:
        record = engine.hand_to_record(state.current)
        return Hand(pk=kept[1], game=game, number=len(state.hands) - 1, record=record)
    return game.hands.order_by("-number").first()


# The two reads of every move, compiled once (euchre_site.prepared): the ORM
# compiling them anew, and its prefetch, cost twenty times the queries.
_LOCKED_GAME = Prepared(
    lambda pk: Game.objects.select_for_update().select_related("table").filter(pk=pk)
)
_SEATS = Prepared(lambda table_id: Seat.objects.select_related("user").filter(table_id=table_id))


def locked_game(game_id: int) -> Game | None:
    """The game locked for a change (inside a transaction), with its table
    and the table's seats and their users loaded (`game.table.seats.all()`
    makes no query), as `prefetch_related` would load them; None if there
    is no such game."""
    found = _LOCKED_GAME.fetch(game_id)
    if not found:
        return None
    game = found[0]
    table = game.table
    seats = _SEATS.fetch(table.pk)
    for seat in seats:
        Seat.table.field.set_cached_value(seat, table)
    # Where prefetch_related leaves them (django.db.models.query.prefetch_one_level).
    loaded: Any = table.seats.all()
    loaded._result_cache, loaded._prefetch_done = seats, True
    cast(Any, table)._prefetched_objects_cache = {Seat.table.field.remote_field.cache_name: loaded}
    return game
