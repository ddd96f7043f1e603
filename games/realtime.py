"""Pushes to the browsers: each viewer gets the table rendered from its own view.

The groups are named in games.groups and the frames rendered in
games.frames; this module only pushes them. Every frame is a whole table
snapshot carrying the game version, so a lost frame is healed by the next one
and a (re)connecting socket starts from a full snapshot.

Every frame also carries the language it is written in: a seat's frame is
rendered in its player's language (their profile's, else the site's), the
spectators' and the lobby's in the site's. A socket reading another language
(accounts.languages.socket_language: a browser's choice without a profile language) renders
its own snapshot instead of forwarding the frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.utils import translation

from accounts.languages import language_of
from euchre_site import push
from games.engine import GameState

from . import presence, selectors, services
from .frames import frame, render_lobby_list, render_table
from .groups import LOBBY, VIEWERS, game_group, table_group
from .models import Game, Hand

if TYPE_CHECKING:
    from .presenters import Hint

# chat.services names the table's group through this module.
__all__ = ["table_group"]


class HintReady(TypedDict):
    """The group message `hint.ready`: a worker's hint for `user` at `game` and `version`."""

    type: str
    game: int
    version: int
    user: int
    hint: Hint


class TableChanged(TypedDict):
    """The group message `table.changed`: each page re-renders for its own user."""

    type: str


def _send(frames: Sequence[tuple[str, push.GroupMessage]]) -> None:
    push.send(frames)


def broadcast_game(game_id: int, loaded: tuple[Game, GameState, Hand | None] | None = None) -> None:
    """Render the table once per viewer (seated people and spectators) and push it.

    `loaded`: the game row (its table's seats and their users loaded), its
    engine state and current hand row as just committed (a move); else they
    are read from the database.
    """
    if loaded is not None:
        game, state, hand = loaded
    else:
        game = selectors.with_seats(Game.objects.select_related("table")).get(pk=game_id)
        state = services.game_state(game)
        hand = services.current_hand_row(game, state)
    table = game.table
    seats = {s.position: s for s in table.seats.all()}
    present, spectators = presence.watching(
        table.pk, [s.user_id for s in seats.values() if s.user_id]
    )
    frames: list[tuple[str, push.GroupMessage]] = []
    for seat in VIEWERS:
        if seat is None and not spectators:
            continue
        if seat is not None and seats[seat].user_id not in present:
            continue  # nobody is looking from this seat (a bot's, or a player elsewhere)
        language = language_of(seats[seat].user) if seat is not None else settings.LANGUAGE_CODE
        with translation.override(language):
            html = render_table(table, game, seat, hand, state=state, oob=True)
        frames.append((game_group(game.pk, seat), frame(html, game.version, language)))
    _send(frames)


def push_hint(game_id: int, seat: int, user_id: int, version: int, hint: Hint) -> None:
    """A hint a worker worked out (games.hints), to the asking seat's group
    only (never another seat's or the spectators': it comes from that seat's
    cards). Language-neutral: each socket puts it into its page's words, and
    forwards it only to the player who asked, at the game and version its
    page has or a newer one (TableConsumer.hint_ready)."""
    message: HintReady = {
        "type": "hint.ready",
        "game": game_id,
        "version": version,
        "user": user_id,
        "hint": hint,
    }
    _send([(game_group(game_id, seat), message)])


def broadcast_table_changed(table_id: int) -> None:
    """Seats changed or a game started: each open page re-renders for its own user
    (join and bot buttons differ per person) and follows the new game's group."""
    changed: TableChanged = {"type": "table.changed"}
    _send([(table_group(table_id), changed)])


def broadcast_lobby() -> None:
    language = settings.LANGUAGE_CODE
    with translation.override(language):
        html = render_lobby_list(oob=True)
    _send([(LOBBY, frame(html, 0, language))])


MY_GAMES_REFRESH = (
    '<div id="my-games-refresh" hx-swap-oob="true">'
    '<div hx-get="/games/mine/?partial=1" hx-trigger="load" hx-target="#my-games" hx-swap="outerHTML"></div></div>'
)


def push_my_games(user_ids: list[int]) -> None:
    """Tell open "My games" pages to fetch their list again (each for its own user)."""
    _send([(push.user_group(u), frame(MY_GAMES_REFRESH, 0)) for u in user_ids])
