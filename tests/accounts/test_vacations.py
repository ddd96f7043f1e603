"""Vacations (accounts.vacations): at most 14 days a calendar year, one at a
time, the whole days not used given back on an early return. The games'
deadlines that follow them: tests/games/test_by_turns.py."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from accounts import signals, vacations
from euchre_site.refusal import Code, Refusal

pytestmark = pytest.mark.django_db


def test_a_vacation_is_limited_to_14_days_a_year_and_unused_days_come_back(alice: Any) -> None:
    now = timezone.now()
    vacations.vacation_start(user=alice, days=3, now=now)
    alice.refresh_from_db()
    assert alice.on_vacation(now) and alice.vacation_days_used == 3
    with pytest.raises(Refusal, match=r"^You are already on vacation\.$") as refused:
        vacations.vacation_start(user=alice, days=1, now=now)
    assert refused.value.code == Code.CONFLICT
    vacations.vacation_end(user=alice, now=now + datetime.timedelta(hours=1))
    alice.refresh_from_db()
    assert not alice.on_vacation(now + datetime.timedelta(hours=1))
    assert alice.vacation_days_used == 1  # two whole days given back
    with pytest.raises(
        Refusal,
        match=r"^Choose between 1 and 13 days \(you have 13 vacation days left this year\)\.$",
    ):
        vacations.vacation_start(user=alice, days=14, now=now + datetime.timedelta(hours=2))
    with pytest.raises(Refusal, match=r"^You are not on vacation\.$"):
        vacations.vacation_end(user=alice, now=now + datetime.timedelta(hours=2))


def test_a_vacation_change_is_announced_with_its_time(alice: Any) -> None:
    heard: list[tuple[int, datetime.datetime]] = []

    def listen(sender: object, *, user: Any, now: datetime.datetime, **kwargs: object) -> None:
        heard.append((user.pk, now))

    signals.vacation_changed.connect(listen)
    try:
        now = timezone.now()
        vacations.vacation_start(user=alice, days=2, now=now)
        back = now + datetime.timedelta(days=1)
        vacations.vacation_end(user=alice, now=back)
    finally:
        signals.vacation_changed.disconnect(listen)
    assert heard == [(alice.pk, now), (alice.pk, back)]
