"""The fit of the chance-of-winning model to bots' games (games.bots.winfit)."""

from __future__ import annotations

import math

from games.bots.winfit import fit, play_game, score
from games.bots.winprob import DEALT_FIXED


def test_the_fit_counts_each_hands_points_from_the_dealers_seat() -> None:
    games = [
        (
            [
                (0, [0, 0, 0], [0, 1, 0]),  # left of dealer 0 (seat 1) made it
                (1, [0, 1, 0], [0, 0, 1]),  # left of dealer 1 (seat 2) made it
                (2, [0, 1, 1], [2, 0, 2]),  # the second seat (1) euchred
                (0, [2, 1, 3], [0, 0, 3]),  # the second seat (2) marched
            ],
            2,
        )
    ]
    fitted = dict((v, p) for p, v in fit(games))
    assert fitted == {(1, 0, 0): 0.5, (2, 0, 2): 0.25, (0, 3, 0): 0.25}


def test_a_game_of_bots_is_kept_hand_by_hand_and_scored() -> None:
    hands, winner = play_game(0, "medium", 1, 5)
    assert winner is not None and hands
    final = [sum(h[2][s] for h in hands) for s in range(3)]
    assert final[winner] >= 5 and final[winner] == max(final)
    assert all(hands[i + 1][0] == (hands[i][0] + 1) % 3 for i in range(len(hands) - 1))
    loss, brier, n = score([(hands, winner)], DEALT_FIXED, 5)
    assert n == len(hands) and math.isfinite(loss) and 0 <= brier <= 2
    # The model gives the eventual winner a real chance at every hand's start.
    assert loss < -math.log(0.01)
