"""Actions: small frozen values whose text form is the hand record's JSON action."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, cast

from .cards import CARD_INDEX, CARD_STRS, N_CARDS, SUITS
from .rules import ErrorCode, MalformedAction

# The fields of an action or a record that the engine does not know
# (docs/hand-record.md "Extra fields": ``"auto": true``, ``"at"``...): free-form
# JSON, kept as given on export and never read by the rules.
ExtraFields = dict[str, object]


class ActionDict(TypedDict):
    """An action as JSON (a hand record's action; a view's `history` and
    `legal_actions`): `Action.to_dict`. A record's action may carry fields the
    engine does not know (`ExtraFields`, e.g. ``"auto": true``): they ride
    along in the same object."""

    seat: int
    type: str
    suit: NotRequired[str]
    card: NotRequired[str]
    discard: NotRequired[str]
    keep: NotRequired[list[str] | None]
    auto: NotRequired[bool]


ACTION_TYPES = ("joker_suit", "pass", "order", "name", "pickup", "leave", "dummy", "alone", "play")
# The fields each type has besides `seat` and `type` (docs/hand-record.md).
TYPE_FIELDS: dict[str, tuple[str, ...]] = {
    "joker_suit": ("suit",),
    "pass": (),
    "order": (),
    "name": ("suit",),
    "pickup": ("discard",),
    "leave": (),
    "dummy": ("keep",),
    "alone": (),
    "play": ("card",),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat, as in a hand record's `actions` list.

    `extra` holds fields the engine does not know (e.g. ``"auto": true``);
    they are kept on export and ignored by the rules (and by equality).
    """

    seat: int
    type: str
    suit: str | None = None
    card: str | None = None
    discard: str | None = None
    keep: tuple[str, ...] | None = None
    extra: ExtraFields = field(default_factory=dict, compare=False, hash=False)

    @classmethod
    def from_dict(cls, d: object, *, strict: bool = False) -> Action:
        """Parse a JSON action; raises MalformedAction with a readable reason.

        A record's action may carry extra fields (kept in `extra`). With
        `strict` (a move sent from outside), only the fields its type has are
        allowed. A `dummy` without `keep` is the maker's choice to use the
        dummy; the five to keep follow in a second `dummy` action.
        """
        if not isinstance(d, dict):
            raise MalformedAction("an action must be an object", ErrorCode.NOT_A_MOVE)
        seat = d.get("seat")
        if type(seat) is not int or not 0 <= seat <= 2:
            raise MalformedAction("seat must be 0, 1 or 2", ErrorCode.BAD_SEAT)
        t = d.get("type")
        if not isinstance(t, str) or t not in ACTION_TYPES:
            raise MalformedAction(
                f"unknown action type {t!r}", ErrorCode.UNKNOWN_TYPE, type=str(t)[:20]
            )
        if strict:
            allowed = TYPE_FIELDS[t]
            for k in d:
                if k not in allowed and k not in ("seat", "type"):
                    raise MalformedAction(
                        f"The move {t!r} has no field {str(k)[:20]!r}",
                        ErrorCode.UNKNOWN_FIELD,
                        type=t,
                        field=str(k)[:20],
                    )
        suit = card = discard = None
        keep: tuple[str, ...] | None = None
        used = {"seat", "type"}
        if t == "joker_suit" or t == "name":
            suit = d.get("suit")
            if suit is None:
                raise MalformedAction("Name a suit", ErrorCode.NAME_A_SUIT)
            if not isinstance(suit, str) or suit not in SUITS:
                raise MalformedAction(f"not a suit: {suit!r}", ErrorCode.NOT_A_SUIT)
            used.add("suit")
        elif t == "play":
            card = _card_field(d, "card", "play a card: the card is missing")
            used.add("card")
        elif t == "pickup":
            discard = _card_field(d, "discard", "picking up needs a discard")
            used.add("discard")
        elif t == "dummy":
            used.add("keep")
        if t == "dummy" and d.get("keep") is not None:
            # Only the shape here: which cards may be kept is the rules' business
            # (and must not be judged before the maker has chosen the dummy).
            k = d["keep"]
            if not isinstance(k, list | tuple) or not all(isinstance(c, str) for c in k):
                raise MalformedAction("keep must be a list of cards", ErrorCode.KEEP_FIVE_OF_TEN)
            keep = tuple(k)
        extra = {k: v for k, v in d.items() if k not in used}
        return cls(seat, t, suit, card, discard, keep, extra)

    def to_dict(self) -> ActionDict:
        """The record's JSON action, extra fields included."""
        d: ActionDict = {"seat": self.seat, "type": self.type}
        if self.suit is not None:
            d["suit"] = self.suit
        if self.card is not None:
            d["card"] = self.card
        if self.discard is not None:
            d["discard"] = self.discard
        if self.keep is not None:
            d["keep"] = list(self.keep)
        if self.extra:
            # The extra fields join the typed ones in the same JSON object.
            out = cast(ExtraFields, d)
            for k, v in self.extra.items():
                if k not in out:
                    out[k] = v
        return d


def _card_field(d: dict[object, object], key: str, missing: str) -> str:
    c = d.get(key)
    if c is None:
        raise MalformedAction(missing, ErrorCode.MISSING_CARD, field=key)
    if not isinstance(c, str) or c not in CARD_INDEX:
        raise MalformedAction(f"not a card: {c!r}", ErrorCode.NOT_A_CARD)
    return c


_SET_FIELDS = tuple(
    Action.__dict__[f].__set__ for f in ("seat", "type", "suit", "card", "discard", "keep", "extra")
)


def keep_action(seat: int, keep: tuple[str, ...]) -> Action:
    """`Action(seat, "dummy", keep=keep)`, set field by field: the frozen
    dataclass's __init__ costs about three times as much (the maker's keeps
    are built one at a time, as asked for)."""
    a: Action = object.__new__(Action)
    s0, s1, s2, s3, s4, s5, s6 = _SET_FIELDS
    s0(a, seat)
    s1(a, "dummy")
    s2(a, None)
    s3(a, None)
    s4(a, None)
    s5(a, keep)
    s6(a, {})
    return a


# Pre-built actions: the hot path hands these out instead of building new ones.
PASS = tuple(Action(s, "pass") for s in range(3))
ORDER = tuple(Action(s, "order") for s in range(3))
LEAVE = tuple(Action(s, "leave") for s in range(3))
ALONE = tuple(Action(s, "alone") for s in range(3))
DUMMY = tuple(Action(s, "dummy") for s in range(3))
NAME = tuple(tuple(Action(s, "name", suit=x) for x in SUITS) for s in range(3))
JOKER_SUIT = tuple(tuple(Action(s, "joker_suit", suit=x) for x in SUITS) for s in range(3))
PLAY = tuple(tuple(Action(s, "play", card=CARD_STRS[c]) for c in range(N_CARDS)) for s in range(3))
PICKUP = tuple(
    tuple(Action(s, "pickup", discard=CARD_STRS[c]) for c in range(N_CARDS)) for s in range(3)
)
