"""The language a page speaks: the signed-in player's own choice (their
profile), else the one chosen on this browser (the language cookie, set by
the language menu), else the browser's Accept-Language, else English.

The time zone its times are in: the player's own, else the browser's (the tz
cookie), else UTC (TimeZoneMiddleware).

And, in production settings, only the port of SITE_URL in the Host header."""

from __future__ import annotations

import zoneinfo
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.request import split_domain_port
from django.middleware.locale import LocaleMiddleware
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.deprecation import MiddlewareMixin

from . import timezones
from .languages import supported


class PlayerLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        chosen = supported(getattr(user, "language", "")) if user is not None else None
        if user is not None and user.is_authenticated and chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
            return
        super().process_request(request)


DEFAULT_PORTS = {"http": 80, "https": 443}


def site_port() -> int:
    site = urlsplit(settings.SITE_URL)
    return site.port or DEFAULT_PORTS.get(site.scheme, 80)


class SitePortMiddleware(MiddlewareMixin):
    """In production settings (SITE_PORT_CHECK) a request whose Host header
    names another port than SITE_URL's is refused with a 400, as a Host that
    ALLOWED_HOSTS does not list is. A Host without a port means SITE_URL's
    scheme's default port (a proxy in front on 443 or 80)."""

    def process_request(self, request: HttpRequest) -> None:
        if not settings.SITE_PORT_CHECK:
            return
        _, port = split_domain_port(request.get_host())
        scheme = urlsplit(settings.SITE_URL).scheme
        asked = int(port) if port.isdigit() else DEFAULT_PORTS.get(scheme, 80)
        if asked != site_port():
            raise DisallowedHost(f"Invalid HTTP_HOST header: port {port} is not SITE_URL's.")


class PendingEmailMiddleware(MiddlewareMixin):
    """Under ACCOUNT_CHANGE_EMAIL a new address becomes the account's only
    once verified, and allauth's e-mail page offers no "make primary"; its
    view still takes that POST, which let a player with no verified address
    make a pending, unverified one theirs at once. It is ignored here."""

    def process_view(
        self, request: HttpRequest, view_func: object, view_args: object, view_kwargs: object
    ) -> HttpResponse | None:
        match = request.resolver_match
        if (
            request.method == "POST"
            and match is not None
            and match.url_name == "account_email"
            and "action_primary" in request.POST
        ):
            return HttpResponseRedirect(reverse("account_email"))
        return None


class TimeZoneMiddleware(MiddlewareMixin):
    """The zone a page's times are shown in: the signed-in player's own
    (their profile), else the one this browser told (the tz cookie that
    static/js/timezone.js sets), else UTC. A player whose profile has no zone
    yet gets the cookie's, once: the first visit's zone is kept."""

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        told = timezones.valid(request.COOKIES.get(timezones.COOKIE))
        name = ""
        if user is not None and user.is_authenticated:
            name = timezones.valid(getattr(user, "time_zone", "")) or ""
            if not name and told:
                user.time_zone = told  # type: ignore[union-attr]
                user.save(update_fields=["time_zone"])
                name = told
        name = name or told or ""
        if name:
            timezone.activate(zoneinfo.ZoneInfo(name))
        else:
            timezone.deactivate()
        request.time_zone = name  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        timezone.deactivate()  # a thread serving the next request starts from UTC
        return response
