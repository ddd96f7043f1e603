"""The hard bot finishes the auction in its own small simulator (games.bots.hard
._Sim) rather than in the engine. Until that copy of the bidding rules is
gone, it must agree with the engine: from many random positions of every deck
and option, the same decisions lead both to the same phase, seat to act,
maker, trump, lone players, sitting-out defender and opening lead."""

from __future__ import annotations

import random
import zlib
from typing import Any

import pytest

from games.bots import hard
from games.bots.common import Knowledge
from games.engine import Action, HandState, Rules, apply, legal_actions, new_hand, view
from games.engine.cards import SUITS
from games.engine.rules import opening_lead

from .test_legality import ALL_RULES


def _world(state: HandState) -> hard.World:
    """The true deal as it stands, in the simulator's terms."""
    i = state._i
    w = hard.World(list(state._hands), 0 if i.dummy_used else i.dummy_mask, i.up, random.Random(0))
    w.maker = i.maker
    w.trump = i.trump
    w.alone = list(i.alone)
    w.dummy_used = i.dummy_used
    return w


def _engine_facts(state: HandState) -> tuple[Any, ...]:
    phase = {"dummy_keep": "maker_choice"}.get(state.phase.value, state.phase.value)
    trump = None if state.trump is None else SUITS.index(state.trump)
    if state.over:
        return ("over", state.maker, trump)
    to_act = None if phase == "play" else state.to_act  # the lead: compared below
    return (phase, to_act, state.maker, trump, list(state.alone), state.sitting_out)


def _sim_facts(sim: Any) -> tuple[Any, ...]:
    if sim.thrown:
        return ("over", None, None)
    to_act = None if sim.phase == "play" else sim.to_act
    return (sim.phase, to_act, sim.maker, sim.trump, list(sim.alone), sim.sitting_out)


@pytest.mark.parametrize(
    "rules", ALL_RULES, ids=lambda r: "-".join(str(v) for v in r.to_dict().values())
)
def test_the_bots_auction_simulator_agrees_with_the_engine(rules: Rules) -> None:
    rng = random.Random(zlib.crc32(repr(rules.to_dict()).encode()))
    compared = 0
    for n in range(120):
        state = new_hand(rules, n % 3, rng)
        # Walk to a random point of the auction, then simulate the rest both ways.
        while state.phase.value == "joker_suit" or (
            not state.over and state.phase.value != "play" and rng.random() < 0.5
        ):
            state = apply(state, rng.choice(legal_actions(state)))
        if state.over or state.phase.value == "play":
            continue
        seat = state.to_act
        assert seat is not None
        sim = hard._Sim(Knowledge.from_view(view(state, seat)), _world(state))
        while not state.over and state.phase.value != "play":
            act = rng.choice(legal_actions(state))
            if (
                act.type == "dummy" and act.keep is None
            ):  # the engine's two steps, one record action
                state = apply(state, act)
                act = rng.choice(legal_actions(state))
            state = apply(state, act)
            sim.step(act.to_dict())
            assert _sim_facts(sim) == _engine_facts(state), act
            compared += 1
        if state.phase.value == "play":
            assert state.maker is not None
            lead = opening_lead(state.dealer, state.maker, sim.alone, sim.sitting_out)
            assert lead == state.to_act
    assert compared > 100


def test_the_agreement_test_notices_a_rule_gone_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulator whose lone defender sits out the wrong partner is caught."""
    original = hard._Sim.step

    def wrong(self: Any, a: dict[str, Any]) -> None:
        lone_defender = a["type"] == "alone" and self.phase == "defender_alone"
        original(self, a)
        if lone_defender:
            self.sitting_out = a["seat"]

    monkeypatch.setattr(hard._Sim, "step", wrong)
    with pytest.raises(AssertionError):
        test_the_bots_auction_simulator_agrees_with_the_engine(Rules())


def test_actions_from_records_step_the_simulator() -> None:
    state = new_hand(Rules(), 0, random.Random(3))
    sim = hard._Sim(Knowledge.from_view(view(state, 1)), _world(state))
    sim.step(Action(1, "order").to_dict())
    assert (sim.phase, sim.maker, sim.to_act) == ("dealer_pickup", 1, 0)
