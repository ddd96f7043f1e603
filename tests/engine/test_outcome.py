"""The hand's outcome in the rules' words (engine.outcome, engine.outcome_of):
made, march, euchred or thrown in, the dummy or alone, the call's round; the
same from a state and from its record with its replay result, and agreeing
with the scoring table (RULES.md "Scoring")."""

from __future__ import annotations

import random

from games.engine import (
    MakerPlay,
    Outcome,
    Rules,
    apply,
    game_apply,
    game_start_hand,
    game_view,
    hand_to_record,
    legal_actions,
    new_game,
    new_hand,
    outcome,
    outcome_of,
    replay_hand,
    view,
)

from .helpers import hand_ok, rules_combos


def test_every_hand_has_one_outcome_that_agrees_with_its_points() -> None:
    rng = random.Random(23)
    seen: set[tuple[object, ...]] = set()
    for rules in rules_combos():
        for n in range(40):
            s = new_hand(rules, n % 3, rng)
            while True:
                o = outcome(s)
                assert o == view(s, None)["outcome"]
                if s.over:
                    break
                assert o["outcome"] is None
                legal = legal_actions(s)
                passes = [a for a in legal if a.type == "pass" and n % 2]
                s = apply(s, passes[0] if passes and rng.random() < 0.8 else rng.choice(legal))
            res = hand_ok(replay_hand(hand_to_record(s)))
            assert outcome_of(hand_to_record(s), res) == o
            kind, maker = o["outcome"], res["maker"]
            seen.add((kind, o["maker_play"], o["call_round"]))
            if maker is None:
                assert kind == Outcome.THROWN_IN and o == {
                    "outcome": Outcome.THROWN_IN,
                    "maker_play": None,
                    "call_round": None,
                }
                assert res["points"] == [0, 0, 0]
                continue
            t = res["tricks"][maker]
            want = Outcome.MARCH if t == 5 else Outcome.MADE if t >= 3 else Outcome.EUCHRED
            assert kind == want
            assert (res["points"][maker] > 0) == (kind != Outcome.EUCHRED)
            alone = maker in res["alone"]
            assert o["maker_play"] == (MakerPlay.ALONE if alone else MakerPlay.DUMMY)
            first = next(a for a in s.actions if a.type in ("order", "name"))
            assert o["call_round"] == (1 if first.type == "order" else 2)
    kinds = {k for k, _, _ in seen}
    assert kinds == set(Outcome)  # every outcome came up
    assert {r for _, _, r in seen} == {None, 1, 2}


def test_the_game_view_carries_each_finished_hands_outcome() -> None:
    rng = random.Random(5)
    g = new_game(Rules())
    assert game_view(g, None)["outcome"]["outcome"] is None
    while len(g.hands) < 4 and not g.over:
        g = game_start_hand(g, rng)
        while (cur := g.current) is not None:
            g = game_apply(g, rng.choice(legal_actions(cur)))
        v = game_view(g, 1)
        assert v["last_hand"] is not None
        assert v["last_hand"]["outcome"] == outcome(g.hands[-1]) == v["outcome"]
        assert [r["outcome"] for r in v["score_pad"]] == [outcome(h) for h in g.hands]
