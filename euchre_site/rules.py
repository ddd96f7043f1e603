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
from typing import TypedDict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from games import engine
from games.presenters import CARD_BACK, card_html

# The example rows of "How the cards rank", highest card first: hearts trump
# in the 24-card deck, then two suits that are not trump under hearts.
CARD_ROWS: dict[str, tuple[str, ...]] = {
    "trump": ("JH", "JD", "AH", "KH", "QH", "TH", "9H"),
    "plain": ("AS", "KS", "QS", "JS", "TS", "9S"),
    "partner": ("AD", "KD", "QD", "TD", "9D"),
    "joker": ("JK",),
}
EXAMPLE_TRUMP = "H"

# The picture of the table at the top of the page (a hand just dealt with the
# 24-card deck): your five cards face up, the up card face up on the kitty's
# other cards, everything else face down. The up card is the one the first
# round's example turns up; the hand holds neither it nor a card twice.
TABLE_PICTURE_HAND = ("JD", "AH", "QH", "KS", "9C")
TABLE_PICTURE_UP_CARD = "TH"


@functools.lru_cache(maxsize=32)
def _pictures(language: str | None) -> dict[str, tuple[SafeString, ...]]:
    """Every card row of the page, rendered once per language."""
    return {
        row: tuple(mark_safe(card_html(code)) for code in codes) for row, codes in CARD_ROWS.items()
    }


class TablePicture(TypedDict):
    """The cards of the table's picture (home.html and rules.html)."""

    hand: tuple[SafeString, ...]
    up_card: SafeString
    backs: tuple[SafeString, ...]
    kitty_below: tuple[SafeString, ...]
    kitty_size: int


@functools.lru_cache(maxsize=32)
def table_picture(language: str | None) -> TablePicture:
    """The cards of the table's picture, rendered once per language: the
    kitty holds the engine's count for the default deck, its top card up."""
    kitty_size = engine.Rules().kitty_size
    return {
        "hand": tuple(mark_safe(card_html(code)) for code in TABLE_PICTURE_HAND),
        "up_card": mark_safe(card_html(TABLE_PICTURE_UP_CARD)),
        "backs": (CARD_BACK,) * len(TABLE_PICTURE_HAND),
        "kitty_below": (CARD_BACK,) * (kitty_size - 1),
        "kitty_size": kitty_size,
    }


@require_safe
@cache_control(private=True, max_age=600)
def rules_page(request: HttpRequest) -> HttpResponse:
    """How to play, section by section (anchors listed in its contents)."""
    context = {
        "cards": _pictures(get_language()),
        "table_picture": table_picture(get_language()),
        "target_min": engine.TARGET_MIN,
        "target_max": engine.TARGET_MAX,
        "target_default": engine.TARGET_DEFAULT,
    }
    return render(request, "rules.html", context)
