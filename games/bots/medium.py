"""The rule-based player: sound bidding on hand strength, partnership defence."""

from __future__ import annotations

import random

from games.engine.cards import CARD_STRS, EFF_SUIT, POWER, SUIT_MASK, SUITS, cards_of

from . import heuristics as H
from .common import Action, Knowledge, find, is_boss, legal_cards, play_action
from .common import keep_action as common_keep


def decide(k: Knowledge, rng: random.Random) -> Action:
    """The medium bot's action for the seat whose knowledge this is."""
    legal = k.legal
    if k.phase == "dummy_keep":
        return keep_action(k)
    if len(legal) == 1:
        return legal[0]
    handler = _HANDLERS.get(k.phase)
    if handler is None:
        return legal[0]
    return handler(k, rng)


def keep_action(k: Knowledge) -> Action:
    """The maker's keep-five once the dummy's cards are known (`exchange`)."""
    assert k.trump is not None
    return common_keep(k.seat, H.best_five(k.exchange, k.trump))


def _ctx(k: Knowledge) -> H.Context:
    return H.context(k.seat, k.scores, k.target)


def _bid1(k: Knowledge, rng: random.Random) -> Action:
    assert k.up_card is not None and k.up_suit is not None
    unseen = k.deck_mask & ~k.hand & ~(1 << k.up_card)
    v = H.order_strength(k.hand, k.up_card, k.up_suit, k.seat, k.dealer, unseen, rng)
    if v - _ctx(k).risk >= H.bid_threshold(k.seat, k.dealer, 1):
        return _must(find(k.legal, "order"), k)
    return _must(find(k.legal, "pass"), k)


def _pickup(k: Knowledge, rng: random.Random) -> Action:
    assert k.up_card is not None and k.trump is not None
    d = H.discard_for(k.hand | 1 << k.up_card, k.trump)
    return _must(find(k.legal, "pickup", discard=CARD_STRS[d]), k)


def _bid2(k: Knowledge, rng: random.Random) -> Action:
    banned = None if k.turned_ok else k.up_suit
    unseen = k.deck_mask & ~k.hand
    t, v = H.best_suit(k.hand, banned, unseen, rng)
    named = find(k.legal, "name", suit=SUITS[t])
    passing = find(k.legal, "pass")
    if passing is None or (
        named is not None and v - _ctx(k).risk >= H.bid_threshold(k.seat, k.dealer, 2)
    ):
        return _must(named, k)
    return passing


def _maker(k: Knowledge, rng: random.Random) -> Action:
    assert k.trump is not None
    ctx = _ctx(k)
    if k.lone_march == 4 and ctx.loner_ok and H.hand_value(k.hand, k.trump) >= H.LONE:
        return _must(find(k.legal, "alone"), k)
    return _must(find(k.legal, "dummy"), k)


def _defender(k: Knowledge, rng: random.Random) -> Action:
    assert k.trump is not None
    if _ctx(k).loner_ok and _defence_value(k.hand, k.trump) >= H.DEFEND_ALONE:
        return _must(find(k.legal, "alone"), k)
    return _must(find(k.legal, "pass"), k)


def _defence_value(hand: int, trump: int) -> float:
    return H.hand_value(hand, trump)


def _joker(k: Knowledge, rng: random.Random) -> Action:
    return _must(find(k.legal, "joker_suit", suit=SUITS[H.joker_suit_choice(k.hand)]), k)


def _must(a: Action | None, k: Knowledge) -> Action:
    return a if a is not None else k.legal[0]


# --- play --------------------------------------------------------------------


def _play(k: Knowledge, rng: random.Random) -> Action:
    return play_action(k.seat, choose_card(k))


def choose_card(k: Knowledge) -> int:
    """The card to play."""
    assert k.trump is not None
    legal = legal_cards(k)
    cs = cards_of(legal)
    if len(cs) == 1:
        return cs[0]
    if not k.trick:
        return _lead(k, legal)
    return _follow(k, legal)


def _value_key(c: int, trump: int) -> tuple[int, int]:
    """Keep-worthiness of a card: trumps by order, then off-suit rank."""
    if EFF_SUIT[trump][c] == trump:
        return (1, POWER[trump][trump][c])
    return (0, c & 7)


def _low(cards: int, trump: int, hand: int) -> int:
    """The card to throw: lowest value, preferring a short suit (to make a void)."""
    sm = SUIT_MASK[trump]

    def key(c: int) -> tuple[int, int, int]:
        s = EFF_SUIT[trump][c]
        is_trump, r = _value_key(c, trump)
        # Never an ace or trump while something else remains; shortest suit first.
        return (is_trump, 1 if r == 7 and not is_trump else 0, r * 10 + (hand & sm[s]).bit_count())

    return min(cards_of(cards), key=key)


def _lead(k: Knowledge, legal: int) -> int:
    assert k.trump is not None
    t = k.trump
    sm = SUIT_MASK[t]
    gone = k.gone()
    trumps = legal & sm[t]
    out_trumps = k.deck_mask & sm[t] & ~gone  # trumps that others may hold
    opponents = [s for s in k.active if s != k.seat and (k.partner() != s)]
    opp_may_trump = any(not k.voids[s] >> t & 1 for s in opponents) and bool(out_trumps)
    bosses = [c for c in cards_of(legal) if is_boss(c, t, gone)]
    if k.seat == k.maker:
        # Pull trump with the boss trump while the defenders may hold trump.
        boss_trumps = [c for c in bosses if EFF_SUIT[t][c] == t]
        if boss_trumps and opp_may_trump:
            return boss_trumps[0]
        off_bosses = [c for c in bosses if EFF_SUIT[t][c] != t]
        if off_bosses:
            return max(off_bosses, key=lambda c: c & 7)
        if boss_trumps:
            return boss_trumps[0]
        if (
            trumps.bit_count() >= 2
            and opp_may_trump
            and trumps.bit_count() >= legal.bit_count() - 1
        ):
            return max(cards_of(trumps), key=lambda c: POWER[t][t][c])
        off = legal & ~trumps
        if off:
            return _low(off, t, k.hand)
        return min(cards_of(trumps), key=lambda c: POWER[t][t][c])
    # Defender leading.
    maker = k.maker
    assert maker is not None
    off = legal & ~trumps
    maker_void = k.voids[maker]
    off_bosses = [c for c in bosses if EFF_SUIT[t][c] != t and not maker_void >> EFF_SUIT[t][c] & 1]
    if off_bosses:
        return max(off_bosses, key=lambda c: c & 7)
    partner = k.partner()
    if off:
        # Lead through the maker: a suit the partner is void in (the partner
        # plays after the maker and can trump), else a low card of a suit the
        # maker still holds.
        if partner is not None and k.next_seat(k.seat) == maker:
            pv = k.voids[partner]
            ruff = [
                c
                for c in cards_of(off)
                if pv >> EFF_SUIT[t][c] & 1 and not maker_void >> EFF_SUIT[t][c] & 1
            ]
            if ruff:
                return _low(_mask(ruff), t, k.hand)
        keep_suits = [c for c in cards_of(off) if not maker_void >> EFF_SUIT[t][c] & 1]
        if keep_suits:
            return _low(_mask(keep_suits), t, k.hand)
        return _low(off, t, k.hand)
    # Only trumps: lead the boss if held, else the lowest.
    boss_trumps = [c for c in bosses if EFF_SUIT[t][c] == t]
    if boss_trumps:
        return boss_trumps[0]
    return min(cards_of(trumps), key=lambda c: POWER[t][t][c])


def _mask(cs: list[int]) -> int:
    m = 0
    for c in cs:
        m |= 1 << c
    return m


def _follow(k: Knowledge, legal: int) -> int:
    assert k.trump is not None
    t = k.trump
    led = EFF_SUIT[t][k.trick[0][1]]
    power = POWER[t][led]
    win = k.current_winner()
    assert win is not None
    ws, wc = win
    wp = power[wc]
    gone = k.gone()
    played_seats = {s for s, _ in k.trick}
    after = [s for s in k.active if s not in played_seats and s != k.seat]
    partner = k.partner()
    maker = k.maker
    winners = [c for c in cards_of(legal) if power[c] > wp]
    winners.sort(key=lambda c: power[c])
    if partner is not None and ws == partner:
        # The partner is winning: duck unless the maker, still to play, can
        # beat the partner's card and we hold a sure winner that stops him.
        if maker in after and not _safe(wc, t, led, gone, k, maker):
            sure = [c for c in winners if _safe(c, t, led, gone, k, maker)]
            if sure and EFF_SUIT[t][sure[0]] == led:
                return sure[0]
        return _low(legal, t, k.hand)
    # An opponent is winning (or, for the maker, a defender).
    if not winners:
        return _low(legal, t, k.hand)
    if not after:
        return winners[0]
    if k.seat == maker:
        safe = [c for c in winners if all(_safe_against(c, t, led, gone, k, s) for s in after)]
        if safe:
            return safe[0]
        return winners[0]
    # A defender with someone after: win cheaply if it holds against the maker.
    if maker in after:
        safe = [c for c in winners if _safe(c, t, led, gone, k, maker)]
        if safe:
            return safe[0]
        if partner in after:
            return _low(legal, t, k.hand)
        return winners[-1]
    # The maker has played and is winning; only the partner is left: take it
    # if the partner may not (cheapest winner).
    return winners[0]


def _safe(c: int, t: int, led: int, gone: int, k: Knowledge, seat: int | None) -> bool:
    if seat is None:
        return True
    return _safe_against(c, t, led, gone, k, seat)


def _safe_against(c: int, t: int, led: int, gone: int, k: Knowledge, seat: int) -> bool:
    """True if `seat` cannot beat card `c`, as far as this seat knows.

    An off-suit card is taken as safe against a seat not known to be void in
    the suit (the risk of a ruff is accepted, as people do).
    """
    power = POWER[t][led]
    v = k.voids[seat]
    out = k.deck_mask & ~gone
    pc = power[c]
    trumps_out = out & SUIT_MASK[t][t]
    if EFF_SUIT[t][c] == t:
        if v >> t & 1:
            return True
        return not any(power[x] > pc for x in cards_of(trumps_out))
    if v >> led & 1:
        return bool(v >> t & 1) or not trumps_out
    return not any(power[x] > pc for x in cards_of(out & SUIT_MASK[t][led]))


_HANDLERS = {
    "bid1": _bid1,
    "dealer_pickup": _pickup,
    "bid2": _bid2,
    "maker_choice": _maker,
    "defender_alone": _defender,
    "joker_suit": _joker,
    "play": _play,
}
