"""Stats pages, the leaderboard, hand history, the replay viewer, records in
and out, and the hard-bot review. Each view reads stored figures or one
record; none aggregates the history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from accounts.models import User
from euchre_site.downloads import json_attachment
from euchre_site.refusal import Refusal
from games import words
from games.narration import describe

from . import charts, selectors
from .facts import HandRecord
from .forms import HistoryFilterForm
from .models import PROVISIONAL_GAMES, ImportedGame, PositionFigures, Review, Series
from .replay import step_context
from .review import agreement_progress, agreement_request, review_request
from .services import MAX_IMPORT_BYTES, RecordTooLarge, import_game_record
from .services import leaderboard as leaderboard_rows

HISTORY_PAGE = 50  # hands a page of the hand history


def _me(request: HttpRequest) -> User:
    """The signed-in user (every view here requires one)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


def _dated(series: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
    """The points of a stored series with `when`, their time as a datetime
    (stored as ISO text), for the page to show as a date in the reader's language."""
    return [{**p, "when": parse_datetime(str(p.get("at") or ""))} for p in series]


def _too_many(request: HttpRequest, group: str, rate: str) -> bool:
    """The player is over `rate` for `group` (django-ratelimit; this try counted)."""
    return is_ratelimited(request, group=group, key="user", rate=rate, increment=True)


def _refused_text(message: str) -> HttpResponse:
    """A 429 for htmx: plain text, which static/js/site.js shows in the page's messages."""
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return redirect("stats:player", username=request.user.get_username())


@login_required
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's figures beside the average player's: in full for oneself,
    the public summary for others."""
    if "\x00" in username:  # no name has one, and PostgreSQL refuses it in a query
        raise Http404("No such player")
    person = get_object_or_404(User, username=username)
    own = person.pk == request.user.pk
    data = selectors.stats_of(person.pk)
    avg = selectors.average()
    series: Series = data.get("series") or {"points_per_hand": [], "rating": []}
    rating_values = [p["value"] for p in series.get("rating") or []]
    pph = [p["value"] for p in series.get("points_per_hand") or []]
    # Stored figures are read leniently (dig): a row older than a figure lacks it.
    by_pos = cast(
        "dict[str, PositionFigures]",
        selectors.dig(data.get("lifetime"), "maker.by_position") or {},
    )
    pos_bars = [
        (str(label), pos.get("calls", 0) if (pos := by_pos.get(k)) else 0)
        for k, label in selectors.POSITION_LABELS.items()
    ]
    name = person.get_username()
    ctx: dict[str, object] = {
        "progress": agreement_progress(user=person) if own else None,
        "person": person,
        "own": own,
        "data": data,
        "has_data": bool(data),
        "sections": selectors.figure_sections(data, avg, full=own),
        "by_mode": selectors.breakdown(data, avg, "by_mode") if own else [],
        "by_rules": selectors.breakdown(data, avg, "by_rules") if own else [],
        "rating": data.get("rating"),
        "min_games": PROVISIONAL_GAMES,
        "games": selectors.recent_games(person.pk) if own else [],
        "agreement": data.get("agreement"),
        "rating_series": _dated(series.get("rating") or []),
        "rating_chart": charts.line_chart(
            rating_values,
            chart_id="rating-over-time",
            # Translators: the title of a chart of the player's rating (on the leaderboard's scale) after each rated game.
            title=_("Rating over time"),
            desc=ngettext(
                # Translators: the description of a chart, read by screen readers: %(name)s is the player's user name, %(n)s how many games the chart shows.
                "%(name)s's rating after %(n)s rated game.",
                "%(name)s's rating after each of the last %(n)s rated games.",
                len(rating_values),
            )
            % {"name": name, "n": len(rating_values)},
        ),
        "pph_series": _dated(series.get("points_per_hand") or []),
        "pph_chart": charts.line_chart(
            pph,
            chart_id="points-per-hand-over-time",
            # Translators: the title of a chart of the player's points per hand in each of their last games.
            title=_("Points per hand over time"),
            desc=ngettext(
                # Translators: the description of a chart, read by screen readers: %(n)s is how many games the chart shows.
                "Points per hand in %(n)s game.",
                "Points per hand in each of the last %(n)s games.",
                len(pph),
            )
            % {"n": len(pph)},
        )
        if own
        else "",
        "pos_bars": pos_bars,
        "pos_chart": charts.bar_chart(
            pos_bars,
            chart_id="maker-calls-by-seat",
            # Translators: the title of a bar chart: how often the player became the maker (chose trump), by their seat counted from the dealer.
            title=_("Maker calls by seat"),
            # Translators: the description of a chart, read by screen readers. The maker is the player who chose trump.
            desc=_("How often this player became the maker, by seat relative to the dealer."),
        )
        if own and any(v for _, v in pos_bars)
        else "",
    }
    return render(request, "stats/player.html", ctx)


LEADERBOARD_PAGE = 50  # players a page of the leaderboard


@login_required
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Every established rating, highest first, LEADERBOARD_PAGE a page."""
    page = Paginator(leaderboard_rows(), LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "stats/leaderboard.html",
        {"rows": page.object_list, "page": page, "min_games": PROVISIONAL_GAMES},
    )


@login_required
def history(request: HttpRequest) -> HttpResponse:
    """The player's finished hands, filterable (only finished hands have facts).
    A filter that is not one (?game=² or a number past any id) is a 400 that
    says so, with the filters shown again to be corrected."""
    raw = {k: request.GET.get(k, "") for k in HistoryFilterForm.base_fields}
    form = HistoryFilterForm(raw)
    valid = form.is_valid()
    # The filter form shows them again.
    shown = {k: "1" if form.cleaned_data.get(k) else "" for k in ("maker", "euchred", "alone")}
    shown["game"] = raw["game"][:40]
    if not valid:
        messages.error(request, form.message())
        return render(
            request,
            "stats/history.html",
            {"page": None, "filters": shown, "query": ""},
            status=400,
        )
    # Django's Paginator over the hands' ids alone (a column of the index
    # (user, finished, hand), so a far page skips index entries, not rows),
    # then the page's rows by hand.
    me = _me(request)
    ids = selectors.history(me, form.cleaned_data).values_list("hand_id", flat=True)
    page = Paginator(ids, HISTORY_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "stats/history.html",
        {
            "page": page,
            "rows": selectors.history_rows(selectors.history_facts(me, list(page.object_list))),
            "games": selectors.recent_games(me.pk) if page.number == 1 else [],
            "filters": shown,
            "query": form.query(),
        },
    )


@login_required
def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = selectors.finished_hand_for(request.user, hand_id)
    if hand is None:
        raise Http404("No such finished hand")
    names = selectors.seat_names(hand.game)
    ctx: dict[str, object] = {**step_context(hand.record, _int(request.GET.get("step")), names)}
    seat = next(
        (s.position for s in hand.game.table.seats.all() if s.user_id == request.user.pk), None
    )
    review = (
        Review.objects.filter(hand=hand, user=_me(request)).first() if seat is not None else None
    )
    ctx.update(
        hand=hand,
        game=hand.game,
        # Translators: the title of a hand's replay: %(game)s is the game ("Friday table #2"), %(n)s the hand's number in it.
        title=_("%(game)s · hand %(n)s") % {"game": hand.game, "n": hand.number + 1},
        base_url=request.path,
        record_url=f"/stats/hands/{hand.pk}/record.json",
        can_review=seat is not None,
        review=review,
    )
    template = (
        "stats/replay.html#board" if request.headers.get("HX-Request") else "stats/replay.html"
    )
    return render(request, template, ctx)


@login_required
def hand_record(request: HttpRequest, hand_id: int) -> HttpResponse:
    hand = selectors.finished_hand_for(request.user, hand_id)
    if hand is None:
        raise Http404("No such finished hand")
    return json_attachment(hand.record, f"euchre-hand-{hand.pk}.json")


@login_required
def import_game(request: HttpRequest) -> HttpResponse:
    """Import a record, pasted (`record`) or uploaded (`file`): IMPORT_RATE a
    player, every try counted (a 429 past it, before the record is parsed). A
    record that is too large is a 413, any other bad one a 400, each with the
    reason; nothing is stored then."""
    error, status = "", 200
    if request.method == "POST":
        if _too_many(request, "stats-import", settings.IMPORT_RATE):
            # Translators: a player tried to import more game records than the site allows in an hour.
            error = _(
                "You have imported many game records in a short time: wait a while before importing another."
            )
            status = 429
        else:
            imported, error, status = _import(request)
            if imported is not None:
                messages.success(
                    request,
                    # Translators: a message after a game record was imported.
                    _("Game imported: it is yours to look at and counts in no statistics."),
                )
                return redirect("stats:imported", imported_id=imported.pk)
    games = ImportedGame.objects.filter(owner=_me(request)).defer("record", "hand_results")[:50]
    return render(request, "stats/import.html", {"error": error, "games": games}, status=status)


def _import(request: HttpRequest) -> tuple[ImportedGame | None, str, int]:
    """The posted record imported (the game, "", 200), or refused (None, the
    reason, the HTTP status)."""
    upload = request.FILES.get("file")
    raw: str | bytes
    if upload is None:
        raw = request.POST.get("record", "")
    elif upload.size is not None and upload.size > MAX_IMPORT_BYTES:
        raw = b"x" * (MAX_IMPORT_BYTES + 1)  # refused by the service without reading it
    else:
        raw = upload.read(MAX_IMPORT_BYTES + 1)
    try:
        imported = import_game_record(
            owner=_me(request), raw=raw, name=request.POST.get("name", "")
        )
    except RecordTooLarge as exc:
        return None, str(exc), 413
    except ValueError as exc:
        return None, str(exc), 400
    return imported, "", 200


def _imported(request: HttpRequest, imported_id: int) -> ImportedGame:
    """The player's own import, without its record and hand results (up to
    1 MB): the pages ask for what they show. Its pages are limited per player
    (IMPORT_VIEW_RATE): read in a loop they slowed everybody's pages."""
    if is_ratelimited(
        request, group="imported-view", key="user", rate=settings.IMPORT_VIEW_RATE, increment=True
    ):
        raise Ratelimited
    return get_object_or_404(
        ImportedGame.objects.defer("record", "hand_results"), pk=imported_id, owner=request.user
    )


@login_required
def imported(request: HttpRequest, imported_id: int) -> HttpResponse:
    """An imported game's hands, from the results stored at import (never replayed)."""
    game = _imported(request, imported_id)
    results = ImportedGame.objects.filter(pk=game.pk).values_list("hand_results", flat=True).get()
    # A record may hold thousands of hands: a page of them at a time.
    page = Paginator(results, IMPORTED_HANDS_PER_PAGE).get_page(request.GET.get("page"))
    first = page.start_index() - 1 if results else 0
    hands = [
        {"n": n, "number": n + 1, "result": res, "complete": bool(res.get("complete"))}
        for n, res in enumerate(page.object_list, start=first)
    ]
    return render(
        request, "stats/imported.html", {"game": game, "hands": hands, "page": page, "first": first}
    )


IMPORTED_HANDS_PER_PAGE = 100


@login_required
def imported_hand(request: HttpRequest, imported_id: int, number: int) -> HttpResponse:
    """One finished hand of an imported game: its record and stored result
    are all that is read (the one hand is stepped through, never the game)."""
    game = _imported(request, imported_id)
    if not 0 <= number < int(game.result.get("hands") or 0):
        raise Http404("No such finished hand")
    record, result = (
        ImportedGame.objects.filter(pk=game.pk)
        .values_list(f"record__hands__{number}", f"hand_results__{number}")
        .get()
    )
    if not isinstance(record, dict) or not isinstance(result, dict) or not result.get("complete"):
        raise Http404("No such finished hand")
    # Translators: a player of an imported game, known only by their seat's number (1 to 3).
    names = {s: _("Seat %(n)s") % {"n": s + 1} for s in range(3)}
    # A hand of a record the import replayed whole (services.import_game_record).
    hand_record = cast(HandRecord, record)
    ctx: dict[str, object] = {
        **step_context(hand_record, _int(request.GET.get("step")), names, final=result)
    }
    ctx.update(
        # Translators: the title of an imported game's hand replay: %(name)s is the name the importer gave it (or its number), %(n)s the hand's number.
        title=_("Imported game %(name)s · hand %(n)s")
        % {"name": game.name or game.pk, "n": number + 1},
        base_url=request.path,
        record_url=None,
        can_review=False,
        imported=game,
    )
    template = (
        "stats/replay.html#board" if request.headers.get("HX-Request") else "stats/replay.html"
    )
    return render(request, template, ctx)


@login_required
def imported_record(request: HttpRequest, imported_id: int) -> HttpResponse:
    game = get_object_or_404(
        ImportedGame.objects.defer("hand_results"), pk=imported_id, owner=request.user
    )
    return json_attachment(game.record, f"euchre-imported-{game.pk}.json")


@login_required
def review(request: HttpRequest, hand_id: int) -> HttpResponse:
    """POST queues the review of one's own decisions (REVIEW_RATE a player,
    every POST counted: a 429 past it, nothing queued); GET shows progress or
    the result."""
    hand = selectors.finished_hand_for(request.user, hand_id)
    if hand is None:
        raise Http404("No such finished hand")
    error, status = "", 200
    rev: Review | None
    if request.method == "POST" and _too_many(request, "stats-review", settings.REVIEW_RATE):
        # Translators: a player asked for more hard-bot reviews (the strongest computer player looks at their decisions in a hand) than the site allows in an hour.
        error = _(
            "You have asked for many reviews in a short time: wait a while before asking for another."
        )
        if request.headers.get("HX-Request"):
            return _refused_text(error)
        status = 429
        rev = Review.objects.filter(hand=hand, user=_me(request)).first()
    elif request.method == "POST":
        try:
            with transaction.atomic():
                rev = review_request(hand=hand, user=_me(request))
        except Refusal as exc:
            return render(
                request,
                "stats/review.html#panel",
                {"error": exc.message, "hand": hand},
                status=exc.status,
            )
    else:
        rev = Review.objects.filter(hand=hand, user=_me(request)).first()
    # The people's own names: the seat's state now ("alice (bot playing)") made none of these moves.
    names = {p: words.person_of(n) for p, n in selectors.seat_names(hand.game).items()}
    rows = []
    if rev is not None:
        for d in rev.decisions:
            rows.append(
                {
                    "mine": describe(d["action"], names, hand.record["dealer"]),
                    "best": describe(d["best"], names, hand.record["dealer"]) if d["best"] else "–",
                    "best_share": round(100 * (d["best_share"] or 0)),
                    "my_share": round(100 * (d["my_share"] or 0)),
                    "agree": d["agree"],
                }
            )
    ctx = {"hand": hand, "review": rev, "rows": rows, "error": error}
    if request.headers.get("HX-Request"):
        return render(request, "stats/review.html#panel", ctx)
    return render(request, "stats/review.html", ctx, status=status)


@login_required
def agreement(request: HttpRequest) -> HttpResponse:
    """POST queues hard-bot reviews of the player's recent hands (AGREEMENT_RATE
    a player, every POST counted: a 429 past it, nothing queued); GET (polled
    while they run) shows the progress and the agreement figure."""
    me = _me(request)
    if request.method == "POST":
        if _too_many(request, "stats-agreement", settings.AGREEMENT_RATE):
            # Translators: a player asked the hard bot (the strongest computer player) to review their last hands more often than the site allows in an hour.
            said = _(
                "You have asked for the hard bot's review of your hands many times in a short time: wait a while and try again."
            )
            if request.headers.get("HX-Request"):
                return _refused_text(said)
            return render(request, "stats/refused.html", {"message": said}, status=429)
        with transaction.atomic():
            agreement_request(user=me)
    data = selectors.stats_of(me.pk)
    ctx = {"progress": agreement_progress(user=me), "agreement": data.get("agreement"), "own": True}
    if request.headers.get("HX-Request"):
        return render(request, "stats/player.html#agreement", ctx)
    return redirect("stats:mine")
