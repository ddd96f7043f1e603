"""What the sockets carry, rendered: the table partial for one viewer (in
their language and time zone) and the lobby's list, and the frame around
it. Renders from what it is given, reading only what a caller left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string

from accounts import timezones
from accounts.models import User
from games import engine
from games.engine import GameState

from . import felt, presenters, selectors, services
from .models import Game, Hand, Table

if TYPE_CHECKING:
    from .presenters import TableHint


class HtmlFrame(TypedDict):
    """The group message `html.frame`: a whole snapshot, its game version and language."""

    type: str
    html: str
    version: int
    language: str | None


def render_table(
    table: Table,
    game: Game | None,
    seat: int | None,
    hand: Hand | None = None,
    *,
    state: GameState | None = None,
    message: str = "",
    rule: str | None = None,
    hint: TableHint | None = None,
    oob: bool = False,
    user: User | AnonymousUser | None = None,
    csrf_token: str = "",
) -> str:
    """The table partial for one viewer (`user` only matters before the game
    starts), with a refusal's `message` and the rules page's section that
    explains it (`rule`, an anchor of /rules/)."""
    view = None
    if game is not None:
        if state is None:
            state = services.game_state(game)
        if hand is None:
            hand = services.current_hand_row(game, state)
        view = engine.game_view(state, seat)
    seats = list(table.seats.all())  # loaded here: the presenter only receives data
    ctx = presenters.table_context(game, table, seats, view, hand, user, state)
    ctx["message"], ctx["rule"], ctx["hint"], ctx["oob"] = message, rule, hint, oob
    if csrf_token:  # a page's own table ({% csrf_token %}); frames rely on htmx's header
        ctx["csrf_token"] = csrf_token
    # Times in the viewer's own zone, as their language: the seat's player's
    # (a frame for that seat), else the given user's, else the request's or UTC.
    viewer = user
    if seat is not None:
        viewer = next((s.user for s in seats if s.position == seat), None) or user
    with timezones.override_for(viewer):
        if ctx.get("t") is not None:  # the game: its felt is Jinja2's (games.felt)
            ctx["felt_html"] = felt.render(ctx)
        return render_to_string("games/table.html#table", ctx)


def render_lobby_list(*, oob: bool = False) -> str:
    return render_to_string(
        "games/lobby.html#table_list", {"tables": selectors.open_tables(), "oob": oob}
    )


def frame(html: str, version: int, language: str | None = None) -> HtmlFrame:
    """One html frame: the whole snapshot, its game version and language."""
    return {"type": "html.frame", "html": html, "version": version, "language": language}
