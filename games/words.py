"""The game's vocabulary in the reader's language: the one home of every
Euchre word the site shows (suits, ranks, card names, the calls, seats,
results, bot names).

The engine speaks card notation ("JH", "H", "order") and English for the
command line; everything a person reads on the site is said through here, in
the language active when the text is built (the request's, or the one a
push is rendered in). The module-level names are lazy: they are translated
when they are turned into text, not when this module is imported.

Translators: every term has a comment explaining it. Use the words Euchre
(or, failing that, other trick-taking card game) players use in your language.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games import engine

SUIT_CODES = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

# The suits' names on their own: "Trump: hearts", "Name hearts", "You must follow hearts".
SUITS: dict[str, Promise] = {
    # Translators: a card suit (♣), named on its own or as the object of a sentence ("Trump: clubs", "Name clubs", "You must follow clubs"). Lower case unless your language capitalises suits.
    "C": pgettext_lazy("suit", "clubs"),
    # Translators: a card suit (♦), named on its own or as the object of a sentence ("Trump: diamonds", "Name diamonds"). Lower case unless your language capitalises suits.
    "D": pgettext_lazy("suit", "diamonds"),
    # Translators: a card suit (♥), named on its own or as the object of a sentence ("Trump: hearts", "Name hearts"). Lower case unless your language capitalises suits.
    "H": pgettext_lazy("suit", "hearts"),
    # Translators: a card suit (♠), named on its own or as the object of a sentence ("Trump: spades", "Name spades"). Lower case unless your language capitalises suits.
    "S": pgettext_lazy("suit", "spades"),
}

# The suits as a card's name says them: "Jack of hearts" (see card_label).
SUITS_OF_CARD: dict[str, Promise] = {
    # Translators: the suit ♣ as it appears in a card's name, "%(rank)s of %(suit)s" ("Jack of clubs"). Use the form your language needs there.
    "C": pgettext_lazy("suit in a card's name", "clubs"),
    # Translators: the suit ♦ as it appears in a card's name, "%(rank)s of %(suit)s" ("Jack of diamonds"). Use the form your language needs there.
    "D": pgettext_lazy("suit in a card's name", "diamonds"),
    # Translators: the suit ♥ as it appears in a card's name, "%(rank)s of %(suit)s" ("Jack of hearts"). Use the form your language needs there.
    "H": pgettext_lazy("suit in a card's name", "hearts"),
    # Translators: the suit ♠ as it appears in a card's name, "%(rank)s of %(suit)s" ("Jack of spades"). Use the form your language needs there.
    "S": pgettext_lazy("suit in a card's name", "spades"),
}

# One card of a suit, in sentences: "a heart", "no club".
SUITS_SINGULAR: dict[str, Promise] = {
    # Translators: one card of the suit ♣, as in "play a club". Lower case unless your language capitalises suits.
    "C": pgettext_lazy("one card of the suit", "club"),
    # Translators: one card of the suit ♦, as in "play a diamond".
    "D": pgettext_lazy("one card of the suit", "diamond"),
    # Translators: one card of the suit ♥, as in "play a heart".
    "H": pgettext_lazy("one card of the suit", "heart"),
    # Translators: one card of the suit ♠, as in "play a spade".
    "S": pgettext_lazy("one card of the suit", "spade"),
}

RANK_CODES = "789TJQKA"

# The ranks in a card's full name ("Jack of hearts"). Numbers stay numbers.
RANKS: dict[str, str | Promise] = {
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    # Translators: the card rank Jack (also called knave), as in "Jack of hearts". In Euchre the Jacks of the trump suit and its partner suit are the bowers, the highest trumps.
    "J": pgettext_lazy("card rank", "Jack"),
    # Translators: the card rank Queen, as in "Queen of hearts".
    "Q": pgettext_lazy("card rank", "Queen"),
    # Translators: the card rank King, as in "King of hearts".
    "K": pgettext_lazy("card rank", "King"),
    # Translators: the card rank Ace, as in "Ace of hearts".
    "A": pgettext_lazy("card rank", "Ace"),
}

# The index printed in a card's corner (one or two characters).
RANK_CORNERS: dict[str, str | Promise] = {
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    # Translators: the letter printed in the corner of a Jack on the card's face (one character, as on the cards sold in your country).
    "J": pgettext_lazy("card corner", "J"),
    # Translators: the letter printed in the corner of a Queen on the card's face (one character).
    "Q": pgettext_lazy("card corner", "Q"),
    # Translators: the letter printed in the corner of a King on the card's face (one character).
    "K": pgettext_lazy("card corner", "K"),
    # Translators: the letter printed in the corner of an Ace on the card's face (one character).
    "A": pgettext_lazy("card corner", "A"),
}


def suit_name(code: str) -> str:
    """A suit's name on its own ("hearts"), from its code ("H")."""
    return _suit_name(code, get_language())


@functools.lru_cache(maxsize=64)
def _suit_name(code: str, language: str | None) -> str:
    """Once per suit and language (a table names the suits of every hand of
    its score pad, its calls and its trump to every viewer after every move)."""
    return str(SUITS[code])


def suit_singular(code: str) -> str:
    """One card of the suit ("heart"), for sentences like "play a heart"."""
    return str(SUITS_SINGULAR[code])


def rank_name(code: str) -> str:
    """A rank's name ("Jack", "10"), from its code ("J", "T")."""
    return str(RANKS[code])


def rank_corner(code: str) -> str:
    """The index in a card's corner ("J", "10")."""
    return str(RANK_CORNERS[code])


def card_label(code: str) -> str:
    """A card's name from its notation: "Jack of hearts", "10 of clubs", "Joker"."""
    return _card_label(code, get_language())


@functools.lru_cache(maxsize=512)
def _card_label(code: str, language: str | None) -> str:
    """Worded once per card and language (a table names dozens of cards to
    every viewer after every move)."""
    if code == "JK":
        # Translators: the Joker, the extra card of the 25-card deck (in Euchre the highest trump). A card's name, as read out for the card's picture.
        return pgettext("card", "Joker")
    # Translators: a card's name: %(rank)s is its rank ("Jack", "10"), %(suit)s its suit ("hearts"), as in "Jack of hearts".
    return pgettext("card", "%(rank)s of %(suit)s") % {
        "rank": RANKS[code[0]],
        "suit": SUITS_OF_CARD[code[1]],
    }


# --------------------------------------------------------------------------- terms

# The game's terms as the table labels them. The templates say the same
# words with the same context ({% translate "Dealer" context "table role" %}),
# so each is one entry of the catalog, explained here.
TERMS: dict[str, Promise] = {
    # Translators: a label: the suit that beats all others in this hand (chosen in the bidding), as in "Trump: hearts".
    "trump": pgettext_lazy("game term", "Trump"),
    # Translators: a label: the dummy, a fourth hand of five cards dealt face down that the maker may take (then keeps five of the ten cards).
    "dummy": pgettext_lazy("game term", "Dummy"),
    # Translators: a label: the kitty, the cards left over after the deal (the up card is its top card); nobody plays them.
    "kitty": pgettext_lazy("game term", "Kitty"),
    # Translators: a label: the up card, the card turned face up after the deal; its suit is offered as trump in the first round.
    "up_card": pgettext_lazy("game term", "Up card"),
    # Translators: a label: the cards a player put face down in exchange (the dealer after picking up the up card, the maker after taking the dummy).
    "discards": pgettext_lazy("game term", "Discards"),
    # Translators: a tag by a player's name: the player who dealt this hand.
    "dealer": pgettext_lazy("table role", "Dealer"),
    # Translators: a tag by a player's name: the maker, the player who chose trump for this hand and plays against the other two.
    "maker": pgettext_lazy("table role", "Maker"),
    # Translators: a tag by a player's name: this player plays the hand alone (the maker without the dummy, or a lone defender).
    "alone": pgettext_lazy("table role", "Alone"),
    # Translators: a tag by a player's name: this defender sits this hand out because the other defender plays alone.
    "sits_out": pgettext_lazy("table role", "Sits out"),
    # Translators: a tag by a player's name: it is this player's turn.
    "to_act": pgettext_lazy("table role", "To act"),
}

# --------------------------------------------------------------------------- bidding

# The three first-round calls: each seat takes the up card's suit as trump by its own name.
CALLS: dict[str, Promise] = {
    # Translators: Euchre's first-round call of the player on the dealer's left: "the up card's suit is trump and I am the maker". A button label. Use the call Euchre players use in your language.
    "order": pgettext_lazy("first-round call", "Order it up"),
    # Translators: Euchre's first-round call of the second player after the dealer: "the up card's suit is trump and I am the maker". A button label. Use the call Euchre players use in your language.
    "assist": pgettext_lazy("first-round call", "Assist"),
    # Translators: Euchre's first-round call of the dealer: "the up card's suit is trump and I am the maker". A button label. Use the call Euchre players use in your language.
    "accept": pgettext_lazy("first-round call", "Accept"),
}

# The same calls in sentences about the player who made them ("Anna ordered it up.").
CALLED: dict[str, Promise] = {
    # Translators: the first-round call "Order it up" in the past, said of the player who made it ("Anna ordered it up").
    "order": pgettext_lazy("first-round call, made", "ordered it up"),
    # Translators: the first-round call "Assist" in the past, said of the player who made it ("Anna assisted").
    "assist": pgettext_lazy("first-round call, made", "assisted"),
    # Translators: the first-round call "Accept" in the past, said of the dealer who made it ("Ben accepted").
    "accept": pgettext_lazy("first-round call, made", "accepted"),
}


def call_label(call: str) -> str:
    """The call as a button says it: "Order it up". `call` is the engine's
    code of the seat's call (engine.call_code, a view's `call`)."""
    return str(CALLS[call])


def called(call: str) -> str:
    """The call as a sentence says it was made: "ordered it up"."""
    return str(CALLED[call])


# Translators: the button for declining to make trump in the bidding (a defender declining to defend alone has its own button, "Don't defend alone"). Use the word card players say at the table.
PASS = pgettext_lazy("bidding", "Pass")
# Translators: a button: the maker plays the hand alone, without taking the dummy (a fourth hand dealt face down that the maker may take).
GO_ALONE = pgettext_lazy("maker's choice", "Go alone")
# Translators: a button: after the maker's choice (the dummy or alone, either way), a defender may play alone against the maker (the other defender sits the hand out); it scores more only if the defenders take all five tricks (4 points each instead of 2).
DEFEND_ALONE = pgettext_lazy("defender's choice", "Defend alone")
# Translators: a button: a defender declines to defend alone and plays the hand with the other defender.
DONT_DEFEND_ALONE = pgettext_lazy("defender's choice", "Don't defend alone")
# Translators: a button: the maker takes the dummy (a fourth hand of five cards dealt face down that the maker may take), then keeps the best five of the ten cards.
USE_THE_DUMMY = pgettext_lazy("maker's choice", "Use the dummy")
# Translators: a button: the dealer leaves the up card (the card turned face up after the deal) on the table instead of picking it up.
LEAVE_THE_UP_CARD = pgettext_lazy("dealer's choice", "Leave the up card")


def button_label(
    action: Mapping[str, Any], phase: str | None, dealer: int, up_suit: str | None
) -> str:
    """The label of the table's button for a non-card `action` (a legal
    action of `phase`, the hand's dealer `dealer`, the up card's suit
    `up_suit`): the one wording of each button, shared by the table
    (games.presenters) and the hints, so a hint names the move as its
    button does. "" for a card or the keep-five (no button of this kind)."""
    kind = action["type"]
    if kind == "pass":
        return str(DONT_DEFEND_ALONE if phase == "defender_alone" else PASS)
    if kind == "order":
        # Translators: a button of the first round of bidding: %(call)s is the seat's call ("Order it up", "Assist" or "Accept"), %(suit)s the up card's suit ("hearts"), which becomes trump.
        return pgettext("bidding button", "%(call)s (%(suit)s trump)") % {
            "call": call_label(engine.call_code(dealer, action["seat"])),
            "suit": suit_name(up_suit) if up_suit else "",
        }
    if kind == "name":
        # Translators: a button of the second round of bidding: make this suit trump. %(suit)s is a suit ("hearts"), %(symbol)s its sign (♥).
        return pgettext("bidding button", "Name %(suit)s %(symbol)s") % {
            "suit": suit_name(action["suit"]),
            "symbol": SUIT_SYMBOLS[action["suit"]],
        }
    if kind == "joker_suit":
        # Translators: a button of the dealer when the Joker was turned up: it stands for this suit in the first round. %(suit)s is a suit ("hearts").
        return pgettext("bidding button", "The Joker stands for %(suit)s") % {
            "suit": suit_name(action["suit"])
        }
    if kind == "leave":
        return str(LEAVE_THE_UP_CARD)
    if kind == "dummy" and "keep" not in action:
        return str(USE_THE_DUMMY)
    if kind == "alone":
        return str(DEFEND_ALONE if phase == "defender_alone" else GO_ALONE)
    return ""


# --------------------------------------------------------------------------- results

# Translators: said of a maker who took fewer than three tricks: the defenders score. Use the Euchre word ("euchred") of your language.
EUCHRED = pgettext_lazy("hand result", "euchred")
# Translators: said of a maker who took all five tricks (a "march"), which scores more. Use the Euchre word of your language.
MARCH = pgettext_lazy("hand result", "march")


def hand_outcome(outcome: str | None) -> str:
    """The maker's result in a word when it has one, from the engine's
    outcome (engine.Outcome, a view's `outcome["outcome"]`): "march" (all
    five tricks), "euchred" (fewer than three); "" when made with three or
    four, thrown in, or not over."""
    if outcome == engine.Outcome.MARCH:
        return str(MARCH)
    return str(EUCHRED) if outcome == engine.Outcome.EUCHRED else ""


# --------------------------------------------------------------------------- seats and bots

BOT_LEVEL_CODES = ("easy", "medium", "hard", "expert")

# The bots' levels as their names say them ("Easy bot 1").
BOT_LEVELS: dict[str, Promise] = {
    # Translators: a bot's level as part of its name, "%(level)s bot %(n)s" ("Easy bot 1"). A computer player that plays simply.
    "easy": pgettext_lazy("bot level", "Easy"),
    # Translators: a bot's level as part of its name, "%(level)s bot %(n)s" ("Medium bot 2"). A computer player that plays fairly well.
    "medium": pgettext_lazy("bot level", "Medium"),
    # Translators: a bot's level as part of its name, "%(level)s bot %(n)s" ("Hard bot 3"). A computer player that plays as well as it can.
    "hard": pgettext_lazy("bot level", "Hard"),
    # Translators: a bot's level as part of its name, "%(level)s bot %(n)s" ("Expert bot 3"). The strongest computer player: it thinks longer than the hard one.
    "expert": pgettext_lazy("bot level", "Expert"),
}

# The bots as a menu offers them ("Easy bot").
BOT_CHOICES: dict[str, Promise] = {
    # Translators: a menu choice: a computer player that plays simply.
    "easy": pgettext_lazy("bot choice", "Easy bot"),
    # Translators: a menu choice: a computer player that plays fairly well.
    "medium": pgettext_lazy("bot choice", "Medium bot"),
    # Translators: a menu choice: a computer player that plays as well as it can.
    "hard": pgettext_lazy("bot choice", "Hard bot"),
    # Translators: a menu choice: the strongest computer player; it thinks longer (up to two seconds a move).
    "expert": pgettext_lazy("bot choice", "Expert bot"),
}


def bot_name(level: str, n: int) -> str:
    """A bot's name at the table: "Easy bot 1" (`n` is its seat's number, 1 to 3)."""
    # Translators: a computer player's name at the table: %(level)s is its level ("Easy", "Medium", "Hard"), %(n)s the number of its seat (1 to 3), as in "Easy bot 1".
    return pgettext("bot name", "%(level)s bot %(n)s") % {
        "level": BOT_LEVELS.get(level, level),
        "n": n,
    }


class SeatName(str):
    """A seat's name as the table shows it now ("walker (bot playing)"),
    which also knows whose seat it is (`person`: the user name, None for a
    bot's or an empty seat): a hand's replay names each move's actor as it
    was at that move (stats.replay), not as the seat is now."""

    person: str | None = None

    def __new__(cls, text: str, person: str | None = None) -> SeatName:
        name = super().__new__(cls, text)
        name.person = person
        return name

    def __reduce__(
        self,
    ) -> tuple[type[SeatName], tuple[str, str | None]]:  # cached and pickled with its person
        return (SeatName, (str(self), self.person))


def seat_name(username: str | None, bot_level: str, position: int) -> str:
    """A seat as the table names it: the player's name (with a note while a
    bot plays for them), a bot's name, or "Empty seat"."""
    if username is not None:
        if bot_level:
            # Translators: a player's name while a bot plays their seat for them (they let it, or their time ran out).
            return SeatName(_("%(name)s (bot playing)") % {"name": username}, username)
        return SeatName(username, username)
    if bot_level:
        return bot_name(bot_level, position + 1)
    # Translators: a seat at the table that nobody has taken yet.
    return _("Empty seat")


def person_of(name: str) -> str:
    """The person's own name behind a seat's name (`SeatName.person`), else
    the name as it is (a bot's, an imported game's "Seat 1")."""
    return getattr(name, "person", None) or str(name)


def bots_move_for(name: str) -> str:
    """Who made a move a bot made for a person, `name` being that person's
    name: "walker's bot" (their autopilot, or a stand-in while they were away)."""
    # Translators: who made a move in a hand's replay when a bot played it for the player %(name)s (the player turned on autopilot, was away or ran out of time), as in "walker's bot plays the Jack of diamonds".
    return _("%(name)s's bot") % {"name": name}


def relative_seat(seat: int, viewer: int | None) -> str:
    """Where `seat` sits seen from `viewer`'s seat: "you", "on your left", "on
    your right" (the seats go clockwise: the next seat is on one's left)."""
    if viewer is None:
        return ""
    where = (seat - viewer) % 3
    if where == 0:
        # Translators: the reader's own seat at the table, as in "Dealer: you".
        return pgettext("seat", "you")
    if where == 1:
        # Translators: the seat on the reader's left at the table (the next to play after them).
        return pgettext("seat", "on your left")
    # Translators: the seat on the reader's right at the table (the one who plays before them).
    return pgettext("seat", "on your right")


def winner_name(params: Mapping[str, object]) -> str:
    """The winner of a finished game, from the "game_ended" signal's params
    (games.signals): a bot's name in the active language, else the user name."""
    bot, seat = params.get("winner_bot"), params.get("winner_seat")
    if isinstance(bot, str) and bot in BOT_LEVELS and isinstance(seat, int):
        return bot_name(bot, seat)
    return str(params.get("winner") or "?")


# --------------------------------------------------------------------------- time


def duration(seconds: int) -> str:
    """A time per move: "1 hour", "12 hours", "1 day", "3 days"."""
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    hours = seconds // 3600
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
