"""The rules page (/rules/): how three-handed Euchre is played on this site,
taught to someone who has never played. docs/rules.md stays the binding
reference; the page's text is in templates/rules.html (translatable), and
this module supplies what the text shows: the card pictures and the numbers
that have their one home in the engine.

Open to everyone (newcomers read it before signing up), GET/HEAD only. The
page carries the visitor's name, language menu and CSRF token, so browsers
may keep it for a while but shared caches may not.
"""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games import engine
from games.presenters import card_html

# The example rows of "How the cards rank", highest card first: hearts trump
# in the 24-card deck, then two suits that are not trump under hearts.
CARD_ROWS: dict[str, tuple[str, ...]] = {
    "trump": ("JH", "JD", "AH", "KH", "QH", "TH", "9H"),
    "plain": ("AS", "KS", "QS", "JS", "TS", "9S"),
    "partner": ("AD", "KD", "QD", "TD", "9D"),
    "joker": ("JK",),
}
EXAMPLE_TRUMP = "H"


@functools.lru_cache(maxsize=32)
def _pictures(language: str | None) -> dict[str, tuple[SafeString, ...]]:
    """Every card row of the page, rendered once per language."""
    return {
        row: tuple(mark_safe(card_html(code)) for code in codes) for row, codes in CARD_ROWS.items()
    }


@require_safe
@cache_control(private=True, max_age=600)
def rules_page(request: HttpRequest) -> HttpResponse:
    """How to play, section by section (anchors listed in its contents)."""
    context = {
        "cards": _pictures(get_language()),
        "target_min": engine.TARGET_MIN,
        "target_max": engine.TARGET_MAX,
        "target_default": engine.TARGET_DEFAULT,
    }
    return render(request, "rules.html", context)
