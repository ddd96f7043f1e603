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
import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
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

_ARIA_LABEL = re.compile(r'aria-label="[^"]*"')


def card_label(code: str) -> str:
    """A card's name, as its picture's text alternative ("Jack of hearts").

    English from the engine for now; the one place to switch to the
    translated names (games.words.card_label) once they exist.
    """
    return engine.card_name(code)


def card_picture(code: str) -> SafeString:
    """The site's own card picture (games.presenters.card_html), named by
    card_label: the picture stays the table's, the name is the page's."""
    label = format_html('aria-label="{}"', card_label(code))
    html = _ARIA_LABEL.sub(lambda _: label, card_html(code), count=1)
    return mark_safe(html)  # card_html's markup, the label escaped above


@functools.lru_cache(maxsize=32)
def _pictures(language: str | None) -> dict[str, tuple[SafeString, ...]]:
    """Every card row of the page, rendered once per language."""
    return {row: tuple(card_picture(code) for code in codes) for row, codes in CARD_ROWS.items()}


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
