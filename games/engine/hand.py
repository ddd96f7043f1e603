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
    winner_of,
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
        "_actions",
        "_hands",
        "_i",
        "_leader",
        "_led",
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
    _won: tuple[int, int, int]
    _tricks: tuple[tuple[int | None, tuple[tuple[int, int], ...], int], ...]
    _actions: tuple[Action, ...]
    _passes: int

    def _clone(self) -> HandState:
        n: HandState = _new(HandState)
        n._i = self._i
        n._phase = self._phase
        n._to_act = self._to_act
        n._hands = self._hands
        n._trick = self._trick
        n._leader = self._leader
        n._led = self._led
        n._won = self._won
        n._tricks = self._tricks
        n._actions = self._actions
        n._passes = self._passes
        return n

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
        return list(self._actions)

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
            f"actions={len(self._actions)}>"
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


def _shuffled(cards: list[int], rng: Random) -> list[int]:
    """A uniformly random permutation of `cards` from `rng`.

    Fisher-Yates, but each random draw serves several steps (a uniform number
    below the product of their ranges, by rejection, split by divmod): about
    twice as fast as rng.shuffle and exactly uniform.
    """
    x = list(cards)
    getrandbits = rng.getrandbits
    i = len(x) - 1
    for p, k, ranges in _FY[len(x)]:
        r = getrandbits(k)
        while r >= p:
            r = getrandbits(k)
        for m in ranges:
            r, j = divmod(r, m)
            x[i], x[j] = x[j], x[i]
            i -= 1
    return x


_DECK_LISTS = {d: deck_cards(d) for d in ("24", "32", "25")}


def new_hand(rules: Rules, dealer: int, rng: Random) -> HandState:
    """Deal a new hand from `rng` (a random.Random) with `dealer` dealing."""
    if type(dealer) is not int or not 0 <= dealer <= 2:
        raise MalformedAction("dealer must be 0, 1 or 2", ErrorCode.BAD_SEAT)
    x = _shuffled(_DECK_LISTS[rules.deck], rng)
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
    s._won = (0, 0, 0)
    s._tricks = ()
    s._actions = ()
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


_PLAY_CACHE: tuple[dict[int, tuple[Action, ...]], ...] = ({}, {}, {})


def _play_list(seat: int, m: int) -> list[Action]:
    cache = _PLAY_CACHE[seat]
    r = cache.get(m)
    if r is None:
        row = A.PLAY[seat]
        r = tuple([row[c] for c in cards_tuple(m)])
        if len(cache) > 50000:
            cache.clear()
        cache[m] = r
    return list(r)


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
        return _play_list(seat, _playable(state, seat))  # type: ignore[arg-type]
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
# Applying an action: the check above, then the step (which checks nothing)


def apply(state: HandState, action: Action) -> HandState:
    """The state after `action`; raises IllegalAction/MalformedAction (as
    `verify` does) and changes nothing."""
    # The play of a card is most of every hand, so it is handled inline here;
    # everything else goes through the per-phase steps below.
    s = state
    a = action
    seat = a.seat
    if s._phase != P_PLAY or seat != s._to_act or a.type != "play":
        v = _check_other(s, a)
        return _APPLY[s._phase](s, a, a.type, v)
    # The tests of `_check_play`, inline so that a legal play (the hot path)
    # costs no call; anything else gets `_check_play`'s refusal.
    card = a.card
    try:
        c = _CI_get(card)  # type: ignore[arg-type]
    except TypeError:
        c = None
    if c is None:
        _refuse(s, a)
    b = 1 << c
    i = s._i
    hands = s._hands
    h = hands[seat]
    if not h & b:
        _refuse(s, a)
    trick = s._trick
    if trick:
        led = s._led
        if not _playable(s, seat) & b:
            _refuse(s, a)
    else:
        led = i.eff[c]
    h ^= b
    n: HandState = _new(HandState)
    n._i = i
    if seat == 0:
        n._hands = (h, hands[1], hands[2])
    elif seat == 1:
        n._hands = (hands[0], h, hands[2])
    else:
        n._hands = (hands[0], hands[1], h)
    n._actions = s._actions + (a,)  # noqa: RUF005 (faster than unpacking)
    n._passes = 0
    trick += (_PAIR[seat][c],)
    if len(trick) < i.n_active:
        n._phase = P_PLAY
        n._to_act = i.next_seat[seat]
        n._trick = trick
        n._leader = s._leader
        n._led = led
        n._won = s._won
        n._tricks = s._tricks
        return n
    # The trick is complete: the one ranking (cards.winner_of, as trick_winner).
    w = winner_of(trick, i.power[led])
    won = s._won
    if w == 0:
        n._won = (won[0] + 1, won[1], won[2])
    elif w == 1:
        n._won = (won[0], won[1] + 1, won[2])
    else:
        n._won = (won[0], won[1], won[2] + 1)
    tricks = s._tricks + ((s._leader, trick, w),)  # noqa: RUF005
    n._tricks = tricks
    n._trick = ()
    n._led = -1
    if len(tricks) == 5:
        n._phase = P_OVER
        n._to_act = None
        n._leader = None
    else:
        n._phase = P_PLAY
        n._to_act = w
        n._leader = w
    return n


def _refuse(s: HandState, a: Action) -> NoReturn:
    """Raise `_check_play`'s refusal of a play that `apply`'s inline tests refused."""
    _check_play(s, a)
    raise AssertionError(f"{a} was refused by apply but not by _check_play")  # pragma: no cover


def _next(s: HandState, a: Action, i: _Info | None = None) -> HandState:
    """A copy of `s` with `a` recorded (and a new info object if given)."""
    n = s._clone()
    n._actions = s._actions + (a,)  # noqa: RUF005 (faster than unpacking)
    if i is not None:
        n._i = i
    return n


# Each step takes the state, the action, its type and what its check returned.


def _apply_joker(s: HandState, a: Action, t: str, x: int) -> HandState:
    i = s._i.copy()
    i.joker_suit = x
    i.up_suit = x
    n = _next(s, a, i)
    n._phase = P_BID1
    n._to_act = (i.dealer + 1) % 3
    return n


def _apply_bid1(s: HandState, a: Action, t: str, _: int) -> HandState:
    i = s._i
    if t == "pass":
        passes = s._passes + 1
        if passes == 3:
            i = i.copy()
            i.up_taken = False
            n = _next(s, a, i)
            n._phase = P_BID2
            n._to_act = (i.dealer + 1) % 3
            n._passes = 0
        else:
            n = _next(s, a)
            n._to_act = (a.seat + 1) % 3
            n._passes = passes
        return n
    i = i.copy()  # order
    i.maker = a.seat
    _set_trump(i, i.up_suit)
    n = _next(s, a, i)
    n._phase = P_PICKUP
    n._to_act = i.dealer
    n._passes = 0
    return n


def _apply_pickup(s: HandState, a: Action, t: str, d: int) -> HandState:
    i = s._i.copy()
    if t == "pickup":
        seat = a.seat
        i.up_taken = True
        i.dealer_discard = d
        n = _next(s, a, i)
        n._hands = _with(s._hands, seat, (s._hands[seat] | 1 << i.up) ^ 1 << d)
    else:  # leave
        i.up_taken = False
        n = _next(s, a, i)
    n._phase = P_MAKER
    n._to_act = i.maker
    return n


def _apply_bid2(s: HandState, a: Action, t: str, x: int) -> HandState:
    if t == "pass":
        n = _next(s, a)
        passes = s._passes + 1
        if passes == 3:
            n._phase = P_OVER
            n._to_act = None
            n._passes = 0
        else:
            n._to_act = (a.seat + 1) % 3
            n._passes = passes
        return n
    i = s._i.copy()  # name
    i.maker = a.seat
    _set_trump(i, x)
    n = _next(s, a, i)
    n._phase = P_MAKER
    n._to_act = a.seat
    n._passes = 0
    return n


def _apply_maker(s: HandState, a: Action, t: str, _: int) -> HandState:
    if t == "alone":
        seat = a.seat
        i = s._i.copy()
        i.alone = (seat,)
        n = _next(s, a, i)
        n._phase = P_DEFENDER
        n._to_act = (seat + 1) % 3
        return n
    n = _next(s, a)  # dummy, chosen before its cards are seen
    n._phase = P_KEEP
    return n


def _apply_keep(s: HandState, a: Action, t: str, m: int) -> HandState:
    """The record holds the choice and the keep as one `dummy` action: this
    one replaces the keep-less `dummy` that chose the dummy."""
    seat = a.seat
    i = s._i.copy()
    i.dummy_used = True
    i.maker_discards = (s._hands[seat] | i.dummy_mask) ^ m
    n = s._clone()
    n._actions = s._actions[:-1] + (a,)  # noqa: RUF005
    n._i = i
    n._hands = _with(s._hands, seat, m)
    n._phase = P_DEFENDER
    n._to_act = (seat + 1) % 3
    return n


def _apply_defender(s: HandState, a: Action, t: str, _: int) -> HandState:
    i = s._i
    seat = a.seat
    first = (i.maker + 1) % 3  # type: ignore[operator]
    other = (i.maker + 2) % 3  # type: ignore[operator]
    if t == "alone":
        i = i.copy()
        i.alone = tuple(sorted((*i.alone, seat)))
        i.sitting_out = other if seat == first else first
        n = _next(s, a, i)
        _start_play(n, i)
    elif seat == first:  # pass
        n = _next(s, a)
        n._to_act = other
    else:
        i = i.copy()
        n = _next(s, a, i)
        _start_play(n, i)
    return n


def _start_play(n: HandState, i: _Info) -> None:
    """Fix who plays and who leads."""
    out = i.sitting_out
    if out is None:
        i.n_active = 3
        i.next_seat = (1, 2, 0)
    else:
        i.n_active = 2
        nxt = [next_seat(s, out) for s in range(3)]
        i.next_seat = (nxt[0], nxt[1], nxt[2])
    lead = opening_lead(i.dealer, i.maker, i.alone, out)  # type: ignore[arg-type]
    n._phase = P_PLAY
    n._to_act = lead
    n._leader = lead
    n._trick = ()
    n._led = -1


def _set_trump(i: _Info, x: int) -> None:
    i.trump = x
    i.suit_masks = SUIT_MASK[x]
    i.power = POWER[x]
    i.eff = EFF_SUIT[x]


def _with(hands: tuple[int, int, int], seat: int, m: int) -> tuple[int, int, int]:
    h = list(hands)
    h[seat] = m
    return (h[0], h[1], h[2])


# Indexed by phase, as _CHECK.
_APPLY: tuple[Callable[[HandState, Action, str, int], HandState], ...] = (
    _apply_joker,
    _apply_bid1,
    _apply_pickup,
    _apply_bid2,
    _apply_maker,
    _apply_keep,
    _apply_defender,
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
