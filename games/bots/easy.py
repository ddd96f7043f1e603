"""The easy player: simple, human-like sense, and some mistakes.

It bids on a plain count of trumps, never goes alone, leads its best card,
wins a trick with its highest card when it can and follows low when it
cannot. One card in ten is a slip (a random legal card).
"""

from __future__ import annotations

import random

from games.engine.cards import CARD_STRS, EFF_SUIT, POWER, SUIT_INDEX, SUIT_MASK, SUITS, cards_of

from . import heuristics as H
from .common import Action, Knowledge, find, keep_action, legal_cards, play_action

MISTAKE = 0.1


def _trumps(hand: int, t: int) -> tuple[int, bool]:
    """(number of trumps, holds the right bower or the Joker)."""
    tm = hand & SUIT_MASK[t][t]
    top = any(POWER[t][t][c] >= 109 for c in cards_of(tm))
    return tm.bit_count(), top


def _wants(hand: int, t: int) -> bool:
    n, top = _trumps(hand, t)
    return n >= 3 or (n == 2 and top)


def decide(k: Knowledge, rng: random.Random) -> Action:
    """The easy bot's action."""
    legal = k.legal
    if k.phase == "dummy_keep":
        assert k.trump is not None
        keep = H.quick_five(k.exchange, k.trump)
        return keep_action(k.seat, keep)
    if len(legal) == 1:
        return legal[0]
    ph = k.phase
    if ph == "play":
        if rng.random() < MISTAKE:
            return rng.choice(legal)
        return play_action(k.seat, _card(k))
    if ph == "bid1":
        assert k.up_card is not None and k.up_suit is not None
        hand = k.hand | (1 << k.up_card if k.seat == k.dealer else 0)
        if _wants(hand, k.up_suit):
            return find(legal, "order") or legal[0]
        return find(legal, "pass") or legal[0]
    if ph == "bid2":
        options = [a for a in legal if a.type == "name" and a.suit is not None]
        best = max(options, key=lambda a: _trumps(k.hand, SUIT_INDEX[a.suit]))  # type: ignore[index]
        if _wants(k.hand, SUIT_INDEX[best.suit]) or not find(legal, "pass"):  # type: ignore[index]
            return best
        return find(legal, "pass") or legal[0]
    if ph == "dealer_pickup":
        assert k.up_card is not None and k.trump is not None
        six = k.hand | 1 << k.up_card
        t = k.trump
        # Throw the lowest non-trump card.
        off = [c for c in cards_of(six) if EFF_SUIT[t][c] != t] or cards_of(six)
        d = min(off, key=lambda c: (POWER[t][t][c], c & 7))
        return find(legal, "pickup", discard=CARD_STRS[d]) or legal[0]
    if ph == "maker_choice":
        return find(legal, "dummy") or legal[0]
    if ph == "defender_alone":
        return find(legal, "pass") or legal[0]
    if ph == "joker_suit":
        return find(legal, "joker_suit", suit=SUITS[H.joker_suit_choice(k.hand)]) or legal[0]
    return legal[0]


def _card(k: Knowledge) -> int:
    assert k.trump is not None
    t = k.trump
    cs = cards_of(legal_cards(k))
    if not k.trick:
        # Lead the best card: the highest trump or the highest ace.
        return max(cs, key=lambda c: POWER[t][EFF_SUIT[t][c]][c])
    led = EFF_SUIT[t][k.trick[0][1]]
    power = POWER[t][led]
    best = max(power[c] for _, c in k.trick)
    winners = [c for c in cs if power[c] > best]
    win_seat = max(k.trick, key=lambda sc: power[sc[1]])[0]
    maker_played = any(s == k.maker for s, _ in k.trick)
    partner_has_it = k.seat != k.maker and win_seat != k.maker and maker_played
    if winners and not partner_has_it:
        return max(winners, key=lambda c: power[c])
    return min(cs, key=lambda c: (power[c] if power[c] else 0, EFF_SUIT[t][c] == t, c & 7))
