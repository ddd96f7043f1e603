"""One hand: the state, its legal actions, and applying an action.

The state is immutable from the outside: `apply` returns a new state and
leaves the old one as it was. To keep that cheap, what the deal fixes lives
in one `_Deal` and what the bidding fixes in one `_Info`, both shared by
successive states, and the rest of a state is one tuple of ints and small
tuples (`HandState._t`), built at once.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterator
from enum import StrEnum
from random import Random
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, SupportsIndex, TypedDict, overload

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
    hand_outcome,
    hand_points,
    next_seat,
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

_CI = CARD_INDEX
_CI_get = CARD_INDEX.get
_CS = CARD_STRS
# (seat, card) pairs of a trick, built once.
_PAIR = tuple(tuple((s, c) for c in range(33)) for s in range(3))


class _Deal:
    """What a hand's deal fixes: shared by all its states, never changed."""

    __slots__ = (
        "deal_hands",
        "dealer",
        "deck",
        "dummy",
        "dummy_mask",
        "extra",
        "kitty",
        "rules",
        "up",
    )

    rules: Rules
    dealer: int
    deck: int
    deal_hands: tuple[tuple[int, ...], ...]
    dummy: tuple[int, ...]
    dummy_mask: int
    kitty: tuple[int, ...]
    up: int
    extra: ExtraFields


def _deal_field(name: str) -> Any:
    """The property reading the deal's field `name` (`_Info.d`)."""

    def get(self: _Info) -> Any:
        return getattr(self.d, name)

    return property(get)


class _Info:
    """What a hand fixes as it goes (deal, bidding outcome); shared between states.

    The deal's part is one `_Deal` (`d`), shared by every `_Info` of the hand,
    so that a step that changes the bidding outcome copies only the rest.
    """

    __slots__ = (
        "alone",
        "call_round",
        "d",
        "dealer_discard",
        "dummy_used",
        "eff",
        "joker_suit",
        "maker",
        "maker_discards",
        "next_seat",
        "power",
        "sitting_out",
        "suit_masks",
        "trump",
        "up_suit",
        "up_taken",
    )

    d: _Deal
    call_round: int | None  # the round trump was made in: 1 (ordered), 2 (named), None
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
    next_seat: tuple[int, int, int]
    suit_masks: tuple[int, ...]
    power: tuple[tuple[int, ...], ...]
    eff: tuple[int, ...]

    if TYPE_CHECKING:
        rules: Rules
        dealer: int
        deck: int
        deal_hands: tuple[tuple[int, ...], ...]
        dummy: tuple[int, ...]
        dummy_mask: int
        kitty: tuple[int, ...]
        up: int
        extra: ExtraFields
    else:
        rules = _deal_field("rules")
        dealer = _deal_field("dealer")
        deck = _deal_field("deck")
        deal_hands = _deal_field("deal_hands")
        dummy = _deal_field("dummy")
        dummy_mask = _deal_field("dummy_mask")
        kitty = _deal_field("kitty")
        up = _deal_field("up")
        extra = _deal_field("extra")

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
    src = f"def copy(self):\n    n = _Info()\n{body}    return n\n"
    ns: dict[str, object] = {"_new": _new, "_Info": _Info}
    exec(src, ns)
    return ns["copy"]  # type: ignore[return-value]


_Info.copy = _make_info_copy()  # type: ignore[method-assign,assignment]


# A state's fields, in `HandState._t`, one tuple: a new state is one tuple
# built at once and read back by unpacking it (much cheaper than setting and
# reading a dozen attributes). Their meaning is told at `HandState`.
StateTuple = tuple[Any, ...]
_I, _PHASE, _TO_ACT, _H0, _H1, _H2, _TRICK, _LEADER, _LED, _BEST, _BY = range(11)
_WON, _TRICKS, _LOG, _OK, _PASSES = range(11, 16)


def _field(k: int) -> Any:
    """The property reading field k of a state's tuple (for the code off the hot path)."""

    def get(self: HandState) -> Any:
        return self._t[k]

    return property(get)


class HandState:
    """A hand at one moment. Read it through the properties, `view` and `result`.

    Its fields, in one tuple `_t` (the properties below name them):
      _i: the hand's `_Info`, shared with the states before and after,
      _phase, _to_act,
      _hands: the three hands' masks (three fields),
      _trick: the trick in progress, (seat, card) pairs as played,
      _leader: who led it (or leads next); _led: the suit led (-1 before),
      _best, _by: the power (cards.POWER) of the trick's best card so far
        and who played it,
      _won: tricks won per seat; _tricks: the completed (leader, trick, winner),
      _log: the actions so far, newest first, as nested pairs (previous,
        action), () when none: adding one costs one small tuple,
      _ok: in the play phase, the cards the seat to act may play
        (`_playable`), else -1,
      _passes: passes so far in this bidding round.
    """

    __slots__ = ("_t",)

    _t: StateTuple

    # True once the fifth trick is complete or the hand was thrown in. A class
    # attribute, True on `_OverState` (the states of a finished hand, whose
    # phase is OVER): a playout asks it at every step, and reading it costs
    # no call (as a property did).
    over: ClassVar[bool] = False

    if TYPE_CHECKING:
        _i: _Info
        _phase: int
        _to_act: int | None
        _trick: tuple[tuple[int, int], ...]
        _leader: int | None
        _led: int
        _best: int
        _by: int
        _won: tuple[int, int, int]
        _tricks: tuple[tuple[int | None, tuple[tuple[int, int], ...], int], ...]
        _log: Log
        _ok: int
        _passes: int
    else:
        _i = _field(_I)
        _phase = _field(_PHASE)
        _to_act = _field(_TO_ACT)
        _trick = _field(_TRICK)
        _leader = _field(_LEADER)
        _led = _field(_LED)
        _best = _field(_BEST)
        _by = _field(_BY)
        _won = _field(_WON)
        _tricks = _field(_TRICKS)
        _log = _field(_LOG)
        _ok = _field(_OK)
        _passes = _field(_PASSES)

    @property
    def _hands(self) -> tuple[int, int, int]:
        t = self._t
        return (t[_H0], t[_H1], t[_H2])

    @property
    def _actions(self) -> tuple[Action, ...]:
        """Every action applied so far, oldest first."""
        return _unlog(self._t[_LOG])

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


class _OverState(HandState):
    """A finished hand's state (phase OVER): a HandState whose `over` is True.
    Only `apply` (the fifth trick) and `_step_bid2` (thrown in) make them.

    What no longer changes, worked out once when first asked and handed out
    as copies: `_row` (`score_row`): its dealer, result and outcome, which a
    game's view shows for every finished hand; `_parts`: the parts of its
    view a game's view shows as its last hand, by seat (views.over_parts).
    Neither is pickled: a state read back works them out again.
    """

    __slots__ = ("_parts", "_row")

    over = True

    _row: tuple[int, HandResult, HandOutcome]
    _parts: dict[int | None, Any]

    def __getstate__(self) -> tuple[None, dict[str, StateTuple]]:
        return None, {"_t": self._t}


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


Deal = tuple[
    tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, int, int, int],
]


def _make_deal(n: int) -> Callable[[list[int], Callable[[int], int]], Deal]:
    """A function dealing n cards from a generator's `getrandbits`: the three
    hands, the dummy and the kitty (five, five, five, five, the rest), in
    dealt order, and the masks of the hands and the dummy.

    The order is a uniformly random permutation: Fisher-Yates, but each
    random draw serves several steps (a uniform number below the product of
    their ranges, by rejection, split by % and //), about twice as fast as
    rng.shuffle and exactly uniform. The steps are written out (no loops, the
    constants in the code), and as the card swapped to position k is never
    moved again it goes to a local `ck` rather than back into the list. When
    the last draw ends with the steps of ranges 7 .. 2 (the 24- and 25-card
    decks), their choices (the draw's last digits, below 7!) pick the cards
    of positions 6 .. 0 at once, through one of `_TAIL`'s getters.
    """
    lines = ["def deal(cards, getrandbits):", "    x = cards[:]"]
    i = n - 1
    groups = _FY[n]
    for g, (p, k, ranges) in enumerate(groups):
        lines += [
            f"    r = getrandbits({k})",
            f"    while r >= {p}:",
            f"        r = getrandbits({k})",
        ]
        tail = g == len(groups) - 1 and ranges[-_TAIL_N + 1 :] == _TAIL_RANGES
        for m in ranges[: -_TAIL_N + 1] if tail else ranges:
            lines += [
                f"    j = r % {m}",
                f"    r //= {m}",
                f"    c{i} = x[j]",
                f"    x[j] = x[{i}]",
            ]
            i -= 1
    if tail:
        lines.append(
            "    " + ", ".join(f"c{k}" for k in range(_TAIL_N - 1, -1, -1)) + " = _TAIL[r](x)"
        )
    else:
        lines.append("    c0 = x[0]")

    def cs(lo: int, hi: int) -> str:
        return "(" + "".join(f"c{k}, " for k in range(lo, hi)) + ")"

    def mask(lo: int) -> str:
        # (+ as |: the cards are distinct, and adding ints is the cheaper op.)
        return " + ".join(f"b[c{k}]" for k in range(lo, lo + 5))

    lines += [
        "    b = _BIT",
        f"    hands = ({cs(0, 5)}, {cs(5, 10)}, {cs(10, 15)})",
        f"    masks = ({mask(0)}, {mask(5)}, {mask(10)}, {mask(15)})",
        f"    return hands, {cs(15, 20)}, {cs(20, n)}, masks",
    ]
    ns: dict[str, Any] = {"_BIT": _BIT, "_TAIL": _TAIL}
    exec("\n".join(lines), ns)
    return ns["deal"]  # type: ignore[no-any-return]


def _tail_getters(n: int) -> tuple[Callable[[list[int]], tuple[int, ...]], ...]:
    """_TAIL[r]: the last n - 1 Fisher-Yates steps (ranges n .. 2) on positions
    0 .. n-1 of the list, for the choices r (a number below n!, split by %
    and // as `_make_deal`'s steps split it): the getter of the cards they
    put at positions n-1, .., 1, 0, in that order."""
    out = []
    for r0 in range(math.factorial(n)):
        x = list(range(n))
        r = r0
        picked = []
        for i in range(n - 1, 0, -1):
            j = r % (i + 1)
            r //= i + 1
            picked.append(x[j])
            x[j] = x[i]
        picked.append(x[0])
        out.append(operator.itemgetter(*picked))
    return tuple(out)


_TAIL_N = 7
_TAIL_RANGES = tuple(range(_TAIL_N, 1, -1))
_TAIL = _tail_getters(_TAIL_N)
_BIT = tuple(1 << c for c in range(33))
_DEAL = {n: _make_deal(n) for n in _FY}


_DECK_LISTS = {d: deck_cards(d) for d in ("24", "32", "25")}


def new_hand(rules: Rules, dealer: int, rng: Random) -> HandState:
    """Deal a new hand from `rng` (a random.Random) with `dealer` dealing."""
    if type(dealer) is not int or not 0 <= dealer <= 2:
        raise MalformedAction("dealer must be 0, 1 or 2", ErrorCode.BAD_SEAT)
    cards = _DECK_LISTS[rules.deck]
    hands, dummy, kitty, masks = _DEAL[len(cards)](cards, rng.getrandbits)
    return _start(rules, dealer, hands, dummy, kitty, {}, masks)


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
    d = _Deal()
    d.rules = rules
    d.dealer = dealer
    d.deck = DECK_MASKS[rules.deck]
    d.deal_hands = hands
    d.dummy = dummy
    d.dummy_mask = masks[3]
    d.kitty = kitty
    up = d.up = kitty[0]
    d.extra = extra
    i = _Info()
    i.d = d
    i.joker_suit = None
    i.up_suit = -1 if up == JOKER else up >> 3
    i.maker = None
    i.call_round = None
    i.trump = None
    i.alone = ()
    i.sitting_out = None
    i.up_taken = None
    i.dealer_discard = None
    i.maker_discards = 0
    i.dummy_used = False
    i.next_seat = (1, 2, 0)
    i.suit_masks = ()
    i.power = ()
    i.eff = ()
    s = HandState()
    if up == JOKER:
        phase, to_act = P_JOKER, dealer
    else:
        phase, to_act = P_BID1, (dealer + 1) % 3
    s._t = (
        i,
        phase,
        to_act,
        masks[0],
        masks[1],
        masks[2],
        (),
        None,
        -1,
        0,
        0,
        (0, 0, 0),
        (),
        (),
        -1,
        0,
    )
    return s


# ---------------------------------------------------------------------------
# Legal actions


_new_list = list.__new__
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
        j0, j1, j2, j3, j4 = _COMBOS[k]
        return A.keep_action(
            self._seat, (_CS[ten[j0]], _CS[ten[j1]], _CS[ten[j2]], _CS[ten[j3]], _CS[ten[j4]])
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


def _chunk_table(row: tuple[Action, ...], most: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """table[p][b]: the actions of `row` (one per card) for the cards of bits
    b at bit positions 11p..11p+10 of a mask, lowest card first (as
    cards.cards_tuple): the actions of a mask are three of these. Only the
    chunks of at most `most` cards are filled (no mask asked holds more)."""

    def chunk(p: int) -> tuple[tuple[Action, ...], ...]:
        out: list[tuple[Action, ...]] = [()] * 2048
        for b in range(1, 2048):
            if b.bit_count() <= most:
                k = b.bit_length() - 1  # the highest card: last
                out[b] = out[b ^ 1 << k] + (row[11 * p + k],)
        return tuple(out)

    return (chunk(0), chunk(1), chunk(2))


# A hand in play holds at most five cards; the dealer choosing a discard six.
_PLAY_CHUNKS = tuple(_chunk_table(A.PLAY[s], 5) for s in range(3))
_PICKUP_CHUNKS = tuple(_chunk_table(A.PICKUP[s], 6) for s in range(3))


# The two choices of a first-round bid, a defender's and the maker's, by seat.
_PASS_ORDER = tuple((A.PASS[s], A.ORDER[s]) for s in range(3))
_PASS_ALONE = tuple((A.PASS[s], A.ALONE[s]) for s in range(3))
_ALONE_DUMMY = tuple((A.ALONE[s], A.DUMMY[s]) for s in range(3))


# The rules that decide what may be done now. Each is written once and used
# both to list the legal actions and to check an action being applied.


def _playable(state: HandState, seat: int) -> int:
    """The cards `seat` may play now: the suit led if they hold it (the left
    bower and the Joker count as trump), else any card."""
    t = state._t
    h: int = t[_H0 + seat]
    if t[_TRICK]:
        return h & t[_I].suit_masks[t[_LED]] or h
    return h


def _may_leave(i: _Info, seat: int) -> bool:
    """The dealer may leave the up card unless they accepted it themself."""
    return i.maker != seat


def _may_pass_bid2(i: _Info, seat: int) -> bool:
    """Stick the dealer: the dealer may not pass in the second round."""
    return not (i.d.rules.stick_the_dealer and seat == i.d.dealer)


def _may_name(i: _Info, x: int) -> bool:
    """The turned-down suit may be named only when the table allows it."""
    return i.d.rules.second_round_turned_suit or x != i.up_suit


def legal_actions(state: HandState) -> list[Action]:
    """Every action the seat to act may take now (empty once the hand is over).

    At `maker_choice` the maker chooses between `alone` and `dummy` (without
    `keep`); only at `dummy_keep`, after choosing the dummy, are the 252
    ways to keep five of the ten cards listed.
    """
    t = state._t
    ph = t[_PHASE]
    seat = t[_TO_ACT]
    if ph == P_PLAY:
        m = t[_OK]
        q0, q1, q2 = _PLAY_CHUNKS[seat]
        return [*q0[m & 2047], *q1[m >> 11 & 2047], *q2[m >> 22]]
    if ph == P_OVER or seat is None:
        return []
    i = t[_I]
    if ph == P_BID1:
        return [*_PASS_ORDER[seat]]
    if ph == P_DEFENDER:
        return [*_PASS_ALONE[seat]]
    if ph == P_PICKUP:
        m = t[_H0 + seat] | _BIT[i.d.up]
        q0, q1, q2 = _PICKUP_CHUNKS[seat]
        if i.maker != seat:  # `_may_leave`, inline
            return [*q0[m & 2047], *q1[m >> 11 & 2047], *q2[m >> 22], A.LEAVE[seat]]
        return [*q0[m & 2047], *q1[m >> 11 & 2047], *q2[m >> 22]]
    if ph == P_BID2:
        out = [A.PASS[seat]] if _may_pass_bid2(i, seat) else []
        names = A.NAME[seat]
        for x in range(4):
            if _may_name(i, x):
                out.append(names[x])
        return out
    if ph == P_MAKER:
        return [*_ALONE_DUMMY[seat]]
    if ph == P_KEEP:
        keeps: ActionList = _new_list(ActionList)  # (ActionList's __init__, without the call)
        keeps._seat = seat
        keeps._ten = cards_tuple(t[_H0 + seat] | i.d.dummy_mask)
        keeps._lazy = True
        return keeps
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
    i = s._t[_I]
    if t == "pickup":
        d = _card(a.discard, "discard", i.deck)
        if not (s._t[_H0 + a.seat] | 1 << i.d.up) & 1 << d:
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
    i = s._t[_I]
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
    ten = s._t[_H0 + a.seat] | s._t[_I].d.dummy_mask
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
    i, ph, seat, h0, h1, h2, trick, leader, led, best, by, won, tricks, log, ok, _ = state._t
    if ph != P_PLAY or action.type != "play" or action.seat != seat:
        typ = action.type
        if action.seat == seat and typ in _TYPES[ph]:
            return _STEP[ph](state, action, typ)
        _check_other(state, action)  # the refusal
        raise AssertionError(
            f"{action} was refused by apply but not by _check_other"
        )  # pragma: no cover
    # The play of a card is most of every hand, so it is handled here, with
    # `_check_play`'s tests inline (a legal play costs no call); anything
    # else gets `_check_play`'s refusal.
    try:
        c = _CI[action.card]  # type: ignore[index]
    except (KeyError, TypeError):
        _refuse(state, action)
    b = _BIT[c]
    if not ok & b:
        _refuse(state, action)
    # The card leaves the hand (- as ^: it is held, and subtracting ints is the cheaper op).
    if seat == 0:
        h0 -= b
    elif seat == 1:
        h1 -= b
    else:
        h2 -= b
    nxt = i.next_seat[seat]
    # The next seat's hand, for its `_playable` (no tuple built to index).
    h = h0 if nxt == 0 else h1 if nxt == 1 else h2
    # The trick's best card so far (`_best`, by `_by`), ranked as
    # `cards.winner_of` ranks a trick: POWER[trump][led], the first of equals.
    if not trick:
        led = i.eff[c]
        n = HandState()
        n._t = (
            i, P_PLAY, nxt, h0, h1, h2, _PAIR1[seat][c], leader, led, i.power[led][c], seat,
            won, tricks, (log, action),
            h & i.suit_masks[led] or h,  # `_playable`, for the next seat
            0,
        )  # fmt: skip
        return n
    p = i.power[led][c]
    if p > best:
        best = p
        by = seat
    trick += _PAIR1[seat][c]
    if nxt != leader:  # the trick goes on
        n = HandState()
        n._t = (
            i, P_PLAY, nxt, h0, h1, h2, trick, leader, led, best, by, won, tricks, (log, action),
            h & i.suit_masks[led] or h,  # `_playable`, for the next seat
            0,
        )  # fmt: skip
        return n
    # The trick is complete (back to its leader): its best card wins.
    if by == 0:
        won = (won[0] + 1, won[1], won[2])
    elif by == 1:
        won = (won[0], won[1] + 1, won[2])
    else:
        won = (won[0], won[1], won[2] + 1)
    tricks += ((leader, trick, by),)
    if len(tricks) == 5:
        n = _OverState()
        n._t = (i, P_OVER, None, h0, h1, h2, (), None, -1, 0, 0, won, tricks, (log, action), -1, 0)
        return n
    n = HandState()
    n._t = (
        i, P_PLAY, by, h0, h1, h2, (), by, -1, 0, 0, won, tricks, (log, action),
        h0 if by == 0 else h1 if by == 1 else h2,  # `_playable` before a lead: the whole hand
        0,
    )  # fmt: skip
    return n


# A one-card trick, (seat, card) played, built once.
_PAIR1 = tuple(tuple(((s, c),) for c in range(33)) for s in range(3))


def _refuse(s: HandState, a: Action) -> NoReturn:
    """Raise `_check_play`'s refusal of a play that `apply`'s inline tests refused."""
    _check_play(s, a)
    raise AssertionError(f"{a} was refused by apply but not by _check_play")  # pragma: no cover


def _refuse_other(s: HandState, a: Action) -> NoReturn:
    """Raise the refusal of a bidding action that a step's inline tests refused."""
    _check_other(s, a)
    raise AssertionError(f"{a} was refused by apply but not by _check_other")  # pragma: no cover


_NONE_WON = (0, 0, 0)


def _bid(
    t: StateTuple, i: _Info, phase: int, to_act: int | None, a: Action, passes: int
) -> HandState:
    """The state after bidding action `a` of the state of fields `t`: no trick
    yet, the same hands."""
    n = HandState()
    n._t = (
        i, phase, to_act, t[_H0], t[_H1], t[_H2], (), None, -1, 0, 0, _NONE_WON, (),
        (t[_LOG], a), -1, passes,
    )  # fmt: skip
    return n


# Each step takes the state, the action (by the seat to act) and its type,
# one of the phase's `_TYPES`; it makes the phase's check (`_CHECK`) where
# that can still refuse, then returns the new state.


def _step_joker(s: HandState, a: Action, typ: str) -> HandState:
    x = _check_joker(s, a, typ)
    t = s._t
    i = t[_I].copy()
    i.joker_suit = x
    i.up_suit = x
    return _bid(t, i, P_BID1, (i.d.dealer + 1) % 3, a, 0)


def _step_bid1(s: HandState, a: Action, typ: str) -> HandState:
    # (`_check_bid1` accepts both types.)
    t = s._t
    if typ == "pass":
        passes = t[_PASSES] + 1
        if passes < 3:  # (`_bid`, inline: the commonest bidding step)
            n = HandState()
            n._t = (
                t[_I], P_BID1, (a.seat + 1) % 3, t[_H0], t[_H1], t[_H2], (), None, -1, 0, 0,
                _NONE_WON, (), (t[_LOG], a), -1, passes,
            )  # fmt: skip
            return n
        i = t[_I].copy()
        i.up_taken = False
        phase, to_act = P_BID2, (i.d.dealer + 1) % 3
    else:
        i = t[_I].copy()  # order
        i.maker = a.seat
        i.call_round = 1
        i.trump, i.suit_masks, i.power, i.eff = _TRUMP[i.up_suit]
        phase, to_act = P_PICKUP, i.d.dealer
    return _bid(t, i, phase, to_act, a, 0)


def _step_pickup(s: HandState, a: Action, typ: str) -> HandState:
    # `_check_pickup`'s tests, inline: a legal pickup or leave costs no call;
    # anything else gets `_check_pickup`'s refusal.
    t = s._t
    i = t[_I]
    seat = a.seat
    h0, h1, h2 = t[_H0], t[_H1], t[_H2]
    if typ == "pickup":
        d = a.discard
        c = _CI_get(d) if d.__class__ is str else None
        held = (h0, h1, h2)[seat] | _BIT[i.d.up]
        if c is None or not held & _BIT[c]:
            _refuse_other(s, a)
        i = i.copy()
        i.up_taken = True
        i.dealer_discard = c
        hand = held ^ _BIT[c]
        if seat == 0:
            h0 = hand
        elif seat == 1:
            h1 = hand
        else:
            h2 = hand
    else:  # leave
        if i.maker == seat:
            _refuse_other(s, a)
        i = i.copy()
        i.up_taken = False
    n = HandState()
    n._t = (
        i, P_MAKER, i.maker, h0, h1, h2, (), None, -1, 0, 0, _NONE_WON, (), (t[_LOG], a), -1, 0,
    )  # fmt: skip
    return n


def _step_bid2(s: HandState, a: Action, typ: str) -> HandState:
    x = _check_bid2(s, a, typ)
    t = s._t
    if typ == "pass":
        passes = t[_PASSES] + 1
        if passes < 3:
            return _bid(t, t[_I], P_BID2, (a.seat + 1) % 3, a, passes)
        n = _OverState()  # thrown in
        n._t = (
            t[_I], P_OVER, None, t[_H0], t[_H1], t[_H2], (), None, -1, 0, 0, _NONE_WON, (),
            (t[_LOG], a), -1, 0,
        )  # fmt: skip
        return n
    i = t[_I].copy()  # name
    i.maker = a.seat
    i.call_round = 2
    i.trump, i.suit_masks, i.power, i.eff = _TRUMP[x]
    return _bid(t, i, P_MAKER, a.seat, a, 0)


def _step_maker(s: HandState, a: Action, typ: str) -> HandState:
    t = s._t
    if typ == "alone":
        seat = a.seat
        i = t[_I].copy()
        i.alone = (seat,)
        phase, to_act = P_DEFENDER, (seat + 1) % 3
    else:  # dummy, chosen before its cards are seen
        if a.keep is not None:
            _refuse_other(s, a)
        i = t[_I]
        phase, to_act = P_KEEP, t[_TO_ACT]
    return _bid(t, i, phase, to_act, a, 0)


def _step_keep(s: HandState, a: Action, typ: str) -> HandState:
    """The record holds the choice and the keep as one `dummy` action: this
    one replaces the keep-less `dummy` that chose the dummy."""
    t = s._t
    seat = a.seat
    # `_check_keep`'s tests, inline: five distinct cards (str, as it asks)
    # of the ten; anything else gets `_check_keep`'s refusal.
    ten = t[_H0 + seat] | t[_I].d.dummy_mask
    try:
        k0, k1, k2, k3, k4 = a.keep  # type: ignore[misc]
        if k0.__class__ is k1.__class__ is k2.__class__ is k3.__class__ is k4.__class__ is str:
            m = _BIT[_CI[k0]] | _BIT[_CI[k1]] | _BIT[_CI[k2]] | _BIT[_CI[k3]] | _BIT[_CI[k4]]
        else:
            m = 0
    except (KeyError, TypeError, ValueError):
        m = 0
    if m | ten != ten or m.bit_count() != 5:
        m = _check_keep(s, a, typ)  # the refusal
        raise AssertionError(f"{a} was refused by apply but not by _check_keep")  # pragma: no cover
    i = t[_I].copy()
    i.dummy_used = True
    h0, h1, h2 = t[_H0], t[_H1], t[_H2]
    if seat == 0:
        i.maker_discards = (h0 | i.d.dummy_mask) ^ m
        h0 = m
    elif seat == 1:
        i.maker_discards = (h1 | i.d.dummy_mask) ^ m
        h1 = m
    else:
        i.maker_discards = (h2 | i.d.dummy_mask) ^ m
        h2 = m
    n = HandState()
    n._t = (
        i, P_DEFENDER, (seat + 1) % 3, h0, h1, h2, (), None, -1, 0, 0, _NONE_WON, (),
        (t[_LOG][0], a), -1, 0,
    )  # fmt: skip
    return n


def _step_defender(s: HandState, a: Action, typ: str) -> HandState:
    # (`_check_defender` accepts both types.)
    t = s._t
    i = t[_I]
    seat = a.seat
    maker = i.maker
    first = (maker + 1) % 3
    if typ == "alone":
        out = (maker + 2) % 3 if seat == first else first
        # `opening_lead`, inline: the lone defender leads against a lone
        # maker, else the next active seat after them.
        alone: tuple[int, ...]
        if i.alone:  # the maker's
            alone = (maker, seat) if maker < seat else (seat, maker)
            lead = seat
        else:
            alone = (seat,)
            lead = (seat + 1) % 3
            if lead == out:
                lead = (lead + 1) % 3
        i = i.copy()
        i.alone = alone
        i.sitting_out = out
        i.next_seat = _NEXT_SKIPPING[out]
    elif seat == first:  # pass, the first defender's: the other's turn
        n = HandState()
        n._t = (
            i, P_DEFENDER, (maker + 2) % 3, t[_H0], t[_H1], t[_H2], (), None, -1, 0, 0,
            _NONE_WON, (), (t[_LOG], a), -1, 0,
        )  # fmt: skip
        return n
    else:
        # Both passed: nobody sits out, the deal's `next_seat` (all three, in
        # turn) holds and `i` stays as it is; `opening_lead` without a call.
        alone = i.alone
        lead = (alone[0] + 1) % 3 if alone else (i.d.dealer + 1) % 3
    n = HandState()
    n._t = (
        i, P_PLAY, lead, t[_H0], t[_H1], t[_H2], (), lead, -1, 0, 0, _NONE_WON, (),
        (t[_LOG], a),
        t[_H0 + lead],  # `_playable` before a lead: the whole hand
        0,
    )  # fmt: skip
    return n


# _NEXT_SKIPPING[out]: `_Info.next_seat` while `out` sits out (rules.next_seat).
_NEXT_SKIPPING = tuple(
    (next_seat(0, out), next_seat(1, out), next_seat(2, out)) for out in range(3)
)
# _TRUMP[x]: trump x and its tables, as `_Info` keeps them (trump, suit_masks, power, eff).
_TRUMP = tuple((x, SUIT_MASK[x], POWER[x], EFF_SUIT[x]) for x in range(4))


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
    t = state._t
    i = t[_I]
    maker = i.maker
    if t[_PHASE] != P_OVER or maker is None:
        return [0, 0, 0]
    alone = i.alone
    return hand_points(
        maker,
        t[_WON][maker],
        maker in alone,
        any(s != maker for s in alone),
        i.d.rules.lone_maker_march,
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
    t = state._t
    i = t[_I]
    over = t[_PHASE] == P_OVER
    trump = i.trump
    return {
        "complete": over,
        "thrown_in": over and i.maker is None,
        "maker": i.maker,
        "trump": None if trump is None else SUITS[trump],
        "alone": list(i.alone),
        "sitting_out": i.sitting_out,
        "tricks": list(t[_WON]),
        "points": points(state),
    }


def outcome(state: HandState) -> HandOutcome:
    """How the hand went, in the rules' words: made, march, euchred or thrown
    in (None while in progress), with the dummy or alone, and the call's
    round. Not part of the replay result (docs/hand-record.md fixes its
    fields): a view's `outcome`, and `records.outcome_of` for a stored record."""
    t = state._t
    i = t[_I]
    maker = i.maker
    ph = t[_PHASE]
    return hand_outcome(
        ph == P_OVER,
        maker,
        t[_WON][maker] if maker is not None else 0,
        maker is not None and maker in i.alone,
        i.dummy_used or ph == P_KEEP,
        # (`call_round` of the actions' types: the step that made trump noted it.)
        i.call_round,
    )


def score_row(state: HandState) -> tuple[int, HandResult, HandOutcome]:
    """A finished hand's dealer, `hand_result` and `outcome` (a game's score
    pad): worked out once, kept on the state, handed out as fresh copies."""
    try:
        dealer, res, out = state._row  # type: ignore[attr-defined]
    except AttributeError:
        dealer, res, out = state._t[_I].d.dealer, hand_result(state), outcome(state)
        if isinstance(state, _OverState):
            state._row = (dealer, res, out)  # never handed out: copies are
    fresh: HandResult = {
        "complete": res["complete"],
        "thrown_in": res["thrown_in"],
        "maker": res["maker"],
        "trump": res["trump"],
        "alone": list(res["alone"]),
        "sitting_out": res["sitting_out"],
        "tricks": list(res["tricks"]),
        "points": list(res["points"]),
    }
    return (
        dealer,
        fresh,
        {
            "outcome": out["outcome"],
            "maker_play": out["maker_play"],
            "call_round": out["call_round"],
        },
    )
