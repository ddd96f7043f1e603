"""How boldly bots bid against the rules that model them (games.bots.bidfit):
the fit counts what it should, and the rules model the medium bot, whose
bidding they are."""

from __future__ import annotations

import random

import pytest

from games.bots import bidfit
from games.engine import Rules


def test_each_offset_counts_the_rules_calls_and_their_agreement() -> None:
    calls = [(1, True, -0.5), (1, False, -1.0), (2, True, 0.2)]
    rows = {d: (rate, agree) for d, rate, agree in bidfit.fit(calls)}
    assert rows[0.0] == pytest.approx((1 / 3, 2 / 3))
    assert rows[0.5] == pytest.approx((2 / 3, 1.0))
    assert rows[1.0] == pytest.approx((1.0, 2 / 3))


def test_the_rules_bid_as_the_medium_bot_does() -> None:
    rules = Rules().to_dict()
    calls = [c for i in range(30) for c in bidfit.auction((i, "medium", 3, rules, 10))]
    assert calls == [c for i in range(30) for c in bidfit.auction((i, "medium", 3, rules, 10))]
    assert all(place in (0, 1, 2) for place, _, _ in calls)
    rows = {d: agree for d, _, agree in bidfit.fit(calls)}
    assert rows[0.0] >= 0.9
    assert rows[0.0] > rows[1.0]


def test_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert bidfit.report([], "hard") == "no first-round decisions"
    assert bidfit.main(["--level", "medium", "--deals", "6", "--seed", "3", "--procs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "first-round decisions of medium: ordered" in out[0]
    header = out.index("offset  rules order  agree with the bots")
    assert len(out) - header - 1 == len(bidfit.OFFSETS)
    assert all("decisions, ordered" in line for line in out[1:header])


def test_a_bolder_model_reads_more_into_a_pass_and_orders_more() -> None:
    """Seat 1 passed the king of hearts with a hand the rules would pass
    too (the left bower and the queen of hearts): a model bolder by
    EXPERT_BOLD would have ordered it, so to the expert the pass makes that
    hand less likely; and the bolder rules order it."""
    from games.bots import hard
    from games.bots.common import Knowledge, mask
    from games.engine import hand_from_record

    from .helpers import record, seat_view

    hands = ["TH TC 9H JC 9C", "9S TD QH QS JH", "JD JS KC QD KD"]
    rec = record(0, hands, "AS KS QC AD 9D", "KH AH AC TS", [])
    state = hand_from_record(rec)
    k = Knowledge.from_view(seat_view(rec, 1))
    margin = hard.order_margin(k, state, random.Random(0))
    assert -hard.EXPERT_BOLD < margin < 0
    world = hard.World(state, 0, random.Random(0))
    assert hard._policy(k, world, state).type == "pass"
    assert hard._policy(k, world, state, hard.EXPERT_BOLD).type == "order"

    rec = record(0, hands, "AS KS QC AD 9D", "KH AH AC TS", [(1, "pass", None)])
    k = Knowledge.from_view(seat_view(rec, 2))
    sampled = {0: mask(hands[0].split()), 1: mask(hands[1].split())}
    timid, bold = hard._bid_weight(k), hard._bid_weight(k, hard.EXPERT_BOLD)
    assert timid is not None and bold is not None
    assert timid(sampled) == 1.0
    assert bold(sampled) < 1.0
