"""Vacations: a player pauses their deadlines in by-turns games for some days
(at most 14 a calendar year). accounts owns the days; the games that wait
for the player follow through accounts.signals.vacation_changed."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from euchre_site.refusal import Code, Refusal

from . import signals
from .models import User


def vacation_start(*, user: User, days: int, now: datetime.datetime | None = None) -> None:
    """Pause the player's deadlines in by-turns games for `days` days (at most
    14 a calendar year)."""
    now = now or timezone.now()
    if user.on_vacation(now):
        raise Refusal(code=Code.CONFLICT, message=_("You are already on vacation."))
    left = user.vacation_days_left(now)
    if not 1 <= days <= left:
        if left < 1:
            raise Refusal(_("You have no vacation days left this year."))
        if left == 1:
            raise Refusal(_("Choose 1 day: it is the last vacation day you have this year."))
        raise Refusal(
            ngettext(
                "Choose between 1 and %(left)s day (you have %(left)s vacation day left this year).",
                "Choose between 1 and %(left)s days (you have %(left)s vacation days left this year).",
                left,
            )
            % {"left": left}
        )
    with transaction.atomic():
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_days_used = now.year, 0
        user.vacation_days_used += days
        user.vacation_until = now + datetime.timedelta(days=days)
        user.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        signals.vacation_changed.send(sender=User, user=user, now=now)


def vacation_end(*, user: User, now: datetime.datetime | None = None) -> None:
    """Come back early; the whole days not used are given back."""
    now = now or timezone.now()
    if not user.on_vacation(now) or user.vacation_until is None:
        raise Refusal(code=Code.CONFLICT, message=_("You are not on vacation."))
    with transaction.atomic():
        unused = (user.vacation_until - now).days
        user.vacation_days_used = max(0, user.vacation_days_used - unused)
        user.vacation_until = None
        user.save(update_fields=["vacation_until", "vacation_days_used"])
        signals.vacation_changed.send(sender=User, user=user, now=now)
