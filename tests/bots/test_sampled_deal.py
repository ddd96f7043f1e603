"""engine.state_from_deal, the bots' door into the engine: the state a
sampled deal would be in is the state the engine is in had it been dealt."""

from __future__ import annotations

import random

import pytest

from games.bots import hard
from games.bots.common import Knowledge
from games.engine import (
    IllegalAction,
    MalformedAction,
    Rules,
    apply,
    hand_to_record,
    legal_actions,
    new_hand,
    state_from_deal,
    view,
)

from .test_legality import ALL_RULES


@pytest.mark.parametrize("rules", ALL_RULES[::3], ids=lambda r: f"{r.deck}-{r.stick_the_dealer:d}")
def test_the_real_deal_and_history_give_the_real_state(rules: Rules) -> None:
    rng = random.Random(3)
    checked = 0
    for h in range(12):
        state = new_hand(rules, h % 3, rng)
        while True:
            rec = hand_to_record(state)
            deal = rec["deal"]
            got = state_from_deal(
                rules, rec["dealer"], deal["hands"], deal["dummy"], deal["kitty"], rec["actions"]
            )
            for seat in (None, 0, 1, 2):
                assert view(got, seat) == view(state, seat)
            assert list(legal_actions(got)) == list(legal_actions(state))
            checked += 1
            if state.over:
                break
            acts = legal_actions(state)
            state = apply(state, acts[rng.randrange(len(acts))])
    assert checked > 100


def test_a_deal_that_is_not_the_deck_once_or_a_history_that_does_not_fit_is_refused() -> None:
    state = new_hand(Rules(), 0, random.Random(1))
    deal = hand_to_record(state)["deal"]
    hands, dummy, kitty = deal["hands"], deal["dummy"], deal["kitty"]
    twice = [hands[0], hands[1], [*hands[2][:4], hands[0][0]]]
    with pytest.raises(MalformedAction):
        state_from_deal(Rules(), 0, twice, dummy, kitty)
    with pytest.raises(MalformedAction):
        state_from_deal(Rules(deck="32"), 0, hands, dummy, kitty)
    seat = (0 + 1) % 3
    with pytest.raises(IllegalAction):  # not seat 2's turn
        state_from_deal(Rules(), 0, hands, dummy, kitty, [{"seat": 2, "type": "pass"}])
    assert (
        state_from_deal(Rules(), 0, hands, dummy, kitty, [{"seat": seat, "type": "pass"}]).to_act
        == 2
    )


@pytest.mark.parametrize("rules", ALL_RULES[::2], ids=lambda r: f"{r.deck}-{r.stick_the_dealer:d}")
def test_the_hard_bots_sampled_deals_fit_what_its_seat_saw(rules: Rules) -> None:
    """Before the play, every deal the hard bot samples (hidden discard and
    keep included) replays the view's history on the engine to the same
    phase, seat to act and hand of that seat, and every candidate plays out."""
    rng = random.Random(5)
    sampled = 0
    for h in range(8):
        state = new_hand(rules, h % 3, rng)
        while not state.over and state.phase.value != "play":
            seat = state.to_act
            assert seat is not None
            k = Knowledge.from_view(view(state, seat))
            if state.phase.value != "joker_suit":
                w = hard._bid_world(k, random.Random(h), hard._rules(k))
                assert w is not None
                got = w.state
                assert (got.phase, got.to_act) == (state.phase, state.to_act)
                assert got.hand_of(seat) == state.hand_of(seat)
                cands = k.legal if state.phase.value != "dummy_keep" else hard._keep_candidates(k)
                for a in cands:
                    hard._finish(k, w, a)
                sampled += 1
            acts = legal_actions(state)
            state = apply(state, acts[rng.randrange(len(acts))])
    assert sampled > 20
