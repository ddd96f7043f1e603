"""The search player: determinized Monte Carlo with an exact solver of the play.

For a decision it samples deals consistent with everything its seat knows
(its cards, the cards played and who showed out of which suit, the dealer's
known up card, its own discards; the other hands, the dummy and the kitty
unknown), weighting them by what the bidding said, and in each sampled deal
scores every candidate action:

- in the play, by solving the rest of the hand double-dummy (`solver.Solver`)
  after the candidate card;
- before the play (bids, pick-up, discard, alone, keep-five), by finishing the
  auction and the exchange with the rule-based policy for every later decision
  and then solving the play.

An outcome is valued by how much it changes this seat's chance of winning
the game (`winprob`: the target, the tie rule, the others' scores), and a
call to make trump gets a small measured bonus. The action with the best
mean wins; sampling stops at the sample budget, at the time budget, or
early when one action is clearly ahead.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import CARD_INDEX, CARD_STRS, JOKER, SUIT_MASK, SUITS, cards_of
from games.engine.rules import hand_points, opening_lead

from . import heuristics as H
from . import medium
from .common import ORDER, Action, Knowledge, find, legal_cards, trump_count
from .solver import Solver
from .winprob import chances

# Sample budgets when no time budget is given (deterministic for a given rng).
PLAY_SAMPLES = 48
BID_SAMPLES = 64
MIN_SAMPLES = 12
# Safety cap on the wall time of one decision without a time budget (read at
# each decision: the duel tool lifts it so that its figures follow the seed).
CAP_MS = 700.0
# Making trump with two trumps or more is worth this much more than the
# simulation says: it finishes the hand with a quick keep-five and the
# rule-based auction, which undervalue the maker's hand. Chosen with the duel
# tool (README: 0, 0.3, 0.6 and 1.0 against hard_v1 over the same 300 deals).
CALL_BONUS = 0.6
# The expert level: the same method with this many times the samples, and
# its own cap (at most 2 s a decision).
EXPERT_SCALE = 4
EXPERT_CAP_MS = 1900.0
# Outcomes are valued by the change in this seat's chance of winning the game
# (games.bots.winprob), times this scale: at 0-0-0 to 10 a point of one's
# own is then worth about 1, as in the points the tallies used to count.
WIN_SCALE = 12.8


@dataclass(slots=True)
class Tally:
    """Running statistics of one candidate action."""

    action: Action
    total: float = 0.0
    sq: float = 0.0
    n: int = 0
    best: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else -1e9

    def add(self, v: float) -> None:
        self.total += v
        self.sq += v * v
        self.n += 1


# --- scoring -----------------------------------------------------------------


def utility(pts: list[int], me: int, scores: list[int], target: int) -> float:
    """Value of a hand's points for `me`: how much they change its chance of
    winning the game (the target, the tie rule and the others' positions
    count: near the end a euchre that carries an opponent past the target
    costs far more than two points at 0-0-0)."""
    new = [scores[s] + pts[s] for s in range(3)]
    return WIN_SCALE * (chances(new, target)[me] - chances(scores, target)[me])


def thresholds(defender_alone: bool) -> tuple[int, ...]:
    return (1, 3, 5) if defender_alone else (3, 5)


def solve_bucket(
    solver: Solver,
    hands: list[int],
    to_act: int,
    trick: list[tuple[int, int]],
    won: int,
    defender_alone: bool,
    card: int | None = None,
) -> int:
    """Maker's final tricks, rounded down to the nearest score step (0, 1, 3, 5)."""
    got = 0
    for thr in thresholds(defender_alone):
        need = thr - won
        if need <= 0:
            ok = True
        elif card is None:
            ok = solver.at_least(hands, to_act, trick, need)
        else:
            ok = solver.at_least_after(hands, to_act, trick, card, need)
        if not ok:
            break
        got = thr
    return got


# --- sampling ----------------------------------------------------------------


def _pick(pool: list[int], n: int, rng: random.Random) -> int:
    m = 0
    for c in rng.sample(pool, n):
        m |= 1 << c
    return m


def deal_others(
    k: Knowledge,
    rng: random.Random,
    counts: dict[int, int],
    fixed: dict[int, int],
    pool: int,
    weight: Any = None,
    tries: int = 60,
) -> dict[int, int] | None:
    """Random hands for the seats in `counts`, from `pool`, respecting known voids.

    `fixed[s]` cards are added to seat s (not counted in `counts`); `weight`
    (hands -> probability of keeping the sample) weights by what bids said.
    """
    cards = cards_of(pool)
    total = sum(counts.values())
    if total > len(cards):
        return None
    seats = list(counts)
    vm = {s: _void_mask(k, s) for s in seats}
    for attempt in range(tries):
        rng.shuffle(cards)
        out: dict[int, int] = {}
        i = 0
        ok = True
        for s in seats:
            m = 0
            for c in cards[i : i + counts[s]]:
                m |= 1 << c
            i += counts[s]
            if m & vm[s]:
                ok = False
                break
            out[s] = m | fixed.get(s, 0)
        if not ok:
            continue
        if weight is not None and attempt < tries - 1 and rng.random() > weight(out):
            continue
        return out
    return _deal_constrained(cards, counts, fixed, vm, rng)


def _deal_constrained(
    cards: list[int],
    counts: dict[int, int],
    fixed: dict[int, int],
    vm: dict[int, int],
    rng: random.Random,
) -> dict[int, int] | None:
    """Fallback: deal the most constrained seat first (not uniform, always consistent)."""
    left = list(cards)
    rng.shuffle(left)
    out: dict[int, int] = {}
    order = sorted(counts, key=lambda s: sum(1 for c in left if not vm[s] >> c & 1))
    for s in order:
        ok = [c for c in left if not vm[s] >> c & 1]
        if len(ok) < counts[s]:
            return None
        chosen = ok[: counts[s]]
        m = 0
        for c in chosen:
            m |= 1 << c
            left.remove(c)
        out[s] = m | fixed.get(s, 0)
    return out


def _void_mask(k: Knowledge, s: int) -> int:
    if k.trump is None:
        return 0
    m = 0
    for suit in range(4):
        if k.voids[s] >> suit & 1:
            m |= SUIT_MASK[k.trump][suit]
    return m


def _maker_weight(k: Knowledge) -> Any:
    """Makers who bid hold trump: weight a sample by the maker's trumps."""
    maker = k.maker
    t = k.trump
    if maker is None or t is None or maker == k.seat:
        return None
    played_by_maker = 0
    for _, cs, _ in k.tricks:
        for s, c in cs:
            if s == maker:
                played_by_maker |= 1 << c
    for s, c in k.trick:
        if s == maker:
            played_by_maker |= 1 << c
    tm = SUIT_MASK[t][t]
    used = any(a.get("type") == "dummy" for a in k.history)
    if maker in k.alone:
        table = (0.01, 0.03, 0.2, 0.6, 1.0, 1.0)
    elif used:
        # Five kept out of ten: makers rarely keep fewer than three trumps.
        table = (0.01, 0.04, 0.25, 0.8, 1.0, 1.0)
    else:
        table = (0.04, 0.15, 0.5, 0.9, 1.0, 1.0)

    def w(hands: dict[int, int]) -> float:
        n = ((hands[maker] | played_by_maker) & tm).bit_count()
        return table[min(n, 5)]

    return w


# --- the play ----------------------------------------------------------------


def _distinct_moves(k: Knowledge, legal: int) -> list[int]:
    """One card of each run of cards that are equal for this seat."""
    assert k.trump is not None
    live = k.deck_mask & ~(k.played & ~_trick_mask(k))
    live &= ~k.discards
    out: list[int] = []
    for s in range(4):
        prev = False
        for c in ORDER[k.trump][s]:
            b = 1 << c
            if live & b:
                if legal & b:
                    if not prev:
                        out.append(c)
                    prev = True
                elif not k.hand & b:
                    prev = False
    return out


def _trick_mask(k: Knowledge) -> int:
    m = 0
    for _, c in k.trick:
        m |= 1 << c
    return m


def _play_world(k: Knowledge, rng: random.Random) -> list[int] | None:
    assert k.trump is not None
    fixed: dict[int, int] = {}
    up = k.up_in_dealer_hand()
    if up is not None and k.dealer != k.seat:
        fixed[k.dealer] = 1 << up
    counts = {}
    for s in k.active:
        if s != k.seat:
            counts[s] = k.hand_counts[s] - fixed.get(s, 0).bit_count()
    got = deal_others(k, rng, counts, fixed, k.unseen(), _maker_weight(k))
    if got is None:
        return None
    hands = [0, 0, 0]
    hands[k.seat] = k.hand
    for s, m in got.items():
        hands[s] = m
    return hands


def _rank_play(
    k: Knowledge, rng: random.Random, budget_ms: int | None, expert: bool, capped: bool = True
) -> list[Tally]:
    assert k.trump is not None and k.maker is not None
    legal = legal_cards(k)
    moves = _distinct_moves(k, legal)
    tallies = [Tally({"seat": k.seat, "type": "play", "card": CARD_STRS[c]}) for c in moves]
    if len(moves) <= 1:
        return tallies
    maker = k.maker
    def_alone = any(s != maker for s in k.alone)
    maker_alone = maker in k.alone
    won = k.tricks_won[maker]
    values: dict[int, float] = {}
    for thr in (0, 1, 3, 5):
        values[thr] = utility(
            hand_points(maker, thr, maker_alone, def_alone, k.lone_march),
            k.seat,
            k.scores,
            k.target,
        )

    def one(world_rng: random.Random) -> list[float] | None:
        hands = _play_world(k, world_rng)
        if hands is None:
            return None
        solver = Solver(k.trump, maker, k.sitting_out)  # type: ignore[arg-type]
        return [
            values[solve_bucket(solver, hands, k.seat, k.trick, won, def_alone, c)] for c in moves
        ]

    _run(tallies, one, rng, budget_ms, PLAY_SAMPLES, expert, capped)
    # A tie in the search is broken by the rule-based choice.
    pref = medium.choose_card(k)
    for t, c in zip(tallies, moves, strict=True):
        if c == pref or _same_run(k, c, pref):
            t.total += 1e-6 * max(t.n, 1)
    return tallies


def _same_run(k: Knowledge, a: int, b: int) -> bool:
    """True if cards a and b are equal for this seat (a the one searched)."""
    return _distinct_moves(k, (1 << a) | (1 << b)) == [a]


def _run(
    tallies: list[Tally],
    one: Any,
    rng: random.Random,
    budget_ms: int | None,
    max_samples: int,
    expert: bool,
    capped: bool = True,
) -> None:
    """Sample worlds until the budget is spent or one action is clearly best.
    Without a budget, `capped` stops a decision at CAP_MS of wall time; not
    capped, the samples alone decide, so the choice follows the rng only."""
    start = time.perf_counter()
    cap = (EXPERT_CAP_MS if expert else CAP_MS) if capped else math.inf
    limit = (budget_ms if budget_ms is not None else cap) / 1000.0
    n_max = max_samples * (EXPERT_SCALE if expert else 1) if budget_ms is None else 10_000
    n = 0
    fails = 0
    while n < n_max:
        seed = rng.getrandbits(64)
        vals = one(random.Random(seed))
        if vals is None:
            fails += 1
            if fails > 20:
                break
            continue
        best = max(vals)
        for t, v in zip(tallies, vals, strict=True):
            t.add(v)
            if v == best:
                t.best += 1
        n += 1
        if time.perf_counter() - start > limit and n >= 1:
            break
        if n >= MIN_SAMPLES and n % 4 == 0 and _clear(tallies):
            break


def _clear(tallies: list[Tally]) -> bool:
    """One action is ahead of all the others by a clear margin (or all are equal)."""
    ranked = sorted(tallies, key=lambda t: -t.mean)
    a, b = ranked[0], ranked[1]
    if a.n < 2:
        return False
    var_a = max(a.sq / a.n - a.mean**2, 0.0)
    var_b = max(b.sq / b.n - b.mean**2, 0.0)
    se = math.sqrt((var_a + var_b) / a.n)
    return a.mean - b.mean > 3.0 * se + 1e-9 or (var_a == 0 and var_b == 0 and a.n >= 16)


# --- before the play ------------------------------------------------------------


@dataclass(slots=True)
class World:
    """A sampled deal as the hand stands now, for finishing the auction."""

    hands: list[int]
    dummy: int
    up: int
    rng: random.Random
    # What is fixed already:
    maker: int | None = None
    trump: int | None = None
    alone: list[int] = field(default_factory=list)
    dummy_used: bool = False


def _bid_world(k: Knowledge, rng: random.Random) -> World | None:
    """A whole deal consistent with this seat's view, before the play."""
    hand = k.hand
    pool = k.deck_mask & ~hand & ~k.discards & ~k.dummy
    up: int | None = k.up_card if k.up_card is not None else k.turned_down
    if up is None and k.phase in ("bid2", "maker_choice", "dummy_keep", "defender_alone"):
        # The dealer discarded the up card: its suit is known, the card not.
        if k.joker_suit is not None:
            cands = [JOKER] if pool >> JOKER & 1 else []
        else:
            cands = [
                c
                for c in cards_of(pool)
                if k.up_suit is not None and c >> 3 == k.up_suit and c != JOKER
            ]
        if not cands:
            cands = cards_of(pool)
        up = rng.choice(cands)
    assert up is not None
    pool &= ~(1 << up)
    fixed: dict[int, int] = {}
    counts: dict[int, int] = {}
    dealer_has_up = bool(k.up_taken) and k.dealer != k.seat
    for s in range(3):
        if s == k.seat:
            continue
        if dealer_has_up and s == k.dealer:
            fixed[s] = 1 << up
            counts[s] = 4
        else:
            counts[s] = 5
    used = k.maker is not None and any(a.get("type") == "dummy" for a in k.history)
    weight = _bid_weight(k)
    got = deal_others(k, rng, counts, fixed, pool, weight, tries=40)
    if got is None:
        return None
    hands = [0, 0, 0]
    hands[k.seat] = hand
    rest = pool
    for s, m in got.items():
        hands[s] = m
        rest &= ~m
    maker = k.maker
    if used and maker is not None and maker != k.seat and k.trump is not None:
        # The maker kept the best five of ten: draw five more and let him choose.
        extra = _pick(cards_of(rest), 5, rng)
        rest &= ~extra
        hands[maker] = H.quick_five(hands[maker] | extra, k.trump)
    if k.dummy:
        dummy = k.dummy
    elif k.exchange:
        dummy = k.exchange & ~hand
    elif used:
        dummy = 0  # already taken by the maker
    else:
        dummy = _pick(cards_of(rest), min(5, rest.bit_count()), rng)
    w = World(hands, dummy, up, random.Random(rng.getrandbits(32)))
    w.maker = k.maker
    w.trump = k.trump
    w.alone = list(k.alone)
    w.dummy_used = used
    return w


def _bid_events(k: Knowledge) -> list[tuple[int, str, str | None]]:
    """The other seats' bids so far: (seat, "pass1" | "pass2" | "order" | "name", suit)."""
    events: list[tuple[int, str, str | None]] = []
    phase = "bid1"
    passes = 0
    for a in k.history:
        t = a.get("type")
        s = a.get("seat")
        if phase == "bid1" and t == "pass":
            passes += 1
            if isinstance(s, int) and s != k.seat:
                events.append((s, "pass1", None))
            if passes == 3:
                phase = "bid2"
        elif phase == "bid2" and t == "pass":
            if isinstance(s, int) and s != k.seat:
                events.append((s, "pass2", None))
        elif t in ("order", "name"):
            if isinstance(s, int) and s != k.seat:
                events.append((s, str(t), a.get("suit")))
            phase = "after"
    return events


def _bid_weight(k: Knowledge) -> Any:
    """Weight a sampled deal by how well it explains the others' bids (a medium-like model)."""
    events = _bid_events(k)
    if not events or k.up_suit is None:
        return None
    up_suit = k.up_suit
    dealer = k.dealer
    turned_ok = k.turned_ok

    def w(hands: dict[int, int]) -> float:
        p = 1.0
        for s, what, suit in events:
            h = hands.get(s)
            if h is None:
                continue
            if what in ("pass1", "order"):
                v = H.hand_value(h, up_suit) + 0.55 + (0.4 if s == dealer else 0.0)
                strong = v >= H.MAKE
                if what == "pass1":
                    p *= 0.3 if strong else 1.0
                else:
                    p *= 1.0 if strong else 0.35
            elif what == "pass2":
                v = max(H.hand_value(h, t) for t in range(4) if turned_ok or t != up_suit) + 0.55
                p *= 0.3 if v >= H.MAKE else 1.0
            elif what == "name" and suit is not None:
                v = H.hand_value(h, SUITS.index(suit)) + 0.55
                p *= 1.0 if v >= H.MAKE else 0.35
        return p

    return w


def _finish(k: Knowledge, w: World, first: Action) -> float:
    """Play the hand out from the current phase with `first` as this seat's action."""
    sim = _Sim(k, w)
    sim.step(first)
    return sim.run()


class _Sim:
    """The rest of the auction by the rule-based policy, then the play solved."""

    def __init__(self, k: Knowledge, w: World) -> None:
        self.k = k
        self.w = w
        self.hands = list(w.hands)
        self.phase = k.phase
        self.to_act = k.to_act if k.to_act is not None else k.seat
        self.dealer = k.dealer
        self.maker = w.maker
        self.trump = w.trump
        self.up_suit = k.up_suit if k.up_suit is not None else (w.up >> 3 if w.up != JOKER else 0)
        self.alone: list[int] = list(w.alone)
        self.sitting_out: int | None = k.sitting_out
        self.dummy_used = w.dummy_used
        self.passes = _passes_in_round(k)
        self.thrown = False

    # One decision; `a` uses the record's action shapes.
    def step(self, a: Action) -> None:
        t = a["type"]
        s = a["seat"]
        if t == "joker_suit":
            self.up_suit = SUITS.index(a["suit"])
            self.phase = "bid1"
            self.to_act = (self.dealer + 1) % 3
            self.passes = 0
        elif t == "pass" and self.phase == "bid1":
            self.passes += 1
            if self.passes == 3:
                self.phase, self.passes = "bid2", 0
            self.to_act = (s + 1) % 3
        elif t == "order":
            self.maker, self.trump = s, self.up_suit
            self.phase = "dealer_pickup"
            self.to_act = self.dealer
        elif t == "pickup":
            d = 1 << _card_index(a["discard"])
            self.hands[self.dealer] = (self.hands[self.dealer] | 1 << self.w.up) & ~d
            self._to_maker()
        elif t == "leave":
            self._to_maker()
        elif t == "pass" and self.phase == "bid2":
            self.passes += 1
            if self.passes == 3:
                self.thrown = True
                self.phase = "over"
            self.to_act = (s + 1) % 3
        elif t == "name":
            self.maker, self.trump = s, SUITS.index(a["suit"])
            self._to_maker()
        elif t == "alone" and self.phase == "maker_choice":
            self.alone = [s]
            self.phase = "defender_alone"
            self.to_act = (s + 1) % 3
        elif t == "dummy":
            if "keep" in a:
                keep = 0
                for c in a["keep"]:
                    keep |= 1 << _card_index(c)
            else:
                assert self.trump is not None
                keep = H.quick_five(self.hands[s] | self.w.dummy, self.trump)
            self.hands[s] = keep
            self.dummy_used = True
            self.phase = "defender_alone"
            self.to_act = (s + 1) % 3
        elif t == "alone" and self.phase == "defender_alone":
            assert self.maker is not None
            self.alone = sorted([*self.alone, s])
            first = (self.maker + 1) % 3
            self.sitting_out = (self.maker + 2) % 3 if s == first else first
            self.phase = "play"
        elif t == "pass" and self.phase == "defender_alone":
            assert self.maker is not None
            if s == (self.maker + 1) % 3:
                self.to_act = (self.maker + 2) % 3
            else:
                self.phase = "play"
        else:  # pragma: no cover - the candidates come from the legal list
            raise ValueError(f"cannot simulate {a}")

    def _to_maker(self) -> None:
        self.phase = "maker_choice"
        self.to_act = self.maker  # type: ignore[assignment]

    def policy(self) -> Action:
        """The rule-based choice for the seat to act in the sampled deal."""
        s = self.to_act
        h = self.hands[s]
        rng = self.w.rng
        k = self.k
        sc = k.scores
        ctx = H.context(s, sc, k.target)
        if self.phase == "bid1":
            v = H.order_strength(
                h,
                self.w.up,
                self.up_suit,
                s,
                self.dealer,
                k.deck_mask & ~h & ~(1 << self.w.up),
                rng,
                4,
            )
            if v - ctx.risk >= H.bid_threshold(s, self.dealer, 1):
                return {"seat": s, "type": "order"}
            return {"seat": s, "type": "pass"}
        if self.phase == "dealer_pickup":
            assert self.trump is not None
            d = H.discard_for(h | 1 << self.w.up, self.trump)
            return {"seat": s, "type": "pickup", "discard": CARD_STRS[d]}
        if self.phase == "bid2":
            banned = None if k.turned_ok else self.up_suit
            t, v = H.best_suit(h, banned, k.deck_mask & ~h, rng, 3)
            stuck = k.stick and s == self.dealer
            if stuck or v - ctx.risk >= H.bid_threshold(s, self.dealer, 2):
                return {"seat": s, "type": "name", "suit": SUITS[t]}
            return {"seat": s, "type": "pass"}
        if self.phase == "maker_choice":
            assert self.trump is not None
            if k.lone_march == 4 and ctx.loner_ok and H.hand_value(h, self.trump) >= H.LONE:
                return {"seat": s, "type": "alone"}
            return {"seat": s, "type": "dummy"}
        if self.phase == "defender_alone":
            assert self.trump is not None
            if ctx.loner_ok and H.hand_value(h, self.trump) >= H.DEFEND_ALONE:
                return {"seat": s, "type": "alone"}
            return {"seat": s, "type": "pass"}
        raise AssertionError(self.phase)

    def run(self) -> float:
        k = self.k
        guard = 0
        while self.phase not in ("play", "over"):
            self.step(self.policy())
            guard += 1
            if guard > 20:  # pragma: no cover
                break
        if self.thrown or self.maker is None or self.trump is None:
            return utility([0, 0, 0], k.seat, k.scores, k.target)
        maker = self.maker
        out = self.sitting_out
        lead = opening_lead(self.dealer, maker, self.alone, out)
        hands = list(self.hands)
        if out is not None:
            hands[out] = 0
        def_alone = any(s != maker for s in self.alone)
        solver = Solver(self.trump, maker, out)
        T = solve_bucket(solver, hands, lead, [], 0, def_alone)
        pts = hand_points(maker, T, maker in self.alone, def_alone, k.lone_march)
        return utility(pts, k.seat, k.scores, k.target)


def _card_index(c: str) -> int:
    return CARD_INDEX[c]


def _passes_in_round(k: Knowledge) -> int:
    """Passes so far in the bidding round in progress."""
    passes = sum(1 for a in k.history if a.get("type") == "pass")
    if k.phase == "bid1":
        return passes
    if k.phase == "bid2":
        return passes - 3
    return 0


def _bid_candidates(k: Knowledge) -> list[Action]:
    """Candidate actions before the play (a few discards when picking up)."""
    legal = k.legal
    if k.phase == "dummy_keep":
        assert k.trump is not None
        return _keep_candidates(k)
    if k.phase == "dealer_pickup":
        assert k.up_card is not None and k.trump is not None
        six = k.hand | 1 << k.up_card
        ranked = sorted(cards_of(six), key=lambda c: -H.hand_value(six & ~(1 << c), k.trump))  # type: ignore[arg-type]
        out = [
            a for c in ranked[:3] if (a := find(legal, "pickup", discard=CARD_STRS[c])) is not None
        ]
        leave = find(legal, "leave")
        if leave is not None:
            out.append(leave)
        return out or legal
    return legal


def _keep_candidates(k: Knowledge, n: int = 6) -> list[Action]:
    """The best few keep-fives by hand strength, for the search to choose from."""
    assert k.trump is not None
    cs = cards_of(k.exchange)
    scored = []
    for combo in itertools.combinations(cs, 5):
        m = 0
        for c in combo:
            m |= 1 << c
        scored.append((H.hand_value(m, k.trump), m))
    scored.sort(key=lambda x: -x[0])
    return [
        {"seat": k.seat, "type": "dummy", "keep": [CARD_STRS[c] for c in cards_of(m)]}
        for _, m in scored[:n]
    ]


def _rank_bid(
    k: Knowledge, rng: random.Random, budget_ms: int | None, expert: bool, capped: bool = True
) -> list[Tally]:
    cands = _bid_candidates(k)
    tallies = [Tally(a) for a in cands]
    if len(cands) <= 1:
        return tallies

    def one(world_rng: random.Random) -> list[float] | None:
        w = _bid_world(k, world_rng)
        if w is None:
            return None
        seed = world_rng.getrandbits(32)
        out = []
        for a in cands:
            w.rng = random.Random(seed)
            out.append(_finish(k, w, a))
        return out

    _run(tallies, one, rng, budget_ms, BID_SAMPLES, expert, capped)
    for t in tallies:
        if _call_suit(k, t.action) is not None:
            t.total += CALL_BONUS * t.n
    pref = medium.decide(k, random.Random(0))
    for t in tallies:
        if t.action == pref:
            t.total += 1e-6 * max(t.n, 1)
    return tallies


def _call_suit(k: Knowledge, a: Action) -> int | None:
    """The suit a call makes trump, when the caller holds at least two of it
    (the up card included for the dealer): the calls the bonus is for."""
    if a["type"] == "order":
        suit = k.up_suit
    elif a["type"] == "name":
        suit = SUITS.index(a["suit"])
    else:
        return None
    if suit is None:
        return None
    hand = k.hand | (1 << k.up_card if k.seat == k.dealer and k.up_card is not None else 0)
    return suit if trump_count(hand, suit) >= 2 else None


# --- entry points ------------------------------------------------------------------


def _rank(
    k: Knowledge, rng: random.Random, budget_ms: int | None, expert: bool, capped: bool = True
) -> list[Tally]:
    if k.phase == "play":
        return _rank_play(k, rng, budget_ms, expert, capped)
    return _rank_bid(k, rng, budget_ms, expert, capped)


def decide(
    k: Knowledge,
    rng: random.Random,
    budget_ms: int | None = None,
    expert: bool = False,
    *,
    capped: bool = True,
) -> Action:
    """The hard bot's action (the expert's: more samples, a longer cap);
    `capped=False` lifts the wall-time cap (see `_run`)."""
    if len(k.legal) == 1 and k.phase != "dummy_keep":
        return k.legal[0]
    if k.phase == "joker_suit":
        return medium.decide(k, rng)
    tallies = _rank(k, rng, budget_ms, expert, capped)
    if not tallies:
        return medium.decide(k, rng)
    return _best(tallies, k.phase).action


# Going alone is chosen only when the search finds it clearly better: the
# solver plays both sides perfectly, and lone defences that it liked by a
# little were marched against in test matches.
MAKER_ALONE_MARGIN = 0.25
DEFENDER_ALONE_MARGIN = 0.5


def _best(tallies: list[Tally], phase: str) -> Tally:
    def key(t: Tally) -> float:
        if t.action.get("type") != "alone":
            return t.mean
        return t.mean - (MAKER_ALONE_MARGIN if phase == "maker_choice" else DEFENDER_ALONE_MARGIN)

    return max(tallies, key=key)


def analyse(k: Knowledge, rng: random.Random, budget_ms: int | None = None) -> list[dict[str, Any]]:
    """Every candidate action with its mean value and the share of samples it was best."""
    if k.phase == "dummy_keep":
        tallies = _rank(k, rng, budget_ms, False)
    elif not k.legal:
        return []
    elif len(k.legal) == 1:
        return [{"action": dict(k.legal[0]), "score": 0.0, "share": 1.0}]
    else:
        tallies = _rank(k, rng, budget_ms, False) if k.phase != "joker_suit" else []
    if not tallies:
        a = medium.decide(k, rng)
        return [{"action": dict(a), "score": 0.0, "share": 1.0}]
    n = max(t.n for t in tallies) or 1
    out = [
        {"action": dict(t.action), "score": round(t.mean, 4) if t.n else 0.0, "share": t.best / n}
        for t in sorted(tallies, key=lambda t: -t.mean)
    ]
    return out
