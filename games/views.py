"""Thin views: parse the request, call one service, render the table for this viewer."""

from __future__ import annotations

import functools
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails
from django_ratelimit.core import is_ratelimited

from accounts import guests, vacations
from accounts.models import User
from euchre_site import safe_json
from euchre_site.downloads import json_attachment
from euchre_site.refusal import Code, Refusal
from euchre_site.views import error_response
from games import engine

from . import access, frames, hints, selectors, services
from .forms import PlayComputerForm, TableForm
from .models import Game, Table
from .presenters import TableHint

MAX_ACTION_CHARS = 400


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _player(request: HttpRequest) -> User:
    """The signed-in player of a login_required view."""
    user = request.user
    assert isinstance(user, User), "a login_required view"
    return user


def _table_or_404(request: HtmxHttpRequest, table_id: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("owner").prefetch_related("seats"), pk=table_id
    )
    if not access.may_view(request.user, table, request.session):
        raise Http404("No such table")
    return table


def _table_html(
    request: HtmxHttpRequest,
    table: Table,
    message: str = "",
    rule: str | None = None,
    hint: TableHint | None = None,
) -> str:
    table = selectors.with_seats(Table.objects.select_related("owner")).get(
        pk=table.pk
    )  # fresh seats
    game = selectors.latest_game(table)
    seat = access.seat_of(table, request.user)
    return frames.render_table(
        table,
        game,
        seat,
        message=message,
        rule=rule,
        hint=hint,
        user=request.user,
        csrf_token=get_token(request),  # its forms work without JavaScript too
    )


REFUSED_HEADER = "X-Table-Refused"


def _respond(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """Done: htmx gets the table partial; a plain form post goes back to the page."""
    if request.htmx:
        return HttpResponse(_table_html(request, table))
    return redirect(table)


def _refuse(request: HtmxHttpRequest, table: Table, exc: Refusal) -> HttpResponse:
    """Nothing changed: the table as it stands with the reason, under the
    error's 4xx status. htmx swaps it in all the same (site.js, on the
    REFUSED_HEADER); a plain form post gets the whole page."""
    response = _answer(
        request, table, _table_html(request, table, exc.message, exc.rule), exc.status
    )
    response[REFUSED_HEADER] = "1"
    return response


def _answer(request: HtmxHttpRequest, table: Table, html: str, status: int = 200) -> HttpResponse:
    """The table partial for htmx, the whole page for a plain form post."""
    if request.htmx:
        return HttpResponse(html, status=status)
    return render(
        request, "games/table_page.html", {"table": table, "table_html": html}, status=status
    )


def _lobby(
    request: HtmxHttpRequest, posted: TableForm | PlayComputerForm | None = None, status: int = 200
) -> HttpResponse:
    """The lobby, with `posted` (the form that was sent, and its errors) in its place."""
    form, play_form = TableForm(), PlayComputerForm()
    if isinstance(posted, PlayComputerForm):
        play_form = posted
    elif posted is not None:
        form = posted
    context = {"form": form, "play_form": play_form, "tables": selectors.open_tables()}
    return render(request, "games/lobby.html", context, status=status)


@login_required
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    return _lobby(request)


@login_required
@require_POST
def table_create(request: HtmxHttpRequest) -> HttpResponse:
    """The full form, or the lobby's "Play the computer" (two bots of one
    level, the full form's defaults otherwise): one service opens either."""
    form: TableForm | PlayComputerForm = (
        PlayComputerForm(request.POST)
        if PlayComputerForm.posted(request.POST)
        else TableForm(request.POST)
    )
    if is_ratelimited(request, group="table-create", key="user", rate="20/h", increment=True):
        form.add_error(
            None,
            _("You have opened many tables in the last hour: wait a while before opening another."),
        )
        return _lobby(request, form, status=429)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    try:
        table = services.table_create(owner=_player(request), **form.table_kwargs())
    except Refusal as exc:
        form.add_error(None, exc.message)
        return _lobby(request, form, status=exc.status)
    return redirect(table)


@require_POST
def play_now(request: HtmxHttpRequest) -> HttpResponse:
    """The front page's "Play now": a live table against two medium bots at
    the site's default options, at once. A visitor without an account
    becomes a guest first (accounts.guests: new guests are limited per
    address); a signed-in player (or guest) just gets a new table."""
    if not request.user.is_authenticated:
        if is_ratelimited(
            request, group="guest-create", key="ip", rate=settings.GUEST_RATE, increment=True
        ):
            # Translators: too many guests (visitors playing without an account) were made from this address lately.
            return error_response(
                request,
                429,
                _("Many guests came from your address lately: sign up, or try again in an hour."),
            )
        guest = guests.guest_create(language=get_language() or "")
        login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    form = PlayComputerForm({f"{PlayComputerForm.PREFIX}-level": "medium"})
    if not form.is_valid():  # the form's own default: cannot happen
        raise ValueError(form.errors.as_text())
    try:
        table = services.table_create(owner=_player(request), **form.table_kwargs())
    except Refusal as exc:
        return error_response(request, 403 if exc.status == 403 else 400, exc.message)
    return redirect(table)


@login_required
def table_page(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    if request.htmx and request.GET.get("partial"):
        return HttpResponse(_table_html(request, table))
    return render(
        request,
        "games/table_page.html",
        {"table": table, "table_html": _table_html(request, table)},
    )


def invite(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """An invitation link: lets this user see (and join) the private table,
    until its game has ended or its owner revokes the link. A closed link
    answers 410 with a page that says so, before any log-in: a link no table
    has (revoked, replaced at a rematch, the table gone) as well. An open one
    asks a visitor to log in (or sign up) first, then comes back here (the
    session, which keeps the invitation, outlives the log-in)."""
    table = Table.objects.filter(invite_token=token[:64]).first()
    if table is None:
        return render(request, "games/invitation_closed.html", {"reason": "revoked"}, status=410)
    try:
        access.admit_invited(table, request.session)
    except access.InvitationClosed:
        if access.may_view(request.user, table, request.session):
            return redirect(table)  # already in: the link changes nothing
        return render(request, "games/invitation_closed.html", {"reason": "ended"}, status=410)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return redirect(table)


def _position(request: HtmxHttpRequest) -> int:
    return services.seat_position(request.POST.get("position", ""))


def table_post(
    handler: Callable[[HtmxHttpRequest, Table], HttpResponse | None],
) -> Callable[[HtmxHttpRequest, int], HttpResponse]:
    """A signed-in POST about one table: run the handler (one service call);
    answer with the table as it now stands, and the reason if nothing changed."""

    @login_required
    @require_POST
    @functools.wraps(handler)
    def view(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
        table = _table_or_404(request, table_id)
        try:
            if is_ratelimited(
                request,
                group="table-post",
                key="user",
                rate=settings.TABLE_POST_RATE,
                increment=True,
            ):
                raise Refusal(
                    _("Too many moves at once: wait a moment and try again."), code=Code.TOO_MANY
                )
            response = handler(request, table)
        except Refusal as exc:
            return _refuse(request, table, exc)
        return response or _respond(request, table)

    return view


@table_post
def table_revoke_invite(request: HtmxHttpRequest, table: Table) -> None:
    services.table_revoke_invitation(table=table, user=_player(request))


@table_post
def table_join(request: HtmxHttpRequest, table: Table) -> None:
    services.table_join(table=table, user=_player(request), position=_position(request))


@table_post
def table_leave(request: HtmxHttpRequest, table: Table) -> HttpResponse | None:
    services.table_leave(table=table, user=_player(request))
    if Table.objects.filter(pk=table.pk).exists():
        return None
    if request.htmx:  # the last player left: the table is gone
        response = HttpResponse()
        response["HX-Redirect"] = reverse("games:lobby")
        return response
    return redirect("games:lobby")


@table_post
def table_bot(request: HtmxHttpRequest, table: Table) -> None:
    level = request.POST.get("level", "")[:10]
    services.table_set_bot(
        table=table, user=_player(request), position=_position(request), level=level
    )


@table_post
def table_fill_with_bots(request: HtmxHttpRequest, table: Table) -> None:
    """The owner seats bots of one level in every open seat of a table that waits for players."""
    level = request.POST.get("level", "")[:10]
    services.table_fill_with_bots(table=table, user=_player(request), level=level)


@table_post
def table_rematch(request: HtmxHttpRequest, table: Table) -> None:
    services.game_rematch(table=table, user=_player(request))


@table_post
def table_autopilot(request: HtmxHttpRequest, table: Table) -> None:
    """Hand one's seat to a bot for the rest of the game, or take it back."""
    services.seat_set_autopilot(
        table=table, user=_player(request), level=request.POST.get("level", "")[:10]
    )


def _not_a_move() -> str:
    return _("That is not a move.")


def parse_action(post: QueryDict) -> tuple[safe_json.JSONObject, int]:
    """The move and the version it was made on, from the posted form.

    The action is a small JSON object (no NaN or Infinity); its fields are
    checked against its type by the engine (`Action.from_dict(strict=True)`).
    The seat is the signed-in player's, never the form's.
    """
    raw = post.get("action", "")
    version_text = post.get("version", "")
    if not raw or len(raw) > MAX_ACTION_CHARS or len(version_text) > 12:
        raise Refusal(_not_a_move())
    try:
        action = safe_json.loads_limited(raw, max_bytes=MAX_ACTION_CHARS, max_depth=4)
        version = int(version_text)
    except ValueError:
        raise Refusal(_not_a_move()) from None
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or not safe_json.is_clean_text(action)
    ):
        raise Refusal(_not_a_move())
    if "seat" in action:
        raise Refusal(_("A move cannot name its seat: it is always your own."))
    keep = post.getlist("keep")
    if keep and not safe_json.is_clean_text(keep):
        raise Refusal(_not_a_move())
    if keep:
        if action["type"] != "dummy" or "keep" in action:
            raise Refusal(_not_a_move())
        # How many to keep, and which, is the engine's check (verify, via
        # game_act): its refusal says how many were chosen (games.messages).
        action["keep"] = keep
    return action, version


@table_post
def table_act(request: HtmxHttpRequest, table: Table) -> HttpResponse | None:
    game = selectors.latest_game(table)
    if game is None:
        raise Refusal(code=Code.CONFLICT, message=_("The game has not started yet."))
    action, version = parse_action(request.POST)
    done = services.game_act(
        game_id=game.pk,
        version=version,
        action=action,
        actor=services.Actor.person(_player(request)),
    )
    if not request.htmx:
        return None
    # htmx gets the table as this move left it, not as it stands when the
    # answer is written: the moves made since (a bot's, at once) come next as
    # frames, in order, each with its motion. A later table here would skip
    # them, and the page would discard their frames as older.
    return HttpResponse(
        frames.render_table(
            done.game.table,
            done.game,
            access.seat_of(done.game.table, request.user),
            state=done.state,
            user=request.user,
            csrf_token=get_token(request),
        )
    )


@table_post
def table_hint(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """At a table with hints: what the hard bot would do in the player's
    place, and why (nothing changes). Answers at once and never searches
    here: with the hint if this position's is in the cache, else with
    "Thinking…" while a worker works it out and pushes it over the table's
    socket (games.hints). At most settings.HINT_RATE asks per player, and
    one hint on its way at a time (429)."""
    game = selectors.latest_game(table)
    if game is None:
        raise Refusal(code=Code.CONFLICT, message=_("The game has not started yet."))
    version_text = request.POST.get("version", "")
    if not version_text.isascii() or not version_text.isdigit() or len(version_text) > 12:
        raise Refusal(_not_a_move())
    version = int(version_text)
    if is_ratelimited(request, group="hint", key="user", rate=settings.HINT_RATE, increment=True):
        raise Refusal(
            # Translators: a player asked for very many hints in a short time (a limit that protects the site).
            _("You have asked for many hints in a short time: wait a little before asking again."),
            code=Code.TOO_MANY,
        )
    hint = hints.ask(game=game, version=version, user=_player(request))
    shown: TableHint = (
        {**hints.said(hint), "game": game.pk}
        if hint is not None
        else {"thinking": True, "version": version, "game": game.pk}
    )
    return _answer(request, table, _table_html(request, table, hint=shown))


@login_required
def game_record(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A finished game's full record (docs/hand-record.md), for its players."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if not access.may_view_game_records(request.user, game.table):
        raise Http404("No such game")
    if game.status != Game.Status.FINISHED:
        return JsonResponse(
            {"error": _("The record can be downloaded once the game is over.")}, status=409
        )
    record = engine.game_to_record(services.game_state(game))
    return json_attachment(dict(record), f"euchre-game-{game.pk}.json")


@login_required
def my_games(request: HtmxHttpRequest) -> HttpResponse:
    """Every game the player is seated in: their turn first (most urgent
    deadline first), then the others with whose turn it is."""
    number = request.GET.get("page")
    if request.htmx and request.GET.get("partial"):
        # The push's refresh (games.realtime) asks without a page: the one the reader is on.
        current = request.htmx.current_url_abs_path or ""
        number = number or QueryDict(urlsplit(current).query).get("page")
        rows, page = selectors.my_games(_player(request), number)
        return render(request, "games/my_games.html#list", {"rows": rows, "page": page})
    rows, page = selectors.my_games(_player(request), number)
    return render(request, "games/my_games.html", {"rows": rows, "page": page})


@login_required
@require_POST
def vacation(request: HtmxHttpRequest) -> HttpResponse:
    try:
        if request.POST.get("end"):
            vacations.vacation_end(user=_player(request))
            messages.success(request, _("Welcome back: your deadlines run again."))
        else:
            try:
                days = int(request.POST.get("days", ""))
            except ValueError:
                raise Refusal(_("Choose a number of days.")) from None
            vacations.vacation_start(user=_player(request), days=days)
            messages.success(
                request,
                ngettext(
                    "Enjoy your %(days)s day away: your deadlines are paused.",
                    "Enjoy your %(days)s days away: your deadlines are paused.",
                    days,
                )
                % {"days": days},
            )
    except Refusal as exc:
        messages.error(request, exc.message)
    return redirect("accounts:profile")
