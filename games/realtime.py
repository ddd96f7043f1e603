"""Pushes to the browsers: each viewer gets the table rendered from its own view.

Groups: `game.<id>.seat.<n>` for a seated player, `game.<id>.spectators` for
everybody else, `lobby` for the lobby list. Every frame is a whole table
snapshot carrying the game version, so a lost frame is healed by the next one
and a (re)connecting socket starts from a full snapshot.

Every frame also carries the language it is written in: a seat's frame is
rendered in its player's language (their profile's, else the site's), the
spectators' and the lobby's in the site's. A socket reading another language
(`socket_language`: a browser's choice without a profile language) renders
its own snapshot instead of forwarding the frame.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation

from accounts import timezones
from accounts.languages import language_of, supported
from euchre_site import push
from games import engine

from . import presence
from .models import Game, Hand, Seat, Table

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
    rule: str | None = None,
    hint: dict[str, Any] | None = None,
    oob: bool = False,
    user: Any = None,
    csrf_token: str = "",
) -> str:
    """The table partial for one viewer (`user` only matters before the game
    starts), with a refusal's `message` and the rules page's section that
    explains it (`rule`, an anchor of /rules/)."""
    from . import presenters, services

    view = None
    if game is not None:
        if state is None:
            state = services.game_state(game)
        if hand is None:
            hand = services.current_hand_row(game)
        view = engine.game_view(state, seat)
    ctx = presenters.table_context(game, table, view, hand, user, state)
    ctx.update(message=message, rule=rule, hint=hint, oob=oob)
    if csrf_token:  # a page's own table ({% csrf_token %}); frames rely on htmx's header
        ctx["csrf_token"] = csrf_token
    # Times in the viewer's own zone, as their language: the seat's player's
    # (a frame for that seat), else the given user's, else the request's or UTC.
    viewer = user
    if seat is not None:
        viewer = next((s.user for s in table.seats.all() if s.position == seat), None) or user
    with timezones.override_for(viewer):
        return render_to_string("games/table.html#table", ctx)


def latest_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def latest_game_version(table_id: int) -> tuple[int, int] | None:
    """(game id, version) of the table's latest game: what an up-to-date page shows."""
    row = (
        Game.objects.filter(table_id=table_id)
        .order_by("-number")
        .values_list("pk", "version")
        .first()
    )
    return (row[0], row[1]) if row else None


def _send(frames: list[tuple[str, dict[str, Any]]]) -> None:
    push.send(frames)


def _frame(html: str, version: int, language: str | None = None) -> dict[str, Any]:
    return {"type": "html.frame", "html": html, "version": version, "language": language}


def socket_language(scope: dict[str, Any]) -> str:
    """The language a websocket's pages speak, as accounts.middleware chooses
    a page's: the signed-in player's own choice, else the language cookie,
    else the browser's Accept-Language, else the site's."""
    user = scope.get("user")
    chosen = supported(getattr(user, "language", "")) if user is not None else None
    if chosen and getattr(user, "is_authenticated", False):
        return chosen
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")[:500]
    try:
        return translation.get_language_from_request(request)
    except Exception:  # a malformed header never breaks the socket
        return settings.LANGUAGE_CODE


def with_seats(queryset: Any) -> Any:
    """Tables (or games) with their seats and seated users loaded in one go."""
    prefix = "table__" if queryset.model is Game else ""
    return queryset.prefetch_related(
        Prefetch(f"{prefix}seats", queryset=Seat.objects.select_related("user"))
    )


def broadcast_game(game_id: int, loaded: tuple[Game, Any, Hand | None] | None = None) -> None:
    """Render the table once per viewer (seated people and spectators) and push it.

    `loaded`: the game row (its table's seats and their users loaded), its
    engine state and current hand row as just committed (a move); else they
    are read from the database.
    """
    from . import services

    if loaded is not None:
        game, state, hand = loaded
    else:
        game = with_seats(Game.objects.select_related("table")).get(pk=game_id)
        state = services.game_state(game)
        hand = services.current_hand_row(game)
    table = game.table
    seats = {s.position: s for s in table.seats.all()}
    present, spectators = presence.watching(
        table.pk, [s.user_id for s in seats.values() if s.user_id]
    )
    frames = []
    for seat in VIEWERS:
        if seat is None and not spectators:
            continue
        if seat is not None and seats[seat].user_id not in present:
            continue  # nobody is looking from this seat (a bot's, or a player elsewhere)
        language = language_of(seats[seat].user) if seat is not None else settings.LANGUAGE_CODE
        with translation.override(language):
            html = render_table(table, game, seat, hand, state=state, oob=True)
        frames.append((game_group(game.pk, seat), _frame(html, game.version, language)))
    _send(frames)


def push_hint(game_id: int, seat: int, user_id: int, version: int, hint: dict[str, Any]) -> None:
    """A hint a worker worked out (games.hints), to the asking seat's group
    only (never another seat's or the spectators': it comes from that seat's
    cards). Language-neutral: each socket puts it into its page's words, and
    forwards it only to the player who asked, at the game and version its
    page has or a newer one (TableConsumer.hint_ready)."""
    message = {"type": "hint.ready", "game": game_id, "version": version, "user": user_id}
    _send([(game_group(game_id, seat), {**message, "hint": hint})])


def broadcast_table_changed(table_id: int) -> None:
    """Seats changed or a game started: each open page re-renders for its own user
    (join and bot buttons differ per person) and follows the new game's group."""
    _send([(table_group(table_id), {"type": "table.changed"})])


def broadcast_lobby() -> None:
    language = settings.LANGUAGE_CODE
    with translation.override(language):
        html = render_lobby_list(oob=True)
    _send([("lobby", _frame(html, 0, language))])


def open_tables() -> Any:
    return (
        with_seats(
            Table.objects.filter(visibility=Table.Visibility.PUBLIC, status=Table.Status.OPEN)
        )
        .select_related("owner")
        .order_by("-created")[:100]
    )


def render_lobby_list(*, oob: bool = False) -> str:
    return render_to_string("games/lobby.html#table_list", {"tables": open_tables(), "oob": oob})


MY_GAMES_REFRESH = (
    '<div id="my-games-refresh" hx-swap-oob="true">'
    '<div hx-get="/games/mine/?partial=1" hx-trigger="load" hx-target="#my-games" hx-swap="outerHTML"></div></div>'
)


def push_my_games(user_ids: list[int]) -> None:
    """Tell open "My games" pages to fetch their list again (each for its own user)."""
    _send([(push.user_group(u), _frame(MY_GAMES_REFRESH, 0)) for u in user_ids])
