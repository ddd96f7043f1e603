"""What one seat (or a spectator) may see of a hand: docs/rules.md "What each player may see"."""

from __future__ import annotations

from typing import TypedDict

from . import actions as A
from .actions import ActionDict
from .cards import CARD_INDEX, CARD_STRS, SUITS, cards_of, sort_key
from .hand import (
    P_BID1,
    P_BID2,
    P_JOKER,
    P_KEEP,
    P_OVER,
    P_PICKUP,
    P_PLAY,
    HandResult,
    HandState,
    _may_name,
    _ten_cards,
    hand_result,
    legal_actions,
    outcome,
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
    cards.sort(key=lambda c: sort_key(c, trump))
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


def _public_action(d: ActionDict, viewer: int | None) -> ActionDict:
    if d["seat"] != viewer:
        if d["type"] == "pickup":
            d.pop("discard", None)
        elif d["type"] == "dummy":
            d.pop("keep", None)
    return d


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
    i = state._i
    ph = state._phase
    over = ph == P_OVER
    trump = i.trump
    up: str | None = None
    played = {c for t in state._tricks for _, c in t[1]} | {c for _, c in state._trick}
    if ph in (P_JOKER, P_BID1, P_PICKUP) or over or (i.up_taken and i.up not in played):
        up = CARD_STRS[i.up]
    legal: list[ActionDict] = []
    exchange = None
    if seat is not None and seat == state._to_act:
        if ph == P_KEEP:
            legal = [{"seat": seat, "type": "dummy", "keep": None}]
            exchange = _ten_cards(state)
        else:
            legal = [a.to_dict() for a in legal_actions(state)]
    hand = None if seat is None else _sorted(cards_of(state._hands[seat]), trump)
    history = [_public_action(a.to_dict(), seat) for a in state._actions]
    tricks: list[TrickDict] = [
        {"leader": ld, "cards": [(s, CARD_STRS[c]) for s, c in t], "winner": w}
        for ld, t, w in state._tricks
    ]
    res = hand_result(state) if over else None
    deal: DealDict | None = None
    if over:
        deal = {
            "hands": [[CARD_STRS[c] for c in h] for h in i.deal_hands],
            "dummy": [CARD_STRS[c] for c in i.dummy],
            "kitty": [CARD_STRS[c] for c in i.kitty],
            "discards": [discards_of(state, s) for s in range(3)],
        }
    return {
        "seat": seat,
        "rules": rules_dict(i.rules),
        "dealer": i.dealer,
        "phase": state.phase.value,
        "to_act": state._to_act,
        "hand": hand,
        "hand_counts": [h.bit_count() for h in state._hands],
        "up_card": up,
        "up_card_taken": i.up_taken,
        "turned_down": CARD_STRS[i.up] if i.up_taken is False else None,
        "banned_suit": (
            SUITS[i.up_suit]
            if ph == P_BID2 and i.up_suit >= 0 and not _may_name(i, i.up_suit)
            else None
        ),
        "up_suit": SUITS[i.up_suit] if i.up_suit >= 0 else None,
        "joker_suit": None if i.joker_suit is None else SUITS[i.joker_suit],
        "maker": i.maker,
        "trump": None if trump is None else SUITS[trump],
        "alone": list(i.alone),
        "sitting_out": i.sitting_out,
        "dummy": (
            _sorted(list(i.dummy), trump)
            if seat is not None and seat == i.maker and (i.dummy_used or ph == P_KEEP)
            else None
        ),
        "my_discards": [] if seat is None else discards_of(state, seat),
        "kitty_size": kitty_size(state),
        "history": history,
        "tricks": tricks,
        "current_trick": [(s, CARD_STRS[c]) for s, c in state._trick],
        "led_suit": SUITS[state._led] if state._trick else None,
        "leader": state._leader,
        "tricks_won": list(state._won),
        "legal_actions": legal,
        "refused": refusals(state, seat, hand),
        "exchange": exchange,
        "call": None if seat is None else call_code(i.dealer, seat),
        "call_name": None if seat is None else call_name(i.dealer, seat),
        "result": res,
        "outcome": outcome(state),
        "deal": deal,
    }
