"""The admin site with a rate-limited log-in.

``euchre_site.admin_apps.EuchreAdminConfig`` replaces ``django.contrib.admin``
in INSTALLED_APPS, so
``admin.site`` (and ``admin.site.urls``, ``@admin.register``) is a
``RateLimitedAdminSite``. Its log-in answers 429 to a POST once
``settings.ADMIN_LOGIN_RATE`` (django-ratelimit syntax, e.g. ``10/15m``) is
used up, counted both per client address (REMOTE_ADDR, which
euchre_site.client_ip sets) and per user name, before the password is checked.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin import AdminSite
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from django_ratelimit.core import is_ratelimited

TOO_MANY_LOGINS = (
    "Too many log-in attempts from this address or for this user name. "
    "Wait a few minutes and try again."
)


def rate_period(rate: str) -> int:
    """Seconds of a django-ratelimit rate's window: ``10/15m`` -> 900."""
    period = rate.partition("/")[2].strip() or "s"
    unit = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[-1].lower()]
    return int(period[:-1] or 1) * unit


def _username(group: str, request: HttpRequest) -> str:
    return str(request.POST.get("username", "")).strip().lower()


class RateLimitedAdminSite(AdminSite):
    @method_decorator(never_cache)
    @login_not_required
    # extra_context: AdminSite.login's own (a template context).
    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "POST":
            rate = settings.ADMIN_LOGIN_RATE
            # Both counters advance on every attempt, whichever stops it.
            by_ip = is_ratelimited(
                request, group="admin-login-ip", key="ip", rate=rate, increment=True
            )
            by_name = is_ratelimited(
                request, group="admin-login-user", key=_username, rate=rate, increment=True
            )
            if by_ip or by_name:
                response = HttpResponse(
                    "<!doctype html><title>Too many log-in attempts</title>"
                    f"<h1>Too many log-in attempts</h1><p>{TOO_MANY_LOGINS}</p>",
                    status=429,
                )
                response["Retry-After"] = str(rate_period(rate))
                return response
        return super().login(request, extra_context)
