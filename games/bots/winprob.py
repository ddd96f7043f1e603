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
# Scores this far past the target are treated as a coin toss among the leaders
# (a tie at the top that long is very rare).
OVERTIME = 12


def over(scores: tuple[int, int, int], target: int) -> int | None:
    """The winner once the game is over at these scores, else None (the
    engine's rule, `games.engine.rules.game_winner`)."""
    return game_winner(scores, target)


@functools.lru_cache(maxsize=64)
def _table(target: int) -> dict[tuple[int, int, int], tuple[float, float, float]]:
    """Every seat's chance of winning from every score below the overtime
    limit, filled from the highest totals down (scores never fall)."""
    limit = target + OVERTIME
    table: dict[tuple[int, int, int], tuple[float, float, float]] = {}
    stay = HAND[0][0]
    moves = HAND[1:]

    def value(s: tuple[int, int, int]) -> tuple[float, float, float]:
        won = over(s, target)
        if won is not None:
            return tuple(1.0 if i == won else 0.0 for i in range(3))  # type: ignore[return-value]
        if max(s) >= limit:
            top = max(s)
            n = s.count(top)
            return tuple(1.0 / n if x == top else 0.0 for x in s)  # type: ignore[return-value]
        return table[s]

    for total in range(3 * (limit - 1), -1, -1):
        for a in range(min(total, limit - 1), -1, -1):
            for b in range(min(total - a, limit - 1), -1, -1):
                c = total - a - b
                if c >= limit or c < 0:
                    continue
                s = (a, b, c)
                if over(s, target) is not None:
                    continue
                acc = [0.0, 0.0, 0.0]
                for maker in range(3):
                    for p, mine, theirs in moves:
                        after = tuple(x + (mine if i == maker else theirs) for i, x in enumerate(s))
                        v = value(after)  # type: ignore[arg-type]
                        for i in range(3):
                            acc[i] += p / 3 * v[i]
                norm = 1 - stay
                table[s] = (acc[0] / norm, acc[1] / norm, acc[2] / norm)
    return table


def chances(scores: list[int] | tuple[int, ...], target: int) -> tuple[float, float, float]:
    """Each seat's chance of winning the game from `scores` (before a hand)."""
    s = (int(scores[0]), int(scores[1]), int(scores[2]))
    won = over(s, target)
    if won is not None:
        return tuple(1.0 if i == won else 0.0 for i in range(3))  # type: ignore[return-value]
    limit = target + OVERTIME
    if max(s) >= limit or min(s) < 0:
        top = max(s)
        n = s.count(top)
        return tuple(1.0 / n if x == top else 0.0 for x in s)  # type: ignore[return-value]
    return _table(target)[s]
