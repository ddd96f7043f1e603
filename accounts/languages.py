"""The site's languages (settings.LANGUAGES) and the one a person reads."""

from __future__ import annotations

from typing import Any

from django.conf import settings

CODES = tuple(code for code, _ in settings.LANGUAGES)


def supported(code: Any) -> str | None:
    """`code` if the site speaks it, else None."""
    return code if isinstance(code, str) and code in CODES else None


def language_of(user: Any) -> str:
    """The language to write to `user` in (e-mails, pushes, notifications):
    their profile's, else the site's default."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE
