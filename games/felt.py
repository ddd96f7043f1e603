"""The table in play, rendered by Jinja2 (templates/games/felt.jinja).

The felt is what every move renders again, for each seat and for the
spectators: some 250 template nodes. Django's template engine took about
1.4 ms for it, a quarter of a bot move's worker time (docs/performance.md);
Jinja2 compiles the same markup to Python, several times faster. Everything
else stays in Django's templates, the table before its game included.

The felt's template holds no words: they are here (`FeltWords`, once per
language), written with gettext so that makemessages finds them as it finds
every other message of the site, with their translators' notes. Its rarer
parts (a by-turns deadline, the hint, the game's end, a daily deal's stop
button) are partials of games/table.html, rendered only when they show.
Values are escaped as Django escapes them (`_escaped`), so the HTML is the
one Django's template made.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape as escape_html
from typing import Any

import jinja2
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _


@dataclass(frozen=True, slots=True)
class FeltWords:
    """The felt's words in one language (`words`)."""

    the_table: str
    your_turn_title: str
    see_the_rule: str
    game_over: str
    your_turn: str
    turned_down: str
    current_trick: str
    wins_the_trick: str
    waiting_for_the_lead: str
    trump: str
    not_the_suit_text: str
    your_hand: str
    keep_five_of_ten: str
    choose_the_discard: str
    your_cards: str
    keep_these_five: str
    player: str
    tricks: str
    points: str
    score: str
    maker: str
    continue_: str
    close: str
    a_bot_plays_your_seat: str
    take_my_seat_back: str
    let_a_bot_play: str
    the_dummy_you_took: str
    your_discards: str

    def not_the_suit(self, suit: str) -> SafeString:
        return mark_safe(self.not_the_suit_text % {"suit": conditional_escape(suit)})


def words() -> FeltWords:
    """The felt's words in the active language."""
    return _words(get_language())


@functools.lru_cache(maxsize=16)
def _words(language: str | None) -> FeltWords:
    return FeltWords(
        the_table=_("The table"),
        your_turn_title=_("Your turn"),
        see_the_rule=_("See the rule"),
        game_over=_("The game is over."),
        your_turn=_("Your turn."),
        # Translators: above the up card (the card turned face up after the deal) once everyone passed on it and it was turned face down; everyone still knows which card it was.
        turned_down=pgettext("the up card", "Turned down"),
        # Translators: the cards played so far in the trick under way (a trick: one card from each player, won by the highest).
        current_trick=_("Current trick"),
        wins_the_trick=pgettext("a card of the trick on the table", "wins the trick"),
        waiting_for_the_lead=_("Waiting for the lead"),
        trump=pgettext("game term", "Trump"),
        # Translators: in the second round of bidding, when the table does not allow naming the turned-down card's suit; %(suit)s is that suit ("hearts").
        not_the_suit_text=_("Not %(suit)s: the turned-down suit may not be named"),
        your_hand=_("Your hand"),
        # Translators: the maker took the dummy (a fourth hand dealt face down) and keeps five of the ten cards; the other five are put face down.
        keep_five_of_ten=_("Keep five of these ten cards (your hand and the dummy):"),
        # Translators: the dealer takes the up card (the card turned face up after the deal) and puts one of their six cards face down.
        choose_the_discard=_("Pick up the up card: choose the card to discard"),
        your_cards=_("Your cards"),
        keep_these_five=_("Keep these five"),
        player=_("Player"),
        # Translators: a column: the tricks each player won in the hand (a trick: one card from each player, won by the highest).
        tricks=_("Tricks"),
        points=_("Points"),
        score=_("Score"),
        maker=pgettext("table role", "Maker"),
        # Translators: a button on a hand's result: close it and go on to the next hand.
        continue_=pgettext("close a hand's result", "Continue"),
        close=_("Close"),
        a_bot_plays_your_seat=_("A bot is playing your seat."),
        take_my_seat_back=_("Take my seat back"),
        let_a_bot_play=_("Let a bot play for me"),
        # Translators: the maker sees the dummy (the fourth hand dealt face down) they took.
        the_dummy_you_took=_("The dummy you took:"),
        # Translators: the cards the reader put face down in exchange (after picking up the up card, or taking the dummy).
        your_discards=_("Your discards:"),
    )


@dataclass(frozen=True, slots=True)
class PlateWords:
    """A seat's plate's words in one language (games/_plate.jinja)."""

    you_text: str
    score: str
    dealer: str
    maker: str
    alone: str
    with_the_dummy: str
    sits_out: str
    to_act: str

    def you(self, name: str) -> SafeString:
        return mark_safe(self.you_text % {"name": conditional_escape(name)})

    @staticmethod
    def cards(n: int) -> str:
        # Translators: under an opponent's name: the cards left in their hand, e.g. "3 cards · 1 trick".
        return ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}

    @staticmethod
    def tricks(n: int) -> str:
        # Translators: under an opponent's name: the tricks they won in this hand (a trick: one card from each player, won by the highest), e.g. "3 cards · 1 trick".
        return ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n}


@functools.lru_cache(maxsize=16)
def _plate_words(language: str | None) -> PlateWords:
    return PlateWords(
        you_text=_("%(name)s (you)"),
        score=_("Score"),
        dealer=pgettext("table role", "Dealer"),
        maker=pgettext("table role", "Maker"),
        alone=pgettext("table role", "Alone"),
        with_the_dummy=pgettext("hand result", "with the dummy"),
        sits_out=pgettext("table role", "Sits out"),
        to_act=pgettext("table role", "To act"),
    )


def _escaped(value: object) -> str:
    """Each value written as Django's templates write it: escaped as Django
    escapes (html.escape: &#x27;, &quot;), but Django's safe strings (cards,
    plates, fragments) and anything else that is HTML already as they are."""
    html = getattr(value, "__html__", None)
    return html() if html is not None else escape_html(str(value))


_environment = jinja2.Environment(
    loader=jinja2.FileSystemLoader(settings.BASE_DIR / "templates"),
    # Escaping is `_escaped`'s, on every value: Jinja2's own (markupsafe)
    # writes &#39; and &#34;, and would escape each value a second time.
    autoescape=False,
    finalize=_escaped,
    auto_reload=settings.DEBUG,
    keep_trailing_newline=True,
)


def render(context: Mapping[str, Any]) -> SafeString:
    """The felt of games/table.html#table's `context` (its `t` set: a game)."""
    t, table = context["t"], context["table"]
    token = context.get("csrf_token")
    values = {
        **context,
        "w": words(),
        "rules_url": rules_url(),
        "csrf_input": format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token
        )
        if token and token != "NOTPROVIDED"
        else "",
        "parts": {
            "deadline": _partial("deadline", context) if t.deadline else "",
            "hint": _partial("hint_spot", context) if table.hints and t.your_turn else "",
            "over": _partial("game_over", context) if t.over else "",
            "daily_stop": render_to_string("daily/_table_stop.html", context)
            if table.daily_date and not t.over and t.you is not None
            else "",
        },
    }
    return mark_safe(_environment.get_template("games/felt.jinja").render(values))


def plate(p: object, card_back: str) -> SafeString:
    """A seat's plate (games.presenters.Plate `p`) in the active language."""
    values = {"p": p, "card_back": card_back, "w": _plate_words(get_language())}
    return mark_safe(_environment.get_template("games/_plate.jinja").render(values))


def _partial(name: str, context: Mapping[str, Any]) -> str:
    return render_to_string(f"games/table.html#{name}", dict(context))


def rules_url() -> str:
    """The rules page's address ("" if the site has none: a test's URLconf)."""
    return _rules_url(get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=16)
def _rules_url(prefix: str, urlconf: str | None) -> str:
    try:
        return reverse("rules")
    except NoReverseMatch:
        return ""
