"""The reader's time zone: one home, `User.time_zone` ("" until known).

The browser tells its zone on the first visit (static/js/timezone.js sets the
COOKIE); accounts.middleware.TimeZoneMiddleware keeps it in a signed-in
player's profile if the profile has none, and activates the player's zone
(else the cookie's, else UTC) for each request. Pages rendered outside a
request (table frames, e-mails, pushes) use `override_for(user)`. Quiet hours
(notifications.services) read the same field.

Every name is checked against zoneinfo's list: a forged cookie or post is
ignored, never an error.
"""

from __future__ import annotations

import datetime
import zoneinfo
from contextlib import AbstractContextManager
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from django.utils import timezone

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

COOKIE = "tz"
COOKIE_MAX_AGE = 365 * 24 * 3600

# Babel has no Haitian Creole (CLDR lacks it): Haiti's other official
# language names the places instead.
BABEL_LOCALES = {"en": "en", "el": "el", "ar": "ar", "ru": "ru", "th": "th", "ht": "fr"}


@cache
def available() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid(name: object) -> str | None:
    """The zone's name if zoneinfo knows it, else None (never raises)."""
    if not isinstance(name, str) or not name or len(name) > 64 or name not in available():
        return None
    return name


def zone_named(name: object) -> zoneinfo.ZoneInfo | None:
    checked = valid(name)
    return zoneinfo.ZoneInfo(checked) if checked else None


def zone_of(user: AbstractBaseUser | AnonymousUser | None) -> zoneinfo.ZoneInfo | None:
    """A player's own zone, or None if unknown (nobody, or never told)."""
    return zone_named(getattr(user, "time_zone", ""))


def override_for(user: AbstractBaseUser | AnonymousUser | None) -> AbstractContextManager[None]:
    """Times rendered for `user` outside a request: in their zone, else the
    one already active (a request's), else UTC."""
    zone = zone_of(user)
    return timezone.override(zone if zone is not None else timezone.get_current_timezone())


def utc_offset(name: str, now: datetime.datetime | None = None) -> str:
    """'UTC+02:00', 'UTC-03:30', 'UTC' — the zone's offset now."""
    moment = (now or timezone.now()).astimezone(zoneinfo.ZoneInfo(name))
    delta = moment.utcoffset() or datetime.timedelta(0)
    minutes = int(delta.total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{mins:02d}"


@lru_cache(maxsize=8)
def _menu(language: str, hour: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """(country, ((zone, "City (UTC+02:00)"), ...)) in `language`, countries
    and cities in that language's order. `hour` keys the cache: offsets change
    with summer time."""
    locale = Locale.parse(BABEL_LOCALES.get(language, "en"))
    territories = get_global("zone_territories")
    now = timezone.now()
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(available()):
        territory = territories.get(name)
        if territory is None or territory == "001" or territory == "ZZ":
            continue  # links (US/Eastern), Etc/GMT+5 and the like: UTC stands for them
        country = locale.territories.get(territory, territory)
        city = get_timezone_location(name, locale=locale, return_city=True)
        groups.setdefault(country, []).append((name, f"{city} ({utc_offset(name, now)})"))
    return tuple(
        (country, tuple(sorted(zones, key=lambda z: z[1])))
        for country, zones in sorted(groups.items())
    )


def menu(language: str, current: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
    """The profile's zone menu, grouped by country, in `language`; UTC first,
    and the player's `current` zone kept even if it is a link (Asia/Calcutta)."""
    hour = timezone.now().strftime("%Y%m%d%H")
    groups = [(country, list(zones)) for country, zones in _menu(language, hour)]
    listed = {zone for _, zones in groups for zone, _ in zones}
    first = [("UTC", "UTC")]
    if valid(current) and current not in listed and current != "UTC":
        first.append((current, f"{current.replace('_', ' ')} ({utc_offset(current)})"))
    return [("", first), *groups]


def choices(
    language: str, current: str = ""
) -> list[tuple[str, str] | tuple[str, list[tuple[str, str]]]]:
    """`menu` as a form field's choices: UTC (and a link zone) ungrouped, then
    one optgroup per country."""
    first, *groups = menu(language, current)
    return [*first[1], *((country, zones) for country, zones in groups)]
