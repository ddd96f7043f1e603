"""The site's languages (settings.LANGUAGES) and the one a person reads."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

CODES = tuple(code for code, _ in settings.LANGUAGES)


def supported(code: Any) -> str | None:
    """`code` if the site speaks it, else None."""
    return code if isinstance(code, str) and code in CODES else None


def language_of(user: Any) -> str:
    """The language to write to `user` in (e-mails, pushes, notifications):
    their profile's, else the site's default."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


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
