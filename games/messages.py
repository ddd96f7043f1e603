"""The engine's refusals in the player's language.

The engine (pure Python) raises EngineError with a stable `.code`, its
values in `.params` (cards like "JH", suits like "H", `call` in "order",
"assist", "accept", `type`, `field`, `min`, `max`) and an English `.reason`
for the command line and records. `refusal(exc)` says it to a person, in the
active language, with cards and suits named by games.words; `RULE_ANCHORS`
points each refusal that a rule explains to its section of the rules page
(/rules/#<anchor>).

The codes are the engine's one list, `games.engine.ErrorCode`; each has its
sentence here (tests/i18n/test_messages.py checks every one). Another code
gets the generic refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from euchre_site.refusal import Code, Refusal
from games.engine import Call, EngineError, ErrorCode, IllegalAction, Unplayable

from . import words

# An engine error's params (EngineError.params): read with care, whatever the
# engine sent (a sentence that cannot use them falls back to a generic one).
Params = Mapping[str, object]

# The section of the rules page (/rules/) that explains each refusal a rule causes.
RULE_ANCHORS: dict[ErrorCode, str] = {
    ErrorCode.NOT_HELD: "play",
    ErrorCode.PLAY_A_CARD: "play",
    ErrorCode.MUST_FOLLOW: "following-suit",
    ErrorCode.NOT_IN_DECK: "players-and-deck",
    ErrorCode.JOKER_SUIT_FIRST: "joker",
    ErrorCode.CALL_OR_PASS: "first-round",
    ErrorCode.DISCARD_NOT_HELD: "dealer-pickup",
    ErrorCode.DEALER_MUST_PICK_UP: "dealer-pickup",
    ErrorCode.PICKUP_OR_LEAVE: "dealer-pickup",
    ErrorCode.TURNED_DOWN_SUIT: "second-round",
    ErrorCode.NAME_OR_PASS: "second-round",
    ErrorCode.STICK_THE_DEALER: "stick-the-dealer",
    ErrorCode.CHOOSE_DUMMY_FIRST: "makers-choice",
    ErrorCode.DUMMY_OR_ALONE: "makers-choice",
    ErrorCode.CHOOSE_KEEP: "makers-choice",
    ErrorCode.KEEP_FIVE: "makers-choice",
    ErrorCode.KEEP_FIVE_OF_TEN: "makers-choice",
    ErrorCode.DEFEND_OR_PASS: "defending-alone",
    ErrorCode.BAD_TARGET: "winning",
    ErrorCode.BAD_RULES: "table-options",
}


def _card(params: Params) -> str:
    code = params.get("card")
    try:
        return words.card_label(str(code))
    except (KeyError, IndexError):
        return str(code)


def _suit(params: Params) -> str:
    code = params.get("suit")
    return words.suit_name(code) if code in words.SUITS else str(code)


def _call_or_pass(params: Params) -> str:
    call = params.get("call")
    if call == Call.ASSIST:
        # Translators: refusal in the first round of bidding for the second player after the dealer: "Assist" is their call (see the button "Assist").
        return _("Assist or pass.")
    if call == Call.ACCEPT:
        # Translators: refusal in the first round of bidding for the dealer: "Accept" is the dealer's call (see the button "Accept").
        return _("Accept or pass.")
    # Translators: refusal in the first round of bidding for the player on the dealer's left: "Order it up" is their call (see the button "Order it up").
    return _("Order it up or pass.")


def _missing_card(params: Params) -> str:
    if params.get("field") == "discard":
        # Translators: refusal: the dealer picked up the up card without choosing a card to put face down.
        return _("Choose the card to discard.")
    # Translators: refusal: a play that names no card.
    return _("Choose the card to play.")


def _bad_target(params: Params) -> str:
    low, high = params.get("min", 0), params.get("max", 0)
    return ngettext(
        # Translators: refusal: the target is the score that wins the game (a whole number of points).
        "The target must be between %(min)s and %(max)s point.",
        "The target must be between %(min)s and %(max)s points.",
        cast(int, high),  # the engine's int (anything else: TypeError, the generic sentence)
    ) % {"min": low, "max": high}


def _sentence(code: str, p: Params) -> str | None:
    """The refusal `code` with its params `p` in the active language; None
    for a code this module does not know."""
    match code:
        case ErrorCode.NOT_HELD:
            # Translators: refusal: %(card)s is a card's name ("Jack of hearts").
            return _("You do not hold the %(card)s.") % {"card": _card(p)}
        case ErrorCode.MUST_FOLLOW:
            # Translators: refusal: following suit means playing a card of the suit that was led; %(suit)s is a suit ("hearts").
            return _("You must follow %(suit)s.") % {"suit": _suit(p)}
        case ErrorCode.NOT_IN_DECK:
            # Translators: refusal: %(card)s is a card's name ("7 of hearts") that the table's deck does not have.
            return _("The %(card)s is not in this deck.") % {"card": _card(p)}
        case ErrorCode.NOT_A_CARD:
            # Translators: refusal: a move named something that is not a card.
            return _("That is not a card.")
        case ErrorCode.PLAY_A_CARD:
            # Translators: refusal: during the play of the tricks the only move is to play a card.
            return _("Play a card.")
        case ErrorCode.HAND_OVER:
            return _("The hand is over.")
        case ErrorCode.BAD_SEAT:
            # Translators: refusal: a move or record names a seat the table does not have.
            return _("There is no such seat.")
        case ErrorCode.NOT_YOUR_TURN:
            return _("It is not your turn.")
        case ErrorCode.UNKNOWN_TYPE:
            # Translators: refusal: %(type)s is the name of a kind of move the site does not know.
            return _("There is no move called '%(type)s'.") % {"type": p.get("type")}
        case ErrorCode.UNKNOWN_FIELD:
            # Translators: refusal: a move sent with a field it does not have; %(type)s and %(field)s are technical names, leave them as they are.
            return _("The move '%(type)s' has no field '%(field)s'.") % {
                "type": p.get("type"),
                "field": p.get("field"),
            }
        case ErrorCode.JOKER_SUIT_FIRST:
            # Translators: refusal: the Joker was turned up as the up card, and the dealer must first say which suit it stands for.
            return _("The dealer must first name a suit for the Joker.")
        case ErrorCode.CALL_OR_PASS:
            return _call_or_pass(p)
        case ErrorCode.DISCARD_NOT_HELD:
            # Translators: refusal: the dealer who picked up the up card chose a card to put face down that is not among their six cards; %(card)s is a card's name.
            return _("You cannot discard the %(card)s: it is not in your hand.") % {
                "card": _card(p)
            }
        case ErrorCode.DEALER_MUST_PICK_UP:
            # Translators: refusal: the dealer made trump by accepting the up card, so they must pick it up.
            return _("The dealer who accepted must pick up the up card.")
        case ErrorCode.PICKUP_OR_LEAVE:
            # Translators: refusal: the up card is the card turned face up after the deal; the dealer takes it (putting one card face down) or leaves it.
            return _("Pick up the up card or leave it.")
        case ErrorCode.STICK_THE_DEALER:
            # Translators: refusal: "Stick the dealer" is a table option: when everyone passed twice, the dealer must choose trump.
            return _("Stick the dealer: the dealer must name a suit.")
        case ErrorCode.TURNED_DOWN_SUIT:
            # Translators: refusal in the second round of bidding: the suit of the up card that everyone passed on may not be named; %(suit)s is a suit ("hearts").
            return _("You may not name %(suit)s, the turned-down suit.") % {"suit": _suit(p)}
        case ErrorCode.NAME_OR_PASS:
            # Translators: refusal in the second round of bidding: name a suit as trump, or pass.
            return _("Name a suit or pass.")
        case ErrorCode.CHOOSE_DUMMY_FIRST:
            return _(
                # Translators: refusal: the maker must choose between taking the dummy (a fourth hand dealt face down) and playing alone before seeing the dummy.
                "First choose between using the dummy and going alone; the dummy's cards "
                "are shown once you choose to use it."
            )
        case ErrorCode.DUMMY_OR_ALONE:
            # Translators: refusal: the maker chooses between taking the dummy (a fourth hand dealt face down) and playing alone.
            return _("Use the dummy or go alone.")
        case ErrorCode.CHOOSE_KEEP:
            # Translators: refusal: the maker who took the dummy keeps five of their ten cards.
            return _("Choose the five cards to keep.")
        case ErrorCode.KEEP_FIVE:
            return _("Keep exactly five cards (you chose %(n)s).") % {"n": p.get("n", 0)}
        case ErrorCode.KEEP_FIVE_OF_TEN:
            # Translators: refusal: the maker who took the dummy keeps five of the ten cards (their hand and the dummy).
            return _("Keep five of the ten cards: your hand and the dummy.")
        case ErrorCode.DEFEND_OR_PASS:
            # Translators: refusal: after the maker's choice (the dummy or alone), a defender may defend alone or pass.
            return _("Defend alone or pass.")
        case ErrorCode.NAME_A_SUIT:
            # Translators: refusal: a move that makes a suit trump (or says what the Joker stands for) names no suit.
            return _("Name a suit.")
        case ErrorCode.NOT_A_SUIT:
            # Translators: refusal: a move named something that is not a suit (clubs, diamonds, hearts, spades).
            return _("That is not a suit.")
        case ErrorCode.MISSING_CARD:
            return _missing_card(p)
        case ErrorCode.NOT_A_MOVE:
            return _("That is not a move.")
        case ErrorCode.BAD_TARGET:
            return _bad_target(p)
        case ErrorCode.BAD_RULES:
            # Translators: refusal: the options chosen for a new table (deck, stick the dealer...) are not ones the site offers.
            return _("Those table options are not valid.")
        case ErrorCode.GAME_OVER:
            return _("The game is over.")
        case ErrorCode.HAND_IN_PROGRESS:
            # Translators: refusal: a new hand cannot be dealt while one is being played.
            return _("A hand is still in progress.")
        case ErrorCode.NO_HAND:
            # Translators: refusal: there is no hand being played to make a move in.
            return _("No hand is in progress.")
        case ErrorCode.BAD_RECORD | ErrorCode.BAD_HAND_LIMIT | ErrorCode.BAD_DEAL:
            # Translators: refusal: a game record (a file of the game's moves) that does not replay by the rules.
            return _("That game record does not follow the rules.")
        case ErrorCode.INVALID:
            return _generic()
    return None


def _generic() -> str:
    # Translators: refusal: the generic answer to a move the rules do not allow now.
    return _("That move is not allowed now.")


def refusal(exc: EngineError) -> str:
    """What the player reads when the engine refuses: the sentence for
    `exc.code` in the active language, or a generic one for a code it does
    not know (the English `.reason` is for the command line and records)."""
    try:
        said = _sentence(str(getattr(exc, "code", "")), dict(getattr(exc, "params", None) or {}))
    except (KeyError, TypeError, ValueError):
        said = None
    return said if said is not None else _generic()


def card_refusal(refused: Unplayable) -> str:
    """Why the seat to play may not play a card, from the view's `refused`
    entry (the engine's code and params for that card), in the active language."""
    return refusal(IllegalAction(refused["message"], refused["code"], **refused["params"]))


def rule_anchor(exc: EngineError) -> str | None:
    """The rules page's section that explains the refusal, if one does."""
    return RULE_ANCHORS.get(exc.code)


def refused(exc: EngineError) -> Refusal:
    """The engine's refusal as the one refusal type: the player's sentence,
    Code.MOVE_REFUSED, and the rules page's section that explains it."""
    return Refusal(refusal(exc), code=Code.MOVE_REFUSED, rule=rule_anchor(exc))
