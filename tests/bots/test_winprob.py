"""The chance of winning from given scores, which the search bots compare
options by (not points alone)."""

from __future__ import annotations

import pytest

from games.bots.hard import utility
from games.bots.winprob import DEALT_FIXED, FITTED, chances


def test_equal_scores_are_a_fair_third_and_chances_add_up() -> None:
    assert chances([0, 0, 0], 10) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    for scores in ([0, 0, 0], [9, 2, 5], [8, 8, 0], [12, 12, 3], [4, 0, 0]):
        assert sum(chances(scores, 10)) == pytest.approx(1)


def test_the_rules_end() -> None:
    assert chances([10, 3, 4], 10) == (1.0, 0.0, 0.0)
    # Tied at the top at or above the target: the game goes on, even chances.
    a, b, c = chances([10, 10, 4], 10)
    assert a == pytest.approx(b) and a > 0.45 and c < 0.1


def test_more_points_never_lower_the_chance() -> None:
    for target in (5, 10, 25):
        for me in range(0, target):
            assert chances([me + 1, 3, 2], target)[0] >= chances([me, 3, 2], target)[0]


def test_a_euchre_costs_more_when_it_carries_an_opponent_past_the_target() -> None:
    euchred = [0, 2, 2]  # seat 0 was the maker and was euchred
    early = utility(euchred, 0, [0, 0, 0], 10)
    late = utility(euchred, 0, [8, 8, 0], 10)  # seat 1 reaches 10 and wins
    assert early < 0 and late < 3 * early
    made = [1, 0, 0]
    assert utility(made, 0, [9, 8, 8], 10) > 3 * utility(made, 0, [0, 0, 0], 10)  # it wins the game


SCORES = ([0, 0, 0], [9, 2, 5], [8, 8, 0], [10, 10, 4], [4, 0, 0], [9, 9, 9])


def test_the_fixed_frequencies_by_the_dealers_seat_are_the_fixed_model() -> None:
    # The maker any of the three: who deals changes nothing, and the dealt
    # table (throw-ins passing the deal on) finds the same chances.
    for scores in SCORES:
        for dealer in range(3):
            assert chances(scores, 10, dealer, DEALT_FIXED) == pytest.approx(chances(scores, 10))


def test_the_fitted_model_adds_up_keeps_the_rules_end_and_follows_the_deal() -> None:
    for scores in SCORES:
        for dealer in range(3):
            assert sum(chances(scores, 10, dealer, FITTED)) == pytest.approx(1)
    assert chances([10, 3, 4], 10, 0, FITTED) == (1.0, 0.0, 0.0)
    for me in range(10):
        assert chances([me + 1, 3, 2], 10, 1, FITTED)[0] >= chances([me, 3, 2], 10, 1, FITTED)[0]
    # At 9-9-9 the next hand decides: who deals it is not a matter of indifference.
    by_dealer = [chances([9, 9, 9], 10, d, FITTED) for d in range(3)]
    assert max(c[0] for c in by_dealer) - min(c[0] for c in by_dealer) > 0.05


def test_under_the_fit_a_hand_thrown_in_moves_the_chances_by_passing_the_deal() -> None:
    before = chances([9, 9, 9], 10, 0, FITTED)
    after = chances([9, 9, 9], 10, 1, FITTED)
    assert before != pytest.approx(after)
    assert sum(after) - sum(before) == pytest.approx(0, abs=1e-9)
