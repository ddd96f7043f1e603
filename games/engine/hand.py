"""One hand: the state, its legal actions, and applying an action.

The state is immutable from the outside: `apply` returns a new state and
leaves the old one as it was. To keep that cheap, what is fixed once trump is
known lives in one `_Info` object that successive states share, and the
per-play part is a handful of ints and tuples.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from enum import StrEnum
from random import Random
from typing import Any, NoReturn, SupportsIndex, TypedDict, overload

from . import actions as A
from .actions import ACTION_TYPES, Action, ExtraFields
from .cards import (
    CARD_INDEX,
    CARD_STRS,
    DECK_MASKS,
    EFF_SUIT,
    JOKER,
    N_CARDS,
    POWER,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_NAMES,
    SUITS,
    card_name,
    cards_of,
    cards_tuple,
    deck_cards,
    sort_key,
)
from .rules import (
    EngineError,
    ErrorCode,
    HandOutcome,
    IllegalAction,
    MalformedAction,
    Rules,
    call_code,
    call_name,
    call_round,
    hand_outcome,
    hand_points,
    next_seat,
    opening_lead,
)


class Phase(StrEnum):
    """Whose decision the hand waits for."""

    JOKER_SUIT = "joker_suit"
    BID1 = "bid1"
    DEALER_PICKUP = "dealer_pickup"
    BID2 = "bid2"
    MAKER_CHOICE = "maker_choice"
    DUMMY_KEEP = "dummy_keep"
    DEFENDER_ALONE = "defender_alone"
    PLAY = "play"
    OVER = "over"


# Phases as small ints internally (comparisons on the hot path).
P_JOKER, P_BID1, P_PICKUP, P_BID2, P_MAKER, P_KEEP, P_DEFENDER, P_PLAY, P_OVER = range(9)
PHASES = tuple(Phase)

_CI_get = CARD_INDEX.get
_CS = CARD_STRS
# (seat, card) pairs of a trick, built once.
_PAIR = tuple(tuple((s, c) for c in range(33)) for s in range(3))


class _Info:
    """What a hand fixes as it goes (deal, bidding outcome); shared between states."""

    __slots__ = (
        "alone",
        "deal_hands",
        "dealer",
        "dealer_discard",
        "deck",
        "dummy",
        "dummy_mask",
        "dummy_used",
        "eff",
        "extra",
        "joker_suit",
        "kitty",
        "maker",
        "maker_discards",
        "n_active",
        "next_seat",
        "power",
        "rules",
        "sitting_out",
        "suit_masks",
        "trump",
        "up",
        "up_suit",
        "up_taken",
    )

    rules: Rules
    dealer: int
    deck: int
    deal_hands: tuple[tuple[int, ...], ...]
    dummy: tuple[int, ...]
    dummy_mask: int
    kitty: tuple[int, ...]
    up: int
    up_suit: int  # the up card's suit; the named suit when the Joker is up (-1 until named)
    joker_suit: int | None
    maker: int | None
    trump: int | None
    alone: tuple[int, ...]
    sitting_out: int | None
    up_taken: bool | None
    dealer_discard: int | None
    maker_discards: int
    dummy_used: bool
    extra: ExtraFields
    n_active: int
    next_seat: tuple[int, int, int]
    suit_masks: tuple[int, ...]
    power: tuple[tuple[int, ...], ...]
    eff: tuple[int, ...]

    def copy(self) -> _Info:
        raise NotImplementedError  # replaced below by a generated, unrolled copy


_new = object.__new__

# A hand's actions, newest first: (previous, action) pairs ending in ().
Log = tuple[Any, ...]


def _unlog(log: Log) -> tuple[Action, ...]:
    """The actions of a log, oldest first."""
    out = []
    while log:
        log, a = log
        out.append(a)
    out.reverse()
    return tuple(out)


def _make_info_copy() -> Callable[[_Info], _Info]:
    # Unrolled attribute copy: about 4x faster than a getattr/setattr loop.
    body = "".join(f"    n.{k} = self.{k}\n" for k in _Info.__slots__)
    src = f"def copy(self):\n    n = _new(_Info)\n{body}    return n\n"
    ns: dict[str, object] = {"_new": _new, "_Info": _Info}
    exec(src, ns)
    return ns["copy"]  # type: ignore[return-value]


_Info.copy = _make_info_copy()  # type: ignore[method-assign,assignment]


class HandState:
    """A hand at one moment. Read it through the properties, `view` and `result`."""

    __slots__ = (
        "_best",
        "_by",
        "_hands",
        "_i",
        "_leader",
        "_led",
        "_log",
        "_ok",
        "_passes",
        "_phase",
        "_to_act",
        "_trick",
        "_tricks",
        "_won",
    )

    _i: _Info
    _phase: int
    _to_act: int | None
    _hands: tuple[int, int, int]
    _trick: tuple[tuple[int, int], ...]
    _leader: int | None
    _led: int
    # The trick in progress: the power (cards.POWER) of its best card so far
    # and who played it; the winner once the trick is complete.
    _best: int
    _by: int
    _won: tuple[int, int, int]
    _tricks: tuple[tuple[int | None, tuple[tuple[int, int], ...], int], ...]
    # The actions so far, newest first, as nested pairs (previous, action), ()
    # when none: adding one costs one small tuple, whatever the length.
    _log: Log
    # In the play phase, the cards the seat to act may play (`_playable`);
    # else -1. `apply` sets it for the state it makes.
    _ok: int
    _passes: int

    @property
    def _actions(self) -> tuple[Action, ...]:
        """Every action applied so far, oldest first."""
        return _unlog(self._log)

    # --- public read-only properties ---------------------------------------

    @property
    def rules(self) -> Rules:
        """The table options in force."""
        return self._i.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._i.dealer

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return PHASES[self._phase]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited (None once over)."""
        return self._to_act

    @property
    def over(self) -> bool:
        """True once the fifth trick is complete or the hand was thrown in."""
        return self._phase == P_OVER

    @property
    def thrown_in(self) -> bool:
        """True if all passed twice (no stick-the-dealer)."""
        return self._phase == P_OVER and self._i.maker is None

    @property
    def maker(self) -> int | None:
        """The maker's seat, once known."""
        return self._i.maker

    @property
    def trump(self) -> str | None:
        """Trump suit letter, once known."""
        t = self._i.trump
        return None if t is None else SUITS[t]

    @property
    def alone(self) -> tuple[int, ...]:
        """Seats that went alone, ascending."""
        return self._i.alone

    @property
    def sitting_out(self) -> int | None:
        """The defender sitting out, if a defender went alone."""
        return self._i.sitting_out

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won per seat so far."""
        return list(self._won)

    @property
    def actions(self) -> list[Action]:
        """Every action applied so far, in order."""
        return list(_unlog(self._log))

    @property
    def joker_suit(self) -> str | None:
        """The suit the dealer named for a turned-up Joker."""
        j = self._i.joker_suit
        return None if j is None else SUITS[j]

    @property
    def up_card(self) -> str:
        """The turned card (kitty[0]); hidden information handling is `view`'s job."""
        return CARD_STRS[self._i.up]

    @property
    def up_card_taken(self) -> bool | None:
        """Whether the dealer took the up card (None while undecided)."""
        return self._i.up_taken

    @property
    def leader(self) -> int | None:
        """Who led (or is to lead) the current trick."""
        return self._leader

    def hand_of(self, seat: int) -> list[str]:
        """Full-state access to a seat's current cards (engine-internal; UIs use `view`)."""
        return [CARD_STRS[c] for c in cards_of(self._hands[seat])]

    def __repr__(self) -> str:
        return (
            f"<HandState dealer={self.dealer} phase={self.phase.value} to_act={self._to_act} "
            f"actions={len(_unlog(self._log))}>"
        )


# ---------------------------------------------------------------------------
# Dealing


def _fy_groups(n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Fisher-Yates steps i = n-1 .. 1 grouped so that each group's choices fit one
    small random number: (product of the ranges, its bit length, the ranges)."""
    groups = []
    ranges: list[int] = []
    p = 1
    for i in range(n - 1, 0, -1):
        if p * (i + 1) >= 1 << 30:
            groups.append((p, p.bit_length(), tuple(ranges)))
            ranges, p = [], 1
        ranges.append(i + 1)
        p *= i + 1
    groups.append((p, p.bit_length(), tuple(ranges)))
    return tuple(groups)


_FY = {n: _fy_groups(n) for n in (24, 25, 32)}


def _make_shuffle(n: int) -> Callable[[list[int], Callable[[int], int]], list[int]]:
    """A function giving a uniformly random permutation of n cards from a
    generator's `getrandbits`.

    Fisher-Yates, but each random draw serves several steps (a uniform number
    below the product of their ranges, by rejection, split by % and //):
    about twice as fast as rng.shuffle and exactly uniform. The steps are
    written out (no loops, the constants in the code) for speed.
    """
    lines = ["def shuffle(cards, getrandbits):", "    x = cards[:]"]
    i = n - 1
    for p, k, ranges in _FY[n]:
        lines += [
            f"    r = getrandbits({k})",
            f"    while r >= {p}:",
            f"        r = getrandbits({k})",
        ]
        for m in ranges:
            lines += [f"    j = r % {m}", f"    r //= {m}", f"    x[{i}], x[j] = x[j], x[{i}]"]
            i -= 1
    lines.append("    return x")
    ns: dict[str, Any] = {}
    exec("\n".join(lines), ns)
    return ns["shuffle"]  # type: ignore[no-any-return]


_SHUFFLE = {n: _make_shuffle(n) for n in _FY}


_DECK_LISTS = {d: deck_cards(d) for d in ("24", "32", "25")}


def new_hand(rules: Rules, dealer: int, rng: Random) -> HandState:
    """Deal a new hand from `rng` (a random.Random) with `dealer` dealing."""
    if type(dealer) is not int or not 0 <= dealer <= 2:
        raise MalformedAction("dealer must be 0, 1 or 2", ErrorCode.BAD_SEAT)
    cards = _DECK_LISTS[rules.deck]
    x = _SHUFFLE[len(cards)](cards, rng.getrandbits)
    b = _BIT
    masks = (
        b[x[0]] | b[x[1]] | b[x[2]] | b[x[3]] | b[x[4]],
        b[x[5]] | b[x[6]] | b[x[7]] | b[x[8]] | b[x[9]],
        b[x[10]] | b[x[11]] | b[x[12]] | b[x[13]] | b[x[14]],
        b[x[15]] | b[x[16]] | b[x[17]] | b[x[18]] | b[x[19]],
    )
    return _start(
        rules,
        dealer,
        (tuple(x[0:5]), tuple(x[5:10]), tuple(x[10:15])),
        tuple(x[15:20]),
        tuple(x[20:]),
        {},
        masks,
    )


_BIT = tuple(1 << c for c in range(33))


def _start(
    rules: Rules,
    dealer: int,
    hands: tuple[tuple[int, ...], ...],
    dummy: tuple[int, ...],
    kitty: tuple[int, ...],
    extra: ExtraFields,
    masks: tuple[int, int, int, int] | None = None,
) -> HandState:
    """The state right after a (validated) deal; cards as ints, in dealt order.

    `masks`: the three hands' and the dummy's masks, when the caller has them.
    """
    if masks is None:
        ms = [0, 0, 0, 0]
        for k, cs in enumerate((*hands, dummy)):
            for c in cs:
                ms[k] |= 1 << c
        masks = (ms[0], ms[1], ms[2], ms[3])
    i = _new(_Info)
    i.rules = rules
    i.dealer = dealer
    i.deck = DECK_MASKS[rules.deck]
    i.deal_hands = hands
    i.dummy = dummy
    i.dummy_mask = masks[3]
    i.kitty = kitty
    up = i.up = kitty[0]
    i.joker_suit = None
    i.up_suit = -1 if up == JOKER else up >> 3
    i.maker = None
    i.trump = None
    i.alone = ()
    i.sitting_out = None
    i.up_taken = None
    i.dealer_discard = None
    i.maker_discards = 0
    i.dummy_used = False
    i.extra = extra
    i.n_active = 3
    i.next_seat = (1, 2, 0)
    i.suit_masks = ()
    i.power = ()
    i.eff = ()
    s: HandState = _new(HandState)
    s._i = i
    s._hands = (masks[0], masks[1], masks[2])
    s._trick = ()
    s._leader = None
    s._led = -1
    s._best = 0
    s._by = 0
    s._won = (0, 0, 0)
    s._tricks = ()
    s._log = ()
    s._ok = -1
    s._passes = 0
    if up == JOKER:
        s._phase = P_JOKER
        s._to_act = dealer
    else:
        s._phase = P_BID1
        s._to_act = (dealer + 1) % 3
    return s


# ---------------------------------------------------------------------------
# Legal actions


_COMBOS = tuple(itertools.combinations(range(10), 5))
_N_CHOICE = len(_COMBOS)


class ActionList(list[Action]):
    """The maker's 252 keep-fives (after choosing the dummy), built on demand.

    It behaves as a list; the actions are only created when looked at, so
    asking for legal actions stays cheap.
    """

    __slots__ = ("_lazy", "_seat", "_ten")

    def __init__(self, seat: int, ten: tuple[int, ...]) -> None:
        super().__init__()
        self._seat = seat
        self._ten = ten
        self._lazy = True

    def _item(self, k: int) -> Action:
        ten = self._ten
        return Action(
            self._seat, "dummy", None, None, None, tuple([_CS[ten[j]] for j in _COMBOS[k]])
        )

    def _force(self) -> None:
        if self._lazy:
            self._lazy = False
            list.extend(self, [self._item(k) for k in range(_N_CHOICE)])

    def __len__(self) -> int:
        return _N_CHOICE if self._lazy else list.__len__(self)

    @overload
    def __getitem__(self, i: SupportsIndex) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: SupportsIndex | slice) -> Action | list[Action]:
        if self._lazy and type(i) is int:
            k = i + _N_CHOICE if i < 0 else i
            if not 0 <= k < _N_CHOICE:
                raise IndexError("list index out of range")
            return self._item(k)
        self._force()
        return list.__getitem__(self, i)

    def __iter__(self) -> Iterator[Action]:
        self._force()
        return list.__iter__(self)


def _forcing(name: str) -> Callable[..., Any]:
    base = getattr(list, name)

    def method(self: ActionList, *args: Any) -> Any:
        self._force()
        return base(self, *args)

    method.__name__ = name
    return method


for _name in (
    "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__repr__",
    "__reversed__", "__add__", "__mul__", "__rmul__", "__iadd__", "__imul__", "__setitem__",
    "__delitem__", "__reduce_ex__", "append", "extend", "insert", "pop", "remove", "reverse",
    "sort", "clear", "index", "count", "copy",
):  # fmt: skip
    setattr(ActionList, _name, _forcing(_name))


# _PLAY_BYTES[seat][p][b]: the play actions of the cards of bits b (a byte) at
# byte position p of a mask, lowest card first (as cards.cards_tuple): the
# plays of a mask are five of these. (Position 4 holds only the Joker.)
_PLAY_BYTES: tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(A.PLAY[s][8 * p + k] for k in range(8) if b >> k & 1 and 8 * p + k < N_CARDS)
            for b in range(256 if p < 4 else 2)
        )
        for p in range(5)
    )
    for s in range(3)
)


# The rules that decide what may be done now. Each is written once and used
# both to list the legal actions and to check an action being applied.


def _playable(state: HandState, seat: int) -> int:
    """The cards `seat` may play now: the suit led if they hold it (the left
    bower and the Joker count as trump), else any card."""
    h = state._hands[seat]
    if state._trick:
        return h & state._i.suit_masks[state._led] or h
    return h


def _may_leave(i: _Info, seat: int) -> bool:
    """The dealer may leave the up card unless they accepted it themself."""
    return i.maker != seat


def _may_pass_bid2(i: _Info, seat: int) -> bool:
    """Stick the dealer: the dealer may not pass in the second round."""
    return not (i.rules.stick_the_dealer and seat == i.dealer)


def _may_name(i: _Info, x: int) -> bool:
    """The turned-down suit may be named only when the table allows it."""
    return i.rules.second_round_turned_suit or x != i.up_suit


def legal_actions(state: HandState) -> list[Action]:
    """Every action the seat to act may take now (empty once the hand is over).

    At `maker_choice` the maker chooses between `alone` and `dummy` (without
    `keep`); only at `dummy_keep`, after choosing the dummy, are the 252
    ways to keep five of the ten cards listed.
    """
    ph = state._phase
    seat = state._to_act
    if ph == P_PLAY:
        m = state._ok
        p0, p1, p2, p3, p4 = _PLAY_BYTES[seat]  # type: ignore[index]
        return [
            *p0[m & 255],
            *p1[m >> 8 & 255],
            *p2[m >> 16 & 255],
            *p3[m >> 24 & 255],
            *p4[m >> 32],
        ]
    if ph == P_OVER or seat is None:
        return []
    i = state._i
    if ph == P_BID1:
        return [A.PASS[seat], A.ORDER[seat]]
    if ph == P_DEFENDER:
        return [A.PASS[seat], A.ALONE[seat]]
    if ph == P_PICKUP:
        row = A.PICKUP[seat]
        out = [row[c] for c in cards_tuple(state._hands[seat] | 1 << i.up)]
        if _may_leave(i, seat):
            out.append(A.LEAVE[seat])
        return out
    if ph == P_BID2:
        out = [A.PASS[seat]] if _may_pass_bid2(i, seat) else []
        out.extend(A.NAME[seat][x] for x in range(4) if _may_name(i, x))
        return out
    if ph == P_MAKER:
        return [A.ALONE[seat], A.DUMMY[seat]]
    if ph == P_KEEP:
        return ActionList(seat, cards_tuple(state._hands[seat] | i.dummy_mask))
    if ph == P_JOKER:
        return list(A.JOKER_SUIT[seat])
    raise AssertionError(ph)  # pragma: no cover


def _ten_cards(state: HandState) -> list[str]:
    """The maker's hand plus the dummy, in display order."""
    i = state._i
    ten = cards_of(state._hands[i.maker] | i.dummy_mask)  # type: ignore[index]
    ten.sort(key=lambda c: sort_key(c, i.trump))
    return [CARD_STRS[c] for c in ten]


# ---------------------------------------------------------------------------
# Checking an action: the one check, used by `apply`, `verify` and `can`
#
# pokerkit's pattern: `verify(state, action)` raises the refusal (with its
# reason, code and params), `can` wraps it, and `apply` runs the same checks
# before it changes anything, so what `apply` refuses and what the views say
# is refused cannot differ. For a play (the hot path) `apply` makes
# `_check_play`'s tests inline and asks `_check_play` for the refusal when one
# fails (tests/engine/test_refusals_and_kitty.py holds the two equal).


def verify(state: HandState, action: Action) -> None:
    """Raise what `apply(state, action)` would raise (IllegalAction, or
    MalformedAction for a badly formed action), with its reason; else nothing."""
    if state._phase == P_PLAY and action.seat == state._to_act and action.type == "play":
        _check_play(state, action)
    else:
        _check_other(state, action)


def can(state: HandState, action: Action) -> bool:
    """Whether `apply(state, action)` would accept `action`."""
    try:
        verify(state, action)
    except EngineError:
        return False
    return True


def _check_play(s: HandState, a: Action) -> int:
    """The card that `a` (a play by the seat to act, in the play phase) plays,
    if it may be played now; else the refusal."""
    card = a.card
    try:
        c = _CI_get(card)  # type: ignore[arg-type]
    except TypeError:
        c = None
    if c is None:
        if card is None:
            raise MalformedAction("Play a card", ErrorCode.PLAY_A_CARD)
        raise MalformedAction(f"not a card: {card!r}", ErrorCode.NOT_A_CARD)
    b = 1 << c
    seat = a.seat
    if not s._hands[seat] & b:
        if not b & s._i.deck:
            raise MalformedAction(f"{card} is not in this deck", ErrorCode.NOT_IN_DECK, card=card)
        raise IllegalAction(f"You do not hold the {card_name(c)}", ErrorCode.NOT_HELD, card=card)
    if s._trick and not _playable(s, seat) & b:
        led = s._led
        raise IllegalAction(
            f"You must follow {SUIT_NAMES[led]}", ErrorCode.MUST_FOLLOW, suit=SUITS[led]
        )
    return c


def _check_other(state: HandState, action: Action) -> int:
    """Every other action's check: the turn and the type, then the phase's own
    (`_CHECK`). Returns what the phase's check parsed (a suit, a card, a keep's
    mask), for its `_APPLY` step."""
    ph = state._phase
    seat = action.seat
    if seat is None or seat != state._to_act:  # (nobody's turn once over)
        fault = turn_fault(state, seat)
        assert fault is not None
        error = MalformedAction if fault is ErrorCode.BAD_SEAT else IllegalAction
        raise error(_TURN_REASONS[fault], fault)
    t = action.type
    if t not in ACTION_TYPES:
        raise MalformedAction(
            f"unknown action type {t!r}", ErrorCode.UNKNOWN_TYPE, type=str(t)[:20]
        )
    if ph == P_PLAY:
        raise IllegalAction("Play a card", ErrorCode.PLAY_A_CARD)
    return _CHECK[ph](state, action, t)


def turn_fault(state: HandState, seat: object) -> ErrorCode | None:
    """Whether `seat` may act now, the check before any action's type and
    fields (docs/hand-record.md's order): a seat that is not 0-2, a hand that
    is over, another seat's turn; None when it is this seat's turn. `verify`
    and `apply` raise it, a record's replay reports it in its own words."""
    if type(seat) is not int or not 0 <= seat <= 2:
        return ErrorCode.BAD_SEAT
    if state._phase == P_OVER:
        return ErrorCode.HAND_OVER
    if seat != state._to_act:
        return ErrorCode.NOT_YOUR_TURN
    return None


_TURN_REASONS = {
    ErrorCode.BAD_SEAT: "seat must be 0, 1 or 2",
    ErrorCode.HAND_OVER: "The hand is over",
    ErrorCode.NOT_YOUR_TURN: "It is not your turn",
}


def _wrong(what: str, code: ErrorCode, **params: Any) -> IllegalAction:
    """This phase's decision is not the one sent: `what` says what is awaited."""
    return IllegalAction(what, code, **params)


def _check_joker(s: HandState, a: Action, t: str) -> int:
    if t != "joker_suit":
        raise _wrong("The dealer must first name a suit for the Joker", ErrorCode.JOKER_SUIT_FIRST)
    return _suit(a)


def _check_bid1(s: HandState, a: Action, t: str) -> int:
    if t != "pass" and t != "order":
        dealer = s._i.dealer
        raise _wrong(
            f"{call_name(dealer, a.seat)} or pass",
            ErrorCode.CALL_OR_PASS,
            call=call_code(dealer, a.seat),
        )
    return 0


def _check_pickup(s: HandState, a: Action, t: str) -> int:
    """The dealer's discard (a card) for a pickup, -1 for leaving the up card."""
    i = s._i
    if t == "pickup":
        d = _card(a.discard, "discard", i.deck)
        if not (s._hands[a.seat] | 1 << i.up) & 1 << d:
            raise IllegalAction(
                f"You cannot discard the {card_name(d)}: it is not in your hand",
                ErrorCode.DISCARD_NOT_HELD,
                card=CARD_STRS[d],
            )
        return d
    if t == "leave":
        if not _may_leave(i, a.seat):
            raise IllegalAction(
                "The dealer who accepted must pick up the up card", ErrorCode.DEALER_MUST_PICK_UP
            )
        return -1
    raise _wrong("Pick up the up card or leave it", ErrorCode.PICKUP_OR_LEAVE)


def _check_bid2(s: HandState, a: Action, t: str) -> int:
    """The suit named (-1 for a pass)."""
    i = s._i
    if t == "pass":
        if not _may_pass_bid2(i, a.seat):
            raise IllegalAction(
                "Stick the dealer: the dealer must name a suit", ErrorCode.STICK_THE_DEALER
            )
        return -1
    if t == "name":
        x = _suit(a)
        if not _may_name(i, x):
            raise IllegalAction(
                f"You may not name {SUIT_NAMES[x]}, the turned-down suit",
                ErrorCode.TURNED_DOWN_SUIT,
                suit=SUITS[x],
            )
        return x
    raise _wrong("Name a suit or pass", ErrorCode.NAME_OR_PASS)


def _check_maker(s: HandState, a: Action, t: str) -> int:
    """The maker's choice is made before any dummy card is seen: `alone`, or
    `dummy` without `keep` (the five to keep come next, at `dummy_keep`). A
    keep sent now is refused whatever it holds, so the refusal tells nothing."""
    if t == "alone":
        return 0
    if t == "dummy":
        if a.keep is not None:
            raise IllegalAction(
                "First choose between using the dummy and going alone; the dummy's cards "
                "are shown once you choose to use it",
                ErrorCode.CHOOSE_DUMMY_FIRST,
            )
        return 0
    raise _wrong("Use the dummy or go alone", ErrorCode.DUMMY_OR_ALONE)


def _check_keep(s: HandState, a: Action, t: str) -> int:
    """The mask of the five cards kept of the maker's hand and the dummy."""
    if t != "dummy":
        raise _wrong("Choose the five cards to keep", ErrorCode.CHOOSE_KEEP)
    keep = a.keep
    if keep is None:
        raise MalformedAction("Choose the five cards to keep", ErrorCode.CHOOSE_KEEP)
    if len(keep) != 5:
        # Its own code: the site says how many were chosen (the table's form
        # sends the cards ticked, any number of them).
        raise MalformedAction(
            "Keep must be five of the ten cards", ErrorCode.KEEP_FIVE, n=len(keep)
        )
    ten = s._hands[a.seat] | s._i.dummy_mask
    m = 0
    for k in keep:
        c = _CI_get(k) if k.__class__ is str else None
        if c is None or not ten & 1 << c:
            raise IllegalAction("Keep must be five of the ten cards", ErrorCode.KEEP_FIVE_OF_TEN)
        m |= 1 << c
    if m.bit_count() != 5:
        raise MalformedAction("Keep must be five of the ten cards", ErrorCode.KEEP_FIVE_OF_TEN)
    return m


def _check_defender(s: HandState, a: Action, t: str) -> int:
    if t != "alone" and t != "pass":
        raise _wrong("Defend alone or pass", ErrorCode.DEFEND_OR_PASS)
    return 0


def _suit(a: Action) -> int:
    x = a.suit
    if x is None:
        raise MalformedAction("Name a suit", ErrorCode.NAME_A_SUIT)
    if x.__class__ is not str or x not in SUIT_INDEX:
        raise MalformedAction(f"not a suit: {x!r}", ErrorCode.NOT_A_SUIT)
    return SUIT_INDEX[x]


def _card(text: str | None, what: str, deck: int) -> int:
    if text is None:
        raise MalformedAction(f"the {what} is missing", ErrorCode.MISSING_CARD, field=what)
    c = _CI_get(text) if text.__class__ is str else None
    if c is None:
        raise MalformedAction(f"not a card: {text!r}", ErrorCode.NOT_A_CARD)
    if not deck & 1 << c:
        raise MalformedAction(f"{text} is not in this deck", ErrorCode.NOT_IN_DECK, card=text)
    return c


# Indexed by phase (P_JOKER .. P_DEFENDER, in order).
_CHECK: tuple[Callable[[HandState, Action, str], int], ...] = (
    _check_joker,
    _check_bid1,
    _check_pickup,
    _check_bid2,
    _check_maker,
    _check_keep,
    _check_defender,
)


# ---------------------------------------------------------------------------
# Applying an action: the phase's check above, then its step


# The types each phase's check (`_CHECK`) may accept, by phase; for any other
# `_check_other` gives the refusal (and for every action in the play phase
# that is not a play by the seat to act, and once the hand is over).
_TYPES: tuple[tuple[str, ...], ...] = (
    ("joker_suit",),
    ("pass", "order"),
    ("pickup", "leave"),
    ("pass", "name"),
    ("alone", "dummy"),
    ("dummy",),
    ("alone", "pass"),
    (),
    (),
)


def apply(state: HandState, action: Action) -> HandState:
    """The state after `action`; raises IllegalAction/MalformedAction (as
    `verify` does) and changes nothing."""
    s = state
    a = action
    if s._phase != P_PLAY or a.type != "play" or a.seat != s._to_act:
        t = a.type
        ph = s._phase
        if a.seat == s._to_act and t in _TYPES[ph]:
            return _STEP[ph](s, a, t)
        _check_other(s, a)  # the refusal
        raise AssertionError(
            f"{a} was refused by apply but not by _check_other"
        )  # pragma: no cover
    # The play of a card is most of every hand, so it is handled here, with
    # `_check_play`'s tests inline (a legal play costs no call); anything
    # else gets `_check_play`'s refusal.
    try:
        c = _CI_get(a.card)  # type: ignore[arg-type]
    except TypeError:
        c = None
    if c is None:
        _refuse(s, a)
    b = _BIT[c]
    if not s._ok & b:
        _refuse(s, a)
    seat = a.seat
    i = s._i
    hands = s._hands
    if seat == 0:
        hands = (hands[0] ^ b, hands[1], hands[2])
    elif seat == 1:
        hands = (hands[0], hands[1] ^ b, hands[2])
    else:
        hands = (hands[0], hands[1], hands[2] ^ b)
    n: HandState = _new(HandState)
    n._i = i
    n._hands = hands
    n._log = (s._log, a)
    n._passes = 0
    nxt = i.next_seat[seat]
    trick = s._trick
    # The trick's best card so far (`_best`, by `_by`), ranked as
    # `cards.winner_of` ranks a trick: POWER[trump][led], the first of equals.
    if not trick:
        led = i.eff[c]
        n._phase = P_PLAY
        n._to_act = nxt
        n._trick = _PAIR1[seat][c]
        n._leader = s._leader
        n._led = led
        n._best = i.power[led][c]
        n._by = seat
        n._won = s._won
        n._tricks = s._tricks
        h = hands[nxt]
        n._ok = h & i.suit_masks[led] or h  # `_playable`, for the next seat
        return n
    led = s._led
    p = i.power[led][c]
    if p > s._best:
        best = p
        by = seat
    else:
        best = s._best
        by = s._by
    trick += _PAIR1[seat][c]
    if nxt != s._leader:  # the trick goes on
        n._phase = P_PLAY
        n._to_act = nxt
        n._trick = trick
        n._leader = s._leader
        n._led = led
        n._best = best
        n._by = by
        n._won = s._won
        n._tricks = s._tricks
        h = hands[nxt]
        n._ok = h & i.suit_masks[led] or h  # `_playable`, for the next seat
        return n
    # The trick is complete (back to its leader): its best card wins.
    w = _SEATS[by]
    won = s._won
    if w == 0:
        n._won = (won[0] + 1, won[1], won[2])
    elif w == 1:
        n._won = (won[0], won[1] + 1, won[2])
    else:
        n._won = (won[0], won[1], won[2] + 1)
    tricks = s._tricks + ((s._leader, trick, w),)  # noqa: RUF005 (faster than unpacking)
    n._tricks = tricks
    n._trick = ()
    n._led = -1
    n._best = 0
    n._by = 0
    if len(tricks) == 5:
        n._phase = P_OVER
        n._to_act = None
        n._leader = None
        n._ok = -1
    else:
        n._phase = P_PLAY
        n._to_act = w
        n._leader = w
        n._ok = hands[w]  # `_playable` before a lead: the whole hand
    return n


_SEATS = (0, 1, 2)
# A one-card trick, (seat, card) played, built once.
_PAIR1 = tuple(tuple(((s, c),) for c in range(33)) for s in range(3))


def _refuse(s: HandState, a: Action) -> NoReturn:
    """Raise `_check_play`'s refusal of a play that `apply`'s inline tests refused."""
    _check_play(s, a)
    raise AssertionError(f"{a} was refused by apply but not by _check_play")  # pragma: no cover


def _bidding(
    i: _Info, phase: int, to_act: int | None, hands: tuple[int, int, int], log: Log, passes: int
) -> HandState:
    """A state before the play (no trick yet)."""
    n: HandState = _new(HandState)
    n._i = i
    n._phase = phase
    n._to_act = to_act
    n._hands = hands
    n._trick = ()
    n._leader = None
    n._led = -1
    n._best = 0
    n._by = 0
    n._won = (0, 0, 0)
    n._tricks = ()
    n._log = log
    n._ok = -1
    n._passes = passes
    return n


# Each step takes the state, the action (by the seat to act) and its type,
# one of the phase's `_TYPES`; it makes the phase's check (`_CHECK`) where
# that can still refuse, then returns the new state.


def _step_joker(s: HandState, a: Action, t: str) -> HandState:
    x = _check_joker(s, a, t)
    i = s._i.copy()
    i.joker_suit = x
    i.up_suit = x
    return _bidding(i, P_BID1, (i.dealer + 1) % 3, s._hands, (s._log, a), 0)


def _step_bid1(s: HandState, a: Action, t: str) -> HandState:
    # (`_check_bid1` accepts both types.)
    if t == "pass":
        passes = s._passes + 1
        if passes < 3:
            return _bidding(s._i, P_BID1, (a.seat + 1) % 3, s._hands, (s._log, a), passes)
        i = s._i.copy()
        i.up_taken = False
        return _bidding(i, P_BID2, (i.dealer + 1) % 3, s._hands, (s._log, a), 0)
    i = s._i.copy()  # order
    i.maker = a.seat
    _set_trump(i, i.up_suit)
    return _bidding(i, P_PICKUP, i.dealer, s._hands, (s._log, a), 0)


def _step_pickup(s: HandState, a: Action, t: str) -> HandState:
    d = _check_pickup(s, a, t)
    i = s._i.copy()
    hands = s._hands
    if t == "pickup":
        seat = a.seat
        i.up_taken = True
        i.dealer_discard = d
        hands = _with(hands, seat, (hands[seat] | 1 << i.up) ^ 1 << d)
    else:  # leave
        i.up_taken = False
    return _bidding(i, P_MAKER, i.maker, hands, (s._log, a), 0)


def _step_bid2(s: HandState, a: Action, t: str) -> HandState:
    x = _check_bid2(s, a, t)
    if t == "pass":
        passes = s._passes + 1
        if passes < 3:
            return _bidding(s._i, P_BID2, (a.seat + 1) % 3, s._hands, (s._log, a), passes)
        return _bidding(s._i, P_OVER, None, s._hands, (s._log, a), 0)
    i = s._i.copy()  # name
    i.maker = a.seat
    _set_trump(i, x)
    return _bidding(i, P_MAKER, a.seat, s._hands, (s._log, a), 0)


def _step_maker(s: HandState, a: Action, t: str) -> HandState:
    _check_maker(s, a, t)
    if t == "alone":
        seat = a.seat
        i = s._i.copy()
        i.alone = (seat,)
        return _bidding(i, P_DEFENDER, (seat + 1) % 3, s._hands, (s._log, a), 0)
    # dummy, chosen before its cards are seen
    return _bidding(s._i, P_KEEP, s._to_act, s._hands, (s._log, a), 0)


def _step_keep(s: HandState, a: Action, t: str) -> HandState:
    """The record holds the choice and the keep as one `dummy` action: this
    one replaces the keep-less `dummy` that chose the dummy."""
    m = _check_keep(s, a, t)
    seat = a.seat
    i = s._i.copy()
    i.dummy_used = True
    i.maker_discards = (s._hands[seat] | i.dummy_mask) ^ m
    hands = _with(s._hands, seat, m)
    return _bidding(i, P_DEFENDER, (seat + 1) % 3, hands, (s._log[0], a), 0)


def _step_defender(s: HandState, a: Action, t: str) -> HandState:
    # (`_check_defender` accepts both types.)
    i = s._i
    seat = a.seat
    first = (i.maker + 1) % 3  # type: ignore[operator]
    other = (i.maker + 2) % 3  # type: ignore[operator]
    if t == "alone":
        i = i.copy()
        i.alone = tuple(sorted((*i.alone, seat)))
        i.sitting_out = other if seat == first else first
    elif seat == first:  # pass
        return _bidding(i, P_DEFENDER, other, s._hands, (s._log, a), 0)
    # Else nobody sits out: `i` stays as it is.
    n = _bidding(i, P_PLAY, None, s._hands, (s._log, a), 0)
    _start_play(n, i)
    return n


def _start_play(n: HandState, i: _Info) -> None:
    """Fix who plays and who leads. With nobody sitting out, the deal's
    `n_active` and `next_seat` (all three, in turn) hold and `i` is not
    touched; else `i` is the step's own copy."""
    out = i.sitting_out
    if out is not None:
        i.n_active = 2
        nxt = [next_seat(s, out) for s in range(3)]
        i.next_seat = (nxt[0], nxt[1], nxt[2])
    lead = opening_lead(i.dealer, i.maker, i.alone, out)  # type: ignore[arg-type]
    n._to_act = lead
    n._leader = lead
    n._ok = _playable(n, lead)


def _set_trump(i: _Info, x: int) -> None:
    i.trump = x
    i.suit_masks = SUIT_MASK[x]
    i.power = POWER[x]
    i.eff = EFF_SUIT[x]


def _with(hands: tuple[int, int, int], seat: int, m: int) -> tuple[int, int, int]:
    h = list(hands)
    h[seat] = m
    return (h[0], h[1], h[2])


# Indexed by phase, as _CHECK and _TYPES.
_STEP: tuple[Callable[[HandState, Action, str], HandState], ...] = (
    _step_joker,
    _step_bid1,
    _step_pickup,
    _step_bid2,
    _step_maker,
    _step_keep,
    _step_defender,
)


# ---------------------------------------------------------------------------
# Scoring and result


def points(state: HandState) -> list[int]:
    """Points per seat for this hand (zeros until complete, or when thrown in)."""
    i = state._i
    if state._phase != P_OVER or i.maker is None:
        return [0, 0, 0]
    maker = i.maker
    return hand_points(
        maker,
        state._won[maker],
        maker in i.alone,
        any(s != maker for s in i.alone),
        i.rules.lone_maker_march,
    )


class HandResult(TypedDict):
    """`result`'s answer: the replay result of docs/hand-record.md."""

    complete: bool
    thrown_in: bool
    maker: int | None
    trump: str | None
    alone: list[int]
    sitting_out: int | None
    tricks: list[int]
    points: list[int]


def result(state: HandState) -> HandResult:
    """The replay result of docs/hand-record.md for this state (complete or
    not): `hand_result`."""
    return hand_result(state)


def hand_result(state: HandState) -> HandResult:
    """`result`, typed (a view's `result`)."""
    i = state._i
    over = state._phase == P_OVER
    return {
        "complete": over,
        "thrown_in": over and i.maker is None,
        "maker": i.maker,
        "trump": None if i.trump is None else SUITS[i.trump],
        "alone": list(i.alone),
        "sitting_out": i.sitting_out,
        "tricks": list(state._won),
        "points": points(state),
    }


def outcome(state: HandState) -> HandOutcome:
    """How the hand went, in the rules' words: made, march, euchred or thrown
    in (None while in progress), with the dummy or alone, and the call's
    round. Not part of the replay result (docs/hand-record.md fixes its
    fields): a view's `outcome`, and `records.outcome_of` for a stored record."""
    i = state._i
    maker = i.maker
    return hand_outcome(
        state._phase == P_OVER,
        maker,
        state._won[maker] if maker is not None else 0,
        maker is not None and maker in i.alone,
        i.dummy_used or state._phase == P_KEEP,
        call_round([a.type for a in state._actions]),
    )
