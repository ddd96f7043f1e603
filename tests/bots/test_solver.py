"""The double-dummy solver agrees with a plain minimax on small positions."""

from __future__ import annotations

import random

from games.bots.solver import Solver
from games.engine.cards import EFF_SUIT, POWER, SUIT_MASK, cards_of, deck_cards


def _minimax(
    H: list[int],
    seat: int,
    trick: list[tuple[int, int]],
    maker: int,
    trump: int,
    nxt: tuple[int, ...],
    n: int,
) -> int:
    """Maker's tricks from here under best play, by brute force."""
    if not any(H):
        return 0
    h = H[seat]
    legal = h
    if trick:
        legal = h & SUIT_MASK[trump][EFF_SUIT[trump][trick[0][1]]] or h
    vals = []
    for c in cards_of(legal):
        H2 = list(H)
        H2[seat] ^= 1 << c
        t2 = [*trick, (seat, c)]
        if len(t2) == n:
            led = EFF_SUIT[trump][t2[0][1]]
            w = max(t2, key=lambda sc: POWER[trump][led][sc[1]])[0]
            vals.append((w == maker) + _minimax(H2, w, [], maker, trump, nxt, n))
        else:
            vals.append(_minimax(H2, nxt[seat], t2, maker, trump, nxt, n))
    return max(vals) if seat == maker else min(vals)


def test_solver_matches_minimax() -> None:
    rng = random.Random(5)
    for _ in range(250):
        deck = rng.choice(["24", "32", "25"])
        cards = deck_cards(deck)
        rng.shuffle(cards)
        n = rng.randint(1, 3)
        maker = rng.randrange(3)
        out = rng.choice([None, None, *[s for s in range(3) if s != maker]])
        H = [0, 0, 0]
        i = 0
        for s in range(3):
            if s != out:
                H[s] = sum(1 << c for c in cards[i : i + n])
                i += n
        trump = rng.randrange(4)
        solver = Solver(trump, maker, out)
        lead = rng.choice([s for s in range(3) if s != out])
        trick: list[tuple[int, int]] = []
        seat = lead
        if rng.random() < 0.5:
            c = cards_of(H[lead])[0]
            H[lead] ^= 1 << c
            trick = [(lead, c)]
            seat = solver.nxt[lead]
        expect = _minimax(H, seat, trick, maker, trump, solver.nxt, solver.n_active)
        assert solver.exact(H, seat, trick) == expect
        for k in range(0, n + 1):
            assert solver.at_least(H, seat, trick, k) == (expect >= k)
