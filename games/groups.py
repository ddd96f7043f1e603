"""The names of the channel groups a table's viewers listen on (a leaf).

`game.<id>.seat.<n>` for a seated player, `game.<id>.spectators` for
everybody else, `table.<id>` for a table's pages before its game starts (and
across rematches), `lobby` for the lobby list.
"""

from __future__ import annotations

VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)
LOBBY = "lobby"


def game_group(game_id: int, seat: int | None) -> str:
    return f"game.{game_id}.seat.{seat}" if seat is not None else f"game.{game_id}.spectators"


def table_group(table_id: int) -> str:
    """Viewers of a table before its game starts (and across rematches)."""
    return f"table.{table_id}"
