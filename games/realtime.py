"""Pushes to the browsers: each viewer gets the table rendered from its own view.

Groups: `game.<id>.seat.<n>` for a seated player, `game.<id>.spectators` for
everybody else, `lobby` for the lobby list. Every frame is a whole table
snapshot carrying the game version, so a lost frame is healed by the next one
and a (re)connecting socket starts from a full snapshot.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.template.loader import render_to_string

from .models import Game, Hand, Table

log = logging.getLogger(__name__)
VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)


def game_group(game_id: int, seat: int | None) -> str:
    return f"game.{game_id}.seat.{seat}" if seat is not None else f"game.{game_id}.spectators"


def table_group(table_id: int) -> str:
    """Viewers of a table before its game starts (and across rematches)."""
    return f"table.{table_id}"


def render_table(
    table: Table,
    game: Game | None,
    seat: int | None,
    hand: Hand | None = None,
    *,
    state: Any = None,
    message: str = "",
    oob: bool = False,
    user: Any = None,
) -> str:
    """The table partial for one viewer (`user` only matters before the game starts)."""
    from . import presenters, services

    view = None
    if game is not None:
        if state is None:
            state = services.game_state(game)
        if hand is None:
            hand = services.current_hand_row(game)
        view = services.seat_view(game, state, seat, hand)
    ctx = presenters.table_context(game, table, view, hand, user)
    ctx.update(message=message, oob=oob)
    return render_to_string("games/table.html#table", ctx)


def latest_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def _send(group: str, html: str, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group, {"type": "html.frame", "html": html, "version": version}
        )
    except Exception:  # best effort: the next frame, or the snapshot on reconnect, resyncs
        log.exception("push to %s failed", group)


def broadcast_game(game_id: int) -> None:
    """Render the table once per viewer (seated people and spectators) and push it."""
    game = Game.objects.select_related("table").get(pk=game_id)
    table = game.table
    from . import services

    state = services.game_state(game)
    hand = services.current_hand_row(game)
    seats = {s.position: s for s in table.seats.all()}
    for seat in VIEWERS:
        if seat is not None and seats[seat].is_bot:
            continue
        html = render_table(table, game, seat, hand, state=state, oob=True)
        _send(game_group(game.pk, seat), html, game.version)


def broadcast_table_changed(table_id: int) -> None:
    """Seats changed or a game started: each open page re-renders for its own user
    (join and bot buttons differ per person) and follows the new game's group."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(table_group(table_id), {"type": "table.changed"})
    except Exception:
        log.exception("push to table %s failed", table_id)


def broadcast_lobby() -> None:
    _send("lobby", render_lobby_list(oob=True), 0)


def open_tables() -> Any:
    return (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC, status=Table.Status.OPEN)
        .select_related("owner")
        .prefetch_related("seats__user")
        .order_by("-created")[:100]
    )


def render_lobby_list(*, oob: bool = False) -> str:
    return render_to_string("games/lobby.html#table_list", {"tables": open_tables(), "oob": oob})
