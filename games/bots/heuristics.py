"""Hand strength and the bidding policy of the rule-based player.

Everything here works on bitmask cards and plain numbers, not on views, so
the search bot can run the same policy for the other seats of a sampled deal.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from games.engine.cards import EFF_SUIT, JOKER, POWER, SUIT_MASK, cards_of

# Value (roughly: tricks it takes for the maker) of each trump by its order:
# index = POWER[t][t][c] - 100 (7..A = 0..7, left 8, right 9, Joker 10).
_TRUMP_VALUE = (0.40, 0.45, 0.50, 0.55, 0.60, 0.70, 0.78, 0.82, 0.90, 1.0, 1.0)


def card_value(c: int, trump: int, hand: int) -> float:
    """What one card adds to a maker's hand."""
    if EFF_SUIT[trump][c] == trump:
        return _TRUMP_VALUE[POWER[trump][trump][c] - 100]
    r = c & 7
    if r == 7:
        return 0.55
    if r == 6:
        return 0.28 if hand >> (c | 7) & 1 else 0.15
    return 0.03 * (r - 2) if r > 2 else 0.0


def hand_value(hand: int, trump: int) -> float:
    """Estimated tricks a five-card maker hand takes with this trump."""
    sm = SUIT_MASK[trump]
    n_trump = (hand & sm[trump]).bit_count()
    v = 0.0
    for c in cards_of(hand):
        v += card_value(c, trump, hand)
    if n_trump >= 2:
        voids = sum(1 for s in range(4) if s != trump and not hand & sm[s])
        v += 0.22 * min(voids, n_trump - 1)
    if n_trump <= 1:
        v -= 0.3
    return v


def best_five(ten: int, trump: int) -> int:
    """The five of these cards that make the strongest maker hand (exhaustive)."""
    cs = cards_of(ten)
    if len(cs) <= 5:
        return ten
    best, best_v = 0, -1e9
    for combo in itertools.combinations(cs, 5):
        m = 0
        for c in combo:
            m |= 1 << c
        v = hand_value(m, trump)
        if v > best_v:
            best, best_v = m, v
    return best


def quick_five(ten: int, trump: int) -> int:
    """A fast, nearly as good keep-five: every trump first, then aces, then voids."""
    cs = cards_of(ten)
    if len(cs) <= 5:
        return ten
    sm = SUIT_MASK[trump]
    trumps = sorted(
        (c for c in cs if EFF_SUIT[trump][c] == trump), key=lambda c: -POWER[trump][trump][c]
    )
    keep = trumps[:5]
    if len(keep) < 5:
        others = [c for c in cs if EFF_SUIT[trump][c] != trump]

        # Suits with more keepers first: keeping one suit makes voids.
        def key(c: int) -> tuple[float, int]:
            return (-card_value(c, trump, ten), -(ten & sm[EFF_SUIT[trump][c]]).bit_count())

        others.sort(key=key)
        keep += others[: 5 - len(keep)]
    m = 0
    for c in keep:
        m |= 1 << c
    return m


def maker_strength(
    hand: int, trump: int, unseen: int, rng: random.Random, samples: int = 10, dummy: bool = True
) -> float:
    """Expected value of the hand as maker, taking a random dummy from `unseen` when allowed."""
    base = hand_value(hand, trump)
    if not dummy:
        return base
    pool = cards_of(unseen)
    if len(pool) < 5:
        return base
    tot = 0.0
    for _ in range(samples):
        d = 0
        for c in rng.sample(pool, 5):
            d |= 1 << c
        tot += hand_value(quick_five(hand | d, trump), trump)
    return tot / samples


def discard_for(six: int, trump: int) -> int:
    """The card to throw away from six: the weakest, preferring to make a void."""
    best, best_v = -1, -1e9
    for c in cards_of(six):
        v = hand_value(six & ~(1 << c), trump)
        if v > best_v:
            best, best_v = c, v
    return best


@dataclass(frozen=True, slots=True)
class Context:
    """Score context of one decision: `risk` raises the bar for a bid, `loner_ok` allows loners."""

    risk: float
    loner_ok: bool


def context(me: int, scores: list[int], target: int) -> Context:
    """How much the score should change the bidding."""
    others = [scores[s] for s in range(3) if s != me]
    risk = 0.0
    loner_ok = True
    if max(others) + 2 >= target:
        # A euchre would put an opponent at the target.
        risk += 0.25
        loner_ok = False
    if scores[me] + 1 >= target and scores[me] >= max(others):
        risk -= 0.2
    return Context(risk, loner_ok)


# Thresholds on maker_strength (calibrated with the double-dummy solver).
MAKE = 3.1
LONE = 4.5
DEFEND_ALONE = 4.7


def bid_threshold(seat: int, dealer: int, round_: int) -> float:
    """The bar for bidding: the dealer is last to speak and picks up, so a little lower."""
    pos = (seat - dealer) % 3
    t = MAKE
    if round_ == 2 and pos == 0:
        t -= 0.15
    return t


def order_strength(
    hand: int,
    up: int,
    up_suit: int,
    seat: int,
    dealer: int,
    unseen: int,
    rng: random.Random,
    samples: int = 10,
) -> float:
    """Strength of ordering the up card's suit, the dealer's pick-up included."""
    if seat == dealer:
        six = hand | 1 << up
        h = six & ~(1 << discard_for(six, up_suit))
        return maker_strength(h, up_suit, unseen, rng, samples)
    v = maker_strength(hand, up_suit, unseen, rng, samples)
    # The dealer (an opponent) gets the up card.
    if EFF_SUIT[up_suit][up] == up_suit:
        v -= 0.35 * _TRUMP_VALUE[POWER[up_suit][up_suit][up] - 100]
    return v


def best_suit(
    hand: int, banned: int | None, unseen: int, rng: random.Random, samples: int = 10
) -> tuple[int, float]:
    """The strongest suit to name in the second round and its strength."""
    best, best_v = -1, -1e9
    for t in range(4):
        if t == banned:
            continue
        v = maker_strength(hand, t, unseen, rng, samples)
        if v > best_v:
            best, best_v = t, v
    return best, best_v


def joker_suit_choice(hand: int) -> int:
    """Suit to name for a turned-up Joker: the dealer's strongest with the Joker."""
    return max(range(4), key=lambda t: hand_value(hand | 1 << JOKER, t))
