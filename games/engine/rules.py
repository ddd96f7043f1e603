"""Table options (docs/rules.md) and the engine's errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict


class EngineError(ValueError):
    """Base of every error the engine raises.

    `.reason` is an English sentence (the command line and replay results
    show it); `.code` names the error stably and `.params` holds its values
    in card notation (cards like "JH", suits like "H"), so that the site can
    say it in the player's language. Codes: games.messages lists them all.
    """

    def __init__(self, reason: str, code: str = "invalid", **params: Any) -> None:
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

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(str(error.get("reason", "bad record")), "bad_record")
        self.error = error


DECKS = ("24", "32", "25")
# The game's target score (docs/rules.md "Goal"): its one home.
TARGET_MIN, TARGET_DEFAULT, TARGET_MAX = 5, 10, 25


def check_target(target: Any) -> int:
    """The target if it is a whole number from TARGET_MIN to TARGET_MAX; else MalformedAction."""
    if type(target) is not int or not TARGET_MIN <= target <= TARGET_MAX:
        raise MalformedAction(
            f"target must be a whole number from {TARGET_MIN} to {TARGET_MAX}",
            "bad_target",
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
            raise MalformedAction('deck must be one of "24", "32", "25"', "bad_rules")
        if not isinstance(self.stick_the_dealer, bool):
            raise MalformedAction("rules: stick_the_dealer must be true or false", "bad_rules")
        if not isinstance(self.second_round_turned_suit, bool):
            raise MalformedAction(
                "rules: second_round_turned_suit must be true or false", "bad_rules"
            )
        m = self.lone_maker_march
        if type(m) is not int or m not in (3, 4):
            raise MalformedAction("rules: lone_maker_march must be 3 or 4", "bad_rules")

    @classmethod
    def from_dict(cls, d: Any) -> Rules:
        """Validated rules from a record's `rules` object; missing keys take defaults."""
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise MalformedAction("rules must be an object", "bad_rules")
        for k in d:
            if k not in RULE_KEYS:
                raise MalformedAction(f"rules: unknown key {k!r}", "bad_rules")
        return cls(**d)

    def to_dict(self) -> dict[str, Any]:
        """Every option, defaults filled in (a RulesDict: `rules_dict`)."""
        return dict(rules_dict(self))

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


# Rules that need no state: the scoring table and the opening lead (the bots use them too).


def hand_points(
    maker: int, maker_tricks: int, maker_alone: bool, defender_alone: bool, lone_maker_march: int
) -> list[int]:
    """The scoring table: points of each seat when the maker took `maker_tricks`."""
    pts = [0, 0, 0]
    if maker_tricks >= 3:
        if maker_tricks == 5:
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
