"""The site's languages (settings.LANGUAGES) and the one a person reads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

CODES = tuple(code for code, _ in settings.LANGUAGES)


class SocketScope(TypedDict, total=False):
    """The keys of a channels websocket scope that `socket_language` reads
    (AuthMiddlewareStack and CookieMiddleware add user and cookies)."""

    user: AbstractBaseUser | AnonymousUser
    cookies: dict[str, str]
    headers: Iterable[tuple[bytes, bytes]]


def supported(code: object) -> str | None:
    """`code` if the site speaks it, else None."""
    return code if isinstance(code, str) and code in CODES else None


def language_of(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """The language to write to `user` in (e-mails, pushes, notifications):
    their profile's, else the site's default."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


def socket_language(scope: SocketScope) -> str:
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
