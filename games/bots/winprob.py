"""The chance of winning the game from given scores, for the search bots.

A hand's points move the game towards its end; what they are worth depends
on the scores: one point that takes a player to the target wins the game,
and a euchre that carries an opponent past it loses it. `chances(scores,
target)` gives each seat's chance of winning from `scores` before a hand,
under a simple model of a hand between players of equal strength (the maker
is any of the three; the hand is thrown in, made, marched or euchred with
the frequencies below, measured in bot matches), with RULES.md's end: the
game ends after a hand in which exactly one player has the highest score
and it is at or above the target.

`chances(scores, target, dealer, model)` is the same with a model of who
scores what seen from the dealer's seat (`Outcomes`), such as `FITTED`,
fitted to the hard bots' own games (`python -m games.bots.winfit`): there
the next dealer matters (the dealer takes the up card, the seat on its left
bids first), and a thrown-in hand passes the deal on. The bots use the fixed
frequencies: on other games of the same bots the fit predicted the winner
no better, and an expert valuing by it was no stronger on the same deals
(docs/engine-and-bots.md, "The chance of winning, checked against games").
"""

from __future__ import annotations

import functools

from games.engine.rules import game_winner

# One hand, between equals: (probability, points of the maker, points of each defender).
HAND = (
    (0.06, 0, 0),  # thrown in
    (0.47, 1, 0),  # made
    (0.22, 3, 0),  # march
    (0.25, 0, 2),  # euchred
)
# A model by the dealer's seat: (probability, points of the seat left of the
# dealer, of the second seat, of the dealer), over every way a hand can end.
Outcomes = tuple[tuple[float, tuple[int, int, int]], ...]
# HAND as Outcomes: the maker any of the three seats.
DEALT_FIXED: Outcomes = (
    (HAND[0][0], (0, 0, 0)),
    *(
        (
            p / 3,
            (mine if m == 0 else theirs, mine if m == 1 else theirs, mine if m == 2 else theirs),
        )
        for p, mine, theirs in HAND[1:]
        for m in range(3)
    ),
)
# Scores this far past the target are treated as a coin toss among the leaders
# (a tie at the top that long is very rare).
OVERTIME = 12


def over(scores: tuple[int, int, int], target: int) -> int | None:
    """The winner once the game is over at these scores, else None (the
    engine's rule, `games.engine.rules.game_winner`)."""
    return game_winner(scores, target)


Chances = tuple[float, float, float]


def _end(s: tuple[int, int, int], target: int) -> Chances | None:
    """The chances at a finished game, or past the overtime limit (a coin
    toss among the leaders); None while it plays on."""
    won = over(s, target)
    if won is not None:
        return tuple(1.0 if i == won else 0.0 for i in range(3))  # type: ignore[return-value]
    top = max(s)
    if top >= target + OVERTIME or min(s) < 0:
        n = s.count(top)
        return tuple(1.0 / n if x == top else 0.0 for x in s)  # type: ignore[return-value]
    return None


@functools.lru_cache(maxsize=64)
def _dealt_table(target: int, model: Outcomes) -> dict[tuple[int, int, int, int], Chances]:
    """Every seat's chance from every score below the overtime limit and
    every dealer, under `model`, filled from the highest totals down. A
    thrown-in hand moves only the deal: the three dealers at the same scores
    are solved together (V_d = R_d + t V_{d+1}, t the chance of a throw-in)."""
    limit = target + OVERTIME
    total_p = sum(p for p, _ in model)
    stay = sum(p for p, v in model if v == (0, 0, 0)) / total_p
    moves = [(p / total_p, v) for p, v in model if v != (0, 0, 0)]
    table: dict[tuple[int, int, int, int], Chances] = {}
    ends: dict[tuple[int, int, int], Chances] = {}
    get = table.get
    # For each dealer: (probability, score offsets, the next dealer).
    steps: list[list[tuple[float, int, int, int, int]]] = [
        [
            (p, v[(0 - d - 1) % 3], v[(1 - d - 1) % 3], v[(2 - d - 1) % 3], (d + 1) % 3)
            for p, v in moves
        ]
        for d in range(3)
    ]
    norm = 1 - stay**3
    for total in range(3 * (limit - 1), -1, -1):
        for a in range(min(total, limit - 1), -1, -1):
            for b in range(min(total - a, limit - 1), -1, -1):
                c = total - a - b
                if c >= limit or c < 0 or over((a, b, c), target) is not None:
                    continue
                rest = []
                for d in range(3):
                    x = y = z = 0.0
                    for p, da, db, dc, nd in steps[d]:
                        got = get((a + da, b + db, c + dc, nd))
                        if got is None:  # the game is over there
                            after = (a + da, b + db, c + dc)
                            if after not in ends:
                                end = _end(after, target)
                                assert end is not None  # a state that plays on is filled
                                ends[after] = end
                            got = ends[after]
                        x += p * got[0]
                        y += p * got[1]
                        z += p * got[2]
                    rest.append((x, y, z))
                for d in range(3):
                    r0, r1, r2 = rest[d], rest[(d + 1) % 3], rest[(d + 2) % 3]
                    table[(a, b, c, d)] = tuple(  # type: ignore[assignment]
                        (r0[i] + stay * r1[i] + stay * stay * r2[i]) / norm for i in range(3)
                    )
    return table


def chances(
    scores: list[int] | tuple[int, ...],
    target: int,
    dealer: int = 0,
    model: Outcomes = DEALT_FIXED,
) -> Chances:
    """Each seat's chance of winning the game from `scores` (before a hand
    `dealer` deals), by the fixed frequencies (HAND: who deals changes
    nothing) or by `model`."""
    s = (int(scores[0]), int(scores[1]), int(scores[2]))
    return _end(s, target) or _dealt_table(target, model)[(*s, dealer)]


# `python -m games.bots.winfit --level hard --games 300 --seed 7`: the hands of
# the 150 even games of three hard bots (1422 hands), by the dealer's seat.
FITTED: Outcomes = (
    (0.2918, (1, 0, 0)),
    (0.2679, (0, 2, 2)),
    (0.1406, (3, 0, 0)),
    (0.0837, (0, 1, 0)),
    (0.0809, (0, 0, 3)),
    (0.0682, (2, 0, 2)),
    (0.0302, (0, 0, 1)),
    (0.0267, (0, 3, 0)),
    (0.0063, (0, 4, 4)),
    (0.0021, (4, 0, 4)),
    (0.0014, (2, 2, 0)),
)
