"""What one seat (or a spectator) may see of a hand: docs/rules.md "What each player may see"."""

from __future__ import annotations

from typing import TypedDict

from . import actions as A
from .actions import ActionDict
from .cards import CARD_INDEX, CARD_STRS, N_CARDS, SUITS, cards_of, sort_key
from .hand import (
    _H0,
    _H1,
    _H2,
    _I,
    _LEADER,
    _LED,
    _LOG,
    _PHASE,
    _TO_ACT,
    _TRICK,
    _TRICKS,
    _WON,
    P_BID1,
    P_BID2,
    P_JOKER,
    P_KEEP,
    P_OVER,
    P_PICKUP,
    P_PLAY,
    PHASES,
    HandResult,
    HandState,
    StateTuple,
    _may_name,
    _OverState,
    _ten_cards,
    hand_result,
    legal_actions,
    outcome,
    score_row,
    verify,
)
from .rules import (
    ErrorCode,
    HandOutcome,
    IllegalAction,
    RulesDict,
    call_code,
    call_name,
    rules_dict,
)

# A card played to a trick: (seat, card) ("9C"); [seat, card] in JSON.
SeatCard = tuple[int, str]


class TrickDict(TypedDict):
    """A completed trick: who led, the cards in the order played, who won it."""

    leader: int | None
    cards: list[SeatCard]
    winner: int


class DealDict(TypedDict):
    """A hand's whole deal, shown once it is over."""

    hands: list[list[str]]
    dummy: list[str]
    kitty: list[str]
    discards: list[list[str]]


class Unplayable(TypedDict):
    """Why the seat to play may not play one of its cards: the IllegalAction
    that `apply` (and `verify`) raise for that play, as data."""

    card: str
    code: ErrorCode
    params: dict[str, str | int]
    message: str


class HandView(TypedDict):
    """What one seat (or a spectator, seat None) sees of a hand: `view`'s answer.

    Card lists are in display order; see `view` for each key's meaning.
    Every field is typed (its JSON is the same).
    """

    seat: int | None
    rules: RulesDict
    dealer: int | None
    phase: str | None
    to_act: int | None
    hand: list[str] | None
    hand_counts: list[int]
    up_card: str | None
    up_card_taken: bool | None
    turned_down: str | None
    banned_suit: str | None
    up_suit: str | None
    joker_suit: str | None
    maker: int | None
    trump: str | None
    alone: list[int]
    sitting_out: int | None
    dummy: list[str] | None
    my_discards: list[str]
    kitty_size: int
    history: list[ActionDict]
    tricks: list[TrickDict]
    current_trick: list[SeatCard]
    led_suit: str | None
    leader: int | None
    tricks_won: list[int]
    legal_actions: list[ActionDict]
    refused: list[Unplayable]
    exchange: list[str] | None
    call: str | None
    call_name: str | None
    result: HandResult | None
    outcome: HandOutcome
    deal: DealDict | None


def _sorted(cards: list[int], trump: int | None) -> list[str]:
    cards.sort(key=_SORT_KEYS[4 if trump is None else trump])
    return [CARD_STRS[c] for c in cards]


def discards_of(state: HandState, seat: int) -> list[str]:
    """A seat's own discards (dealer's one, maker's five), in display order."""
    i = state._i
    out = []
    if seat == i.dealer and i.dealer_discard is not None:
        out.append(i.dealer_discard)
    if seat == i.maker:
        out.extend(cards_of(i.maker_discards))
    return _sorted(out, i.trump)


def refusals(state: HandState, seat: int | None, hand: list[str] | None) -> list[Unplayable]:
    """Why each card of `hand` (the seat's, in display order) may not be played:
    asked of `verify`, the check `apply` makes, for the seat to play; [] for
    anyone else, in any other phase, or when every card may be played."""
    if state._phase != P_PLAY or seat is None or seat != state._to_act or not hand:
        return []
    out: list[Unplayable] = []
    plays = A.PLAY[seat]
    for card in hand:
        try:
            verify(state, plays[CARD_INDEX[card]])
        except IllegalAction as e:
            out.append({"card": card, "code": e.code, "params": dict(e.params), "message": str(e)})
    return out


def kitty_size(state: HandState) -> int:
    """How many cards lie face down in the kitty now: `view`'s `kitty_size`."""
    i = state._i
    # The up card is the kitty's top card (RULES.md "The deal"): face up on
    # it in the first round, then in the dealer's hand, or turned face down.
    return len(i.kitty) if i.up_taken is False else len(i.kitty) - 1


def view(state: HandState, seat: int | None) -> HandView:
    """Everything `seat` may see now (None: a spectator), as a JSON-ready dict.

    Keys:
      seat, rules (dict), dealer, phase (str), to_act (seat or None),
      hand: the seat's current cards in display order (trump first once known,
        high to low within a suit); None for a spectator,
      hand_counts: [n, n, n] cards each seat holds,
      up_card: the turned card during the first round (and the Joker-suit
        choice); afterwards only while the dealer holds it (taken, not yet
        played); the whole deal is shown once the hand is over,
      up_card_taken: None during the first round, then True/False,
      turned_down: the up card once turned down (everyone saw it), else None,
      banned_suit: in the second round, the suit nobody may name (the
        turned-down one, unless the table allows it), else None,
      up_suit: the up card's suit (the named suit for a Joker) or None,
      joker_suit, maker, trump (suit letter or None), alone (list),
      sitting_out,
      dummy: the dummy's five cards, only for the maker who used it, else None,
      my_discards: this seat's own discards (else []),
      kitty_size: how many cards lie face down in the kitty on the table now
        (a public count, for every viewer): the undealt cards (4 with the 24-card deck, 5 with
        the 25 (Joker), 12 with the 32) less the up card while it lies face
        up on them (the first round, the Joker's suit, the dealer's pick-up)
        and once the dealer took it: 3, 4 or 11; all 4, 5 or 12 once the up
        card is turned down onto them (all passed the first round, or the
        dealer left it; its face is `turned_down`). The dealer's and the
        maker's discards are not the kitty and are not counted. Unchanged once
        the hand is over; 0 in a game's view before its first deal,
      history: the public action list (a pickup's discard and a dummy's keep
        are removed unless the viewer made that action),
      tricks: completed tricks [{"leader", "cards": [[seat, card], ...], "winner"}]
        (TrickDict),
      current_trick: [[seat, card], ...] of the trick in progress,
      led_suit: the suit the trick in progress follows (the effective suit of
        its first card: a bower or the Joker leads trump), None before a lead,
      leader: who leads / led the current trick (None before play),
      tricks_won: [n, n, n],
      legal_actions: action dicts, non-empty only when seat == to_act. At
        maker_choice: `alone` and `dummy` (without "keep": the dummy is not
        seen before that choice). At dummy_keep: one {"seat", "type":
        "dummy", "keep": None}, standing for the 252 ways to keep five of
        `exchange`,
      refused: for the seat to play, in the play phase, one entry per card of
        `hand` it may not play, in `hand`'s order: {"card", "code", "params",
        "message"}, the IllegalAction `apply` raises for that play (`verify`),
        e.g. {"card": "KC", "code": "must_follow", "params": {"suit": "C"},
        "message": "You must follow clubs"}; [] when every card may be played,
        for other seats and spectators, and in every other phase,
      exchange: at dummy_keep, for the maker only, the ten cards (hand and
        dummy) to keep five of, in display order; else None,
      call: the first-round call's code for this seat, by its position (Call:
        "order" left of the dealer, "assist" next, "accept" the dealer; in
        records all three are `order`); None for a spectator,
      call_name: that call's English name ("Order it up"; None for a spectator),
      result: the replay result (HandResult) once over, else None,
      outcome: how the hand goes, in the rules' words (HandOutcome): made,
        march, euchred or thrown_in once over (None before), the maker's
        "dummy" or "alone" once chosen, the call's round (1 or 2) once made,
      deal: once over, {"hands", "dummy", "kitty", "discards"} as dealt
        (DealDict); else None.
    """
    t = state._t
    i = t[_I]
    d = i.d
    ph = t[_PHASE]
    to_act = t[_TO_ACT]
    trick = t[_TRICK]
    over = ph == P_OVER
    trump = i.trump
    up_card = d.up
    up: str | None = None
    if ph in (P_JOKER, P_BID1, P_PICKUP) or over:
        up = CARD_STRS[up_card]
    elif i.up_taken:
        played = {c for tr in t[_TRICKS] for _, c in tr[1]} | {c for _, c in trick}
        if up_card not in played:
            up = CARD_STRS[up_card]
    legal: list[ActionDict] = []
    exchange = None
    if seat is not None and seat == to_act:
        if ph == P_KEEP:
            legal = [{"seat": seat, "type": "dummy", "keep": None}]
            exchange = _ten_cards(state)
        else:
            legal = [a.to_dict() for a in legal_actions(state)]
    keys = _SORT_KEYS[4 if trump is None else trump]
    hand = None
    if seat is not None:
        cards = cards_of(t[_H0 + seat])
        cards.sort(key=keys)
        hand = [CARD_STRS[c] for c in cards]
    tricks, history = _tricks_and_history(t, seat)
    res = hand_result(state) if over else None
    deal: DealDict | None = None
    if over:
        deal = _deal(state)
    up_suit = i.up_suit
    joker_suit = i.joker_suit
    up_taken = i.up_taken
    maker = i.maker
    dealer = d.dealer
    return {
        "seat": seat,
        "rules": rules_dict(d.rules),
        "dealer": dealer,
        "phase": _PHASE_VALUES[ph],
        "to_act": to_act,
        "hand": hand,
        "hand_counts": [t[_H0].bit_count(), t[_H1].bit_count(), t[_H2].bit_count()],
        "up_card": up,
        "up_card_taken": up_taken,
        "turned_down": CARD_STRS[up_card] if up_taken is False else None,
        "banned_suit": (
            SUITS[up_suit] if ph == P_BID2 and up_suit >= 0 and not _may_name(i, up_suit) else None
        ),
        "up_suit": SUITS[up_suit] if up_suit >= 0 else None,
        "joker_suit": None if joker_suit is None else SUITS[joker_suit],
        "maker": maker,
        "trump": None if trump is None else SUITS[trump],
        "alone": list(i.alone),
        "sitting_out": i.sitting_out,
        "dummy": (
            _sorted(list(d.dummy), trump)
            if seat is not None and seat == maker and (i.dummy_used or ph == P_KEEP)
            else None
        ),
        "my_discards": [] if seat is None else discards_of(state, seat),
        # (`kitty_size`, inline.)
        "kitty_size": len(d.kitty) if up_taken is False else len(d.kitty) - 1,
        "history": history,
        "tricks": tricks,
        "current_trick": [(s, CARD_STRS[c]) for s, c in trick],
        "led_suit": SUITS[t[_LED]] if trick else None,
        "leader": t[_LEADER],
        "tricks_won": list(t[_WON]),
        "legal_actions": legal,
        "refused": refusals(state, seat, hand) if ph == P_PLAY and seat == to_act else [],
        "exchange": exchange,
        "call": None if seat is None else _CALLS[(seat - dealer) % 3],
        "call_name": None if seat is None else _CALL_NAMES[(seat - dealer) % 3],
        "result": res,
        "outcome": outcome(state),
        "deal": deal,
    }


def _tricks_and_history(
    t: StateTuple, seat: int | None
) -> tuple[list[TrickDict], list[ActionDict]]:
    """A view's `tricks` and `history` (what `seat` may see of the actions)
    from a state's fields."""
    tricks: list[TrickDict] = [
        {"leader": ld, "cards": [(s, CARD_STRS[c]) for s, c in tr], "winner": w}
        for ld, tr, w in t[_TRICKS]
    ]
    # The log, newest first (hand._unlog), each action as the viewer sees it:
    # a pickup's discard and a dummy's keep only for the seat that made it.
    history: list[ActionDict] = []
    log = t[_LOG]
    while log:
        log, a = log
        ad = a.to_dict()
        if a.seat != seat:
            typ = a.type
            if typ == "pickup":
                ad.pop("discard", None)
            elif typ == "dummy":
                ad.pop("keep", None)
        history.append(ad)
    history.reverse()
    return tricks, history


def _deal(state: HandState) -> DealDict:
    """A finished hand's `deal`, as a view shows it."""
    d = state._t[_I].d
    return {
        "hands": [[CARD_STRS[c] for c in h] for h in d.deal_hands],
        "dummy": [CARD_STRS[c] for c in d.dummy],
        "kitty": [CARD_STRS[c] for c in d.kitty],
        "discards": [discards_of(state, s) for s in range(3)],
    }


def over_parts(state: HandState, seat: int | None) -> OverParts:
    """What `view(state, seat)` of a finished hand says in its `result`,
    `outcome`, `deal`, `tricks` and `history`, without the rest (a game's
    view's `last_hand`). They no longer change: worked out once per seat,
    kept on the state (`hand._OverState`), handed out as copies."""
    try:
        known = state._parts  # type: ignore[attr-defined]
    except AttributeError:
        known = {}
        if isinstance(state, _OverState):
            state._parts = known
    parts: _KeptParts | None = known.get(seat)
    if parts is None:
        tricks, history = _tricks_and_history(state._t, seat)
        # With each action's dict: whether it holds the action's own `keep` list (to copy).
        own_keep = [
            a.keep is not None and "keep" in d for a, d in zip(state._actions, history, strict=True)
        ]
        parts = known[seat] = (_deal(state), tricks, list(zip(history, own_keep, strict=True)))
    deal, kept_tricks, kept_history = parts
    _, res, out = score_row(state)
    fresh_history: list[ActionDict] = []
    for d, copy_keep in kept_history:
        d = d.copy()  # (extra fields' values shared, as `Action.to_dict` shares them)
        if copy_keep:
            d["keep"] = list(d["keep"])  # type: ignore[arg-type]
        fresh_history.append(d)
    return (
        res,
        out,
        {
            "hands": [list(h) for h in deal["hands"]],
            "dummy": list(deal["dummy"]),
            "kitty": list(deal["kitty"]),
            "discards": [list(d) for d in deal["discards"]],
        },
        [
            {"leader": t["leader"], "cards": list(t["cards"]), "winner": t["winner"]}
            for t in kept_tricks
        ],
        fresh_history,
    )


# A finished hand's parts of its view (`over_parts`).
OverParts = tuple[HandResult, HandOutcome, DealDict, list[TrickDict], list[ActionDict]]
# What a finished hand keeps of them, by seat (copied out by `over_parts`).
_KeptParts = tuple[DealDict, list[TrickDict], list[tuple[ActionDict, bool]]]

# Display order (cards.sort_key) by trump (4: none yet), as a key for list.sort.
_SORT_KEYS = tuple(
    tuple(sort_key(c, None if x == 4 else x) for c in range(N_CARDS)).__getitem__ for x in range(5)
)
_PHASE_VALUES = tuple(p.value for p in PHASES)
# By (seat - dealer) % 3: `call_code` and `call_name` of a seat.
_CALLS = tuple(call_code(0, k) for k in range(3))
_CALL_NAMES = tuple(call_name(0, k) for k in range(3))
