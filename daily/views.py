"""Thin views: parse, call one service or selector, render."""

from __future__ import annotations

import datetime
import re

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.core import is_ratelimited

from accounts.models import User
from euchre_site.refusal import Code, Refusal

from . import selectors, services
from .models import DailyDeal

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day(text: str) -> datetime.date:
    """A date written YYYY-MM-DD (ASCII digits only); else 404."""
    if not _ISO_DAY.fullmatch(text):
        raise Http404("No such day")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Http404("No such day") from None


def _me(request: HttpRequest) -> User:
    """The signed-in player: every view here requires one (login_required)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


def _refused(request: HttpRequest, exc: Refusal) -> HttpResponse:
    """Nothing changed: today's page with the reason, under the error's status."""
    return render(
        request, "daily/today.html", _today_context(request, message=exc.message), status=exc.status
    )


def _today_context(request: HttpRequest, message: str = "") -> dict[str, object]:
    day = services.today()
    deal = services.deal_for_day(day=day)
    entry = selectors.entry_of(deal, request.user)
    if entry is not None and selectors.lagging(deal, entry):
        services.entry_update(entry_id=entry.pk)  # the task's own work, idempotent
        entry = selectors.entry_of(deal, request.user)
        deal.refresh_from_db()
    return {
        "deal": deal,
        "entry": entry,
        "message": message,
        "streak": selectors.current_streak(_me(request), day),
        "recent": selectors.recent(_me(request)),
        "hands": range(1, 6),
    }


@login_required
@require_GET
def today_page(request: HttpRequest) -> HttpResponse:
    """Today's deal: play it, resume it, or see how everyone did."""
    services.entries_close_past(day=services.today(), user=_me(request))
    return render(request, "daily/today.html", _today_context(request))


def _limited(request: HttpRequest) -> bool:
    return is_ratelimited(
        request, group="table-post", key="user", rate=settings.TABLE_POST_RATE, increment=True
    )


@login_required
@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """Start today's attempt (or resume the one under way) at its table."""
    if _limited(request):
        return _refused(
            request,
            Refusal(
                _("Too many requests at once: wait a moment and try again."), code=Code.TOO_MANY
            ),
        )
    try:
        entry = services.attempt_start(user=_me(request))
    except Refusal as exc:
        return _refused(request, exc)
    assert entry.game is not None
    return redirect(entry.game.table)


@login_required
@require_POST
def stop(request: HttpRequest) -> HttpResponse:
    """Leave today's attempt half-played: the hands played so far count."""
    if _limited(request):
        return _refused(
            request,
            Refusal(
                _("Too many requests at once: wait a moment and try again."), code=Code.TOO_MANY
            ),
        )
    try:
        entry = services.attempt_stop(user=_me(request))
    except Refusal as exc:
        return _refused(request, exc)
    return redirect(entry.deal)


@login_required
@require_GET
def day_page(request: HttpRequest, day: str) -> HttpResponse:
    """A day's comparison: each hand's best, average and the viewer's points,
    the leaderboard and (once the viewer played that day) everyone's hands."""
    date = _day(day)
    today = services.today()
    deal = DailyDeal.objects.filter(date=date).first()
    if deal is None or date > today:
        raise Http404("No daily deal that day")
    entry = selectors.entry_of(deal, request.user)
    if entry is not None and selectors.lagging(deal, entry):
        services.entry_update(entry_id=entry.pk)  # the task's own work, idempotent
        entry = selectors.entry_of(deal, request.user)
        deal.refresh_from_db()
    if not selectors.may_compare(deal, entry, today):
        return render(
            request,
            "daily/not_yet.html",
            {"deal": deal, "entry": entry},
            status=403,
        )
    return render(
        request,
        "daily/day.html",
        {
            "deal": deal,
            "entry": entry,
            "is_today": date == today,
            "may_replay": selectors.may_replay(deal, today),
            "ranked_after_games": services.RANKED_AFTER_GAMES,
            "streak": selectors.current_streak(_me(request), today),
            **selectors.comparison(deal, entry, replays=selectors.may_replay(deal, today)),
        },
    )
