"""Why an action is good, as facts a person can check in their own hand.

`reasons(view, action)` reads the same seat's view as the bots (nothing
else) and returns the plain facts behind a suggested action, as
`(code, params)` pairs: cards as notation ("JH"), suits as letters ("H"),
counts as ints. The site puts them into words in the reader's language
(`games.hints`); this module knows no language and imports no Django.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.cards import (
    CARD_INDEX,
    CARD_STRS,
    EFF_SUIT,
    JOKER,
    POWER,
    SUIT_INDEX,
    SUIT_MASK,
    SUITS,
)
from games.engine.views import HandView

from .common import ORDER, Action, Knowledge, is_boss, legal_cards, trump_count
from .heuristics import hand_value

# A reason's values: cards as notation, suits as letters, counts as ints,
# the top cards and aces as lists of cards, the expected tricks as a float.
ReasonValue = str | int | float | list[str]
Reason = tuple[str, dict[str, ReasonValue]]


def reasons(view: HandView, action: Action | Mapping[str, object]) -> list[Reason]:
    """The facts behind `action` (an engine Action, or its JSON form) for the
    seat of `view` (which must be the seat to act, and `action` one of its
    legal actions)."""
    k = Knowledge.from_view(view)
    act = action if isinstance(action, Action) else Action.from_dict(dict(action))
    kind = act.type
    if kind == "play" and act.card is not None:
        return _play(k, CARD_INDEX[act.card])
    if kind in ("order", "name"):
        suit = SUIT_INDEX[act.suit] if kind == "name" and act.suit is not None else k.up_suit
        assert suit is not None
        hand = k.hand | (1 << k.up_card if k.seat == k.dealer and k.up_card is not None else 0)
        return [("make", _holding(hand, suit))]
    if kind == "pass" and k.phase in ("bid1", "bid2"):
        return [("pass_weak", _holding(k.hand, _best_suit(k)))]
    if kind == "pickup":
        assert k.up_card is not None
        out: list[Reason] = [("pickup", {"card": CARD_STRS[k.up_card]})]
        if act.discard is not None:
            out.append(_discard(k, CARD_INDEX[act.discard]))
        return out
    if kind == "leave":
        assert k.up_card is not None
        return [("leave", {"card": CARD_STRS[k.up_card]})]
    if kind == "joker_suit":
        assert act.suit is not None
        return [("joker_suit", _holding(k.hand | 1 << JOKER, SUIT_INDEX[act.suit]))]
    if kind == "alone":
        if k.phase == "maker_choice":
            assert k.trump is not None
            return [("alone_maker", _holding(k.hand, k.trump))]
        return [("alone_defender", {})]
    if kind == "pass" and k.phase == "defender_alone":
        return [("defend_together", {})]
    if kind == "dummy" and act.keep is None:
        return [("dummy", {})]
    if kind == "dummy":
        assert k.trump is not None
        keep = 0
        for c in act.keep or ():
            keep |= 1 << CARD_INDEX[c]
        return [("keep", _holding(keep, k.trump))]
    return []


def _holding(hand: int, trump: int) -> dict[str, ReasonValue]:
    """What a hand holds with this suit as trump: how many trump, the top
    ones (bowers, Joker), side aces, and the tricks the bot expects of it."""
    top = [c for c in ORDER[trump][trump][:3] if hand >> c & 1]  # the Joker, the bowers
    aces = [c for s in range(4) if s != trump for c in (s * 8 + 7,) if hand >> c & 1]
    return {
        "suit": SUITS[trump],
        "trump": trump_count(hand, trump),
        "top": [CARD_STRS[c] for c in top],
        "aces": [CARD_STRS[c] for c in aces],
        "tricks": round(hand_value(hand, trump), 1),
    }


def _best_suit(k: Knowledge) -> int:
    """The suit the seat could make: the up card's in the first round, else
    its strongest allowed suit."""
    if k.phase == "bid1" and k.up_suit is not None:
        return k.up_suit
    allowed = {SUIT_INDEX[a.suit] for a in k.legal if a.type == "name" and a.suit is not None}
    allowed = allowed or set(range(4))
    return max(allowed, key=lambda t: hand_value(k.hand, t))


def _discard(k: Knowledge, c: int) -> Reason:
    assert k.up_suit is not None
    six = k.hand | (1 << k.up_card if k.up_card is not None else 0)
    after = six & ~(1 << c)
    suit = EFF_SUIT[k.up_suit][c]
    if suit != k.up_suit and not after & SUIT_MASK[k.up_suit][suit]:
        return ("discard_void", {"card": CARD_STRS[c], "suit": SUITS[suit]})
    return ("discard_low", {"card": CARD_STRS[c]})


def _play(k: Knowledge, c: int) -> list[Reason]:
    trump = k.trump
    assert trump is not None
    card = CARD_STRS[c]
    if not k.trick:
        return _lead(k, c, trump)
    led = EFF_SUIT[trump][k.trick[0][1]]
    power = POWER[trump][led]
    winner = k.current_winner()
    assert winner is not None
    seat, best = winner
    wins = power[c] > power[best]
    last = len(k.trick) + 1 == len(k.active)
    legal = legal_cards(k)
    winners = [x for x in ORDER[trump][led] + ORDER[trump][trump] if legal >> x & 1]
    winners = [x for x in winners if power[x] > power[best]]
    following = EFF_SUIT[trump][c] == led
    if not following and EFF_SUIT[trump][c] == trump and wins:
        return [("trump_in", {"led": SUITS[led], "card": card})]
    if not following:
        return [("throw_off", {"led": SUITS[led], "card": card})]
    if wins and last:
        return [("win_last", {"card": card})]
    if wins and is_boss(c, trump, k.gone() & ~(1 << c)):
        return [("win_boss", {"card": card})]
    if wins:
        return [("win", {"card": card})]
    if not winners:
        return [("cannot_win", {"card": card, "best": CARD_STRS[best], "seat": seat})]
    return [("duck", {"card": card, "best": CARD_STRS[best], "seat": seat})]


def _lead(k: Knowledge, c: int, trump: int) -> list[Reason]:
    card = CARD_STRS[c]
    gone = k.gone() & ~(1 << c)
    if EFF_SUIT[trump][c] == trump:
        right, left = ORDER[trump][trump][1:3]  # after the Joker (in the deck or not)
        if k.hand >> right & 1 and k.hand >> left & 1:
            return [("lead_both_bowers", {"card": card})]
        if is_boss(c, trump, gone):
            return [("lead_boss_trump", {"card": card})]
        return [("lead_trump", {"card": card, "trump": trump_count(k.hand, trump)})]
    if is_boss(c, trump, gone):
        return [("lead_boss", {"card": card, "suit": SUITS[EFF_SUIT[trump][c]]})]
    return [("lead_low", {"card": card})]
