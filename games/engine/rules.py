"""Table options (docs/rules.md) and the engine's errors."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from .game import GameFault
    from .records import HandFault


class ErrorCode(StrEnum):
    """Every refusal the engine makes, named stably: `EngineError.code`.

    The one list of them: the site says each in the player's language
    (games.messages, whose test checks that every code has its sentence);
    records and the command line show the English `.reason` instead.
    """

    # A play of a card
    NOT_HELD = "not_held"
    MUST_FOLLOW = "must_follow"
    NOT_IN_DECK = "not_in_deck"
    NOT_A_CARD = "not_a_card"
    PLAY_A_CARD = "play_a_card"
    # Any action
    HAND_OVER = "hand_over"
    BAD_SEAT = "bad_seat"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_TYPE = "unknown_type"
    UNKNOWN_FIELD = "unknown_field"
    NOT_A_MOVE = "not_a_move"
    MISSING_CARD = "missing_card"
    NAME_A_SUIT = "name_a_suit"
    NOT_A_SUIT = "not_a_suit"
    # Each phase's decision
    JOKER_SUIT_FIRST = "joker_suit_first"
    CALL_OR_PASS = "call_or_pass"
    DISCARD_NOT_HELD = "discard_not_held"
    DEALER_MUST_PICK_UP = "dealer_must_pick_up"
    PICKUP_OR_LEAVE = "pickup_or_leave"
    STICK_THE_DEALER = "stick_the_dealer"
    TURNED_DOWN_SUIT = "turned_down_suit"
    NAME_OR_PASS = "name_or_pass"
    CHOOSE_DUMMY_FIRST = "choose_dummy_first"
    DUMMY_OR_ALONE = "dummy_or_alone"
    CHOOSE_KEEP = "choose_keep"
    KEEP_FIVE = "keep_five"
    KEEP_FIVE_OF_TEN = "keep_five_of_ten"
    DEFEND_OR_PASS = "defend_or_pass"
    # Options, games and records
    BAD_TARGET = "bad_target"
    BAD_RULES = "bad_rules"
    BAD_HAND_LIMIT = "bad_hand_limit"
    BAD_DEAL = "bad_deal"  # a sampled deal that is not one deck dealt once (engine.sampled)
    GAME_OVER = "game_over"
    HAND_IN_PROGRESS = "hand_in_progress"
    NO_HAND = "no_hand"
    BAD_RECORD = "bad_record"
    INVALID = "invalid"


class EngineError(ValueError):
    """Base of every error the engine raises.

    `.reason` is an English sentence (the command line and replay results
    show it); `.code` names the error stably and `.params` holds its values
    in card notation (cards like "JH", suits like "H"), so that the site can
    say it in the player's language (games.messages).
    """

    code: ErrorCode

    def __init__(self, reason: str, code: ErrorCode = ErrorCode.INVALID, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params = params


class MalformedAction(EngineError):
    """The input has the wrong shape (missing field, not a card, bad seat...)."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now."""


class RecordError(EngineError):
    """A hand or game record that does not replay; `.error` is the replay error dict."""

    def __init__(self, error: HandFault | GameFault) -> None:
        super().__init__(str(error.get("reason", "bad record")), ErrorCode.BAD_RECORD)
        self.error = error


DECKS = ("24", "32", "25")
# The game's target score (docs/rules.md "Goal"): its one home.
TARGET_MIN, TARGET_DEFAULT, TARGET_MAX = 5, 10, 25


def check_target(target: object) -> int:
    """The target if it is a whole number from TARGET_MIN to TARGET_MAX; else MalformedAction."""
    if type(target) is not int or not TARGET_MIN <= target <= TARGET_MAX:
        raise MalformedAction(
            f"target must be a whole number from {TARGET_MIN} to {TARGET_MAX}",
            ErrorCode.BAD_TARGET,
            min=TARGET_MIN,
            max=TARGET_MAX,
        )
    return target


class RulesDict(TypedDict):
    """Every table option, as `Rules.to_dict` gives them (a view's `rules`)."""

    deck: str
    stick_the_dealer: bool
    second_round_turned_suit: bool
    lone_maker_march: int


RULE_KEYS = ("deck", "stick_the_dealer", "second_round_turned_suit", "lone_maker_march")
KITTY_SIZE = {"24": 4, "32": 12, "25": 5}


@dataclass(frozen=True, slots=True)
class Rules:
    """The table options of docs/rules.md (the game's target lives in GameState)."""

    deck: str = "24"
    stick_the_dealer: bool = False
    second_round_turned_suit: bool = False
    lone_maker_march: int = 3

    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        if not isinstance(self.deck, str) or self.deck not in DECKS:
            raise MalformedAction('deck must be one of "24", "32", "25"', ErrorCode.BAD_RULES)
        if not isinstance(self.stick_the_dealer, bool):
            raise MalformedAction(
                "rules: stick_the_dealer must be true or false", ErrorCode.BAD_RULES
            )
        if not isinstance(self.second_round_turned_suit, bool):
            raise MalformedAction(
                "rules: second_round_turned_suit must be true or false", ErrorCode.BAD_RULES
            )
        m = self.lone_maker_march
        if type(m) is not int or m not in (3, 4):
            raise MalformedAction("rules: lone_maker_march must be 3 or 4", ErrorCode.BAD_RULES)

    @classmethod
    def from_dict(cls, d: object) -> Rules:
        """Validated rules from a record's `rules` object; missing keys take defaults."""
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise MalformedAction("rules must be an object", ErrorCode.BAD_RULES)
        for k in d:
            if k not in RULE_KEYS:
                raise MalformedAction(f"rules: unknown key {k!r}", ErrorCode.BAD_RULES)
        return cls(**d)

    def to_dict(self) -> RulesDict:
        """Every option, defaults filled in: `rules_dict`."""
        return rules_dict(self)

    @property
    def kitty_size(self) -> int:
        """Cards left in the kitty after the deal (the up card included)."""
        return KITTY_SIZE[self.deck]


def rules_dict(rules: Rules) -> RulesDict:
    """Every option of `rules`, defaults filled in, typed (a view's `rules`)."""
    return {
        "deck": rules.deck,
        "stick_the_dealer": rules.stick_the_dealer,
        "second_round_turned_suit": rules.second_round_turned_suit,
        "lone_maker_march": rules.lone_maker_march,
    }


# Rules that need no state: the first-round calls, the scoring table and the
# opening lead (the bots use them too).


class Call(StrEnum):
    """The first-round call by the caller's position (RULES.md "Bidding, first
    round"): all three are `order` in records; the UI names the one that fits."""

    ACCEPT = "accept"  # the dealer
    ORDER = "order"  # left of the dealer
    ASSIST = "assist"  # the next player


_CALL_BY_DISTANCE = (Call.ACCEPT, Call.ORDER, Call.ASSIST)
# The calls' English names (the command line, the engine's reasons).
CALL_NAMES = {Call.ACCEPT: "Accept", Call.ORDER: "Order it up", Call.ASSIST: "Assist"}


def call_code(dealer: int, seat: int) -> Call:
    """The first-round call of `seat` when `dealer` deals: its one home."""
    return _CALL_BY_DISTANCE[(seat - dealer) % 3]


def call_name(dealer: int, seat: int) -> str:
    """The call's English name for this seat: "Order it up", "Assist", "Accept"."""
    return CALL_NAMES[call_code(dealer, seat)]


class Outcome(StrEnum):
    """How a hand ended (RULES.md "Scoring"): the maker made it (3 or 4
    tricks), took all five (a march) or fewer than three (euchred); or
    everybody passed twice and it was thrown in."""

    MADE = "made"
    MARCH = "march"
    EUCHRED = "euchred"
    THROWN_IN = "thrown_in"


class MakerPlay(StrEnum):
    """How the maker played the hand (RULES.md "Maker and defenders, the
    dummy"): with the dummy, or alone."""

    DUMMY = "dummy"
    ALONE = "alone"


def maker_outcome(maker_tricks: int) -> Outcome:
    """The maker's outcome for the tricks they took: the scoring table's rows."""
    if maker_tricks == 5:
        return Outcome.MARCH
    return Outcome.MADE if maker_tricks >= 3 else Outcome.EUCHRED


class HandOutcome(TypedDict):
    """A hand's outcome in the rules' words (`hand.outcome`, `records.outcome_of`).

    outcome: None until the hand is over; then made, march, euchred or
      thrown_in.
    maker_play: "dummy" or "alone" once the maker chose (None before, and
      for a thrown-in hand).
    call_round: the bidding round trump was made in (1: ordered up, assisted
      or accepted; 2: named), None until then and for a thrown-in hand.
    """

    outcome: Outcome | None
    maker_play: MakerPlay | None
    call_round: int | None


def call_round(action_types: Iterable[str]) -> int | None:
    """The bidding round trump was made in, from a hand's action types in
    order: 1 for an `order` (any of the three first-round calls), 2 for a
    `name`, None while nobody has made trump."""
    for t in action_types:
        if t == "order":
            return 1
        if t == "name":
            return 2
    return None


def hand_outcome(
    complete: bool,
    maker: int | None,
    maker_tricks: int,
    maker_alone: bool,
    dummy_used: bool,
    call_round: int | None,
) -> HandOutcome:
    """The outcome from what a hand fixed: its one home, for a state and a record alike."""
    if maker is None:
        return {
            "outcome": Outcome.THROWN_IN if complete else None,
            "maker_play": None,
            "call_round": None,
        }
    play = MakerPlay.ALONE if maker_alone else MakerPlay.DUMMY if dummy_used else None
    return {
        "outcome": maker_outcome(maker_tricks) if complete else None,
        "maker_play": play,
        "call_round": call_round,
    }


def hand_points(
    maker: int, maker_tricks: int, maker_alone: bool, defender_alone: bool, lone_maker_march: int
) -> list[int]:
    """The scoring table: points of each seat when the maker took `maker_tricks`."""
    pts = [0, 0, 0]
    outcome = maker_outcome(maker_tricks)
    if outcome is not Outcome.EUCHRED:
        if outcome is Outcome.MARCH:
            pts[maker] = lone_maker_march if maker_alone else 3
        else:
            pts[maker] = 1
    else:
        each = 4 if defender_alone and maker_tricks == 0 else 2
        for s in range(3):
            if s != maker:
                pts[s] = each
    return pts


def next_seat(seat: int, sitting_out: int | None = None) -> int:
    """The next seat clockwise that plays, skipping the defender sitting out."""
    n = (seat + 1) % 3
    return (n + 1) % 3 if n == sitting_out else n


def game_winner(scores: tuple[int, int, int], target: int, last: bool = False) -> int | None:
    """The game's end and its tie rule (docs/rules.md "Goal"): the winner, or
    None to play on. The game ends after a hand in which exactly one player
    has the highest score and it is at or above the target; after the `last`
    hand of a hand limit the strictly highest score wins whatever the target,
    and a tie at the top leaves the game without a winner."""
    top = max(scores)
    if (top >= target or last) and scores.count(top) == 1:
        return scores.index(top)
    return None


def opening_lead(
    dealer: int, maker: int, alone: tuple[int, ...] | list[int], sitting_out: int | None
) -> int:
    """Who leads the first trick (docs/rules.md "Play"): left of the dealer when
    nobody is alone; the first active player left of a lone player; the lone
    defender when the maker and a defender are both alone."""
    if not alone:
        return (dealer + 1) % 3
    if len(alone) == 1:
        lead = (alone[0] + 1) % 3
        return (lead + 1) % 3 if lead == sitting_out else lead
    return next(s for s in alone if s != maker)
