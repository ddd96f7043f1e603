"""The language a page speaks: the signed-in player's own choice (their
profile), else the one chosen on this browser (the language cookie, set by
the language menu), else the browser's Accept-Language, else English."""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

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
