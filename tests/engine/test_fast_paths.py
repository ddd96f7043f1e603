"""What the engine's fast paths keep must be what the rules say: the opening
lead `apply` works out inline, the call's round the bidding notes, the score
pad a finished hand keeps (handed out as copies), and `over`."""

from __future__ import annotations

import pickle
import random

from games.engine import (
    Phase,
    Rules,
    apply,
    game_apply,
    game_start_hand,
    game_view,
    legal_actions,
    new_game,
    new_hand,
    opening_lead,
    outcome,
)
from games.engine.rules import call_round


def test_opening_lead_and_call_round_in_random_hands() -> None:
    rng = random.Random(5)
    for deck in ("24", "25", "32"):
        rules = Rules(deck=deck)
        for k in range(300):
            s = new_hand(rules, k % 3, rng)
            while not s.over:
                was = s.phase
                acts = legal_actions(s)
                s = apply(s, acts[rng.randrange(len(acts))])
                assert s.over == (s.phase == Phase.OVER)
                if was != Phase.PLAY and s.phase == Phase.PLAY:
                    assert s.maker is not None
                    lead = opening_lead(s.dealer, s.maker, s.alone, s.sitting_out)
                    assert s.to_act == s.leader == lead
                made = call_round([a.type for a in s.actions])
                assert outcome(s)["call_round"] == (made if s.maker is not None else None)


def test_score_pad_rows_are_fresh_copies() -> None:
    rng = random.Random(9)
    game = new_game(Rules(), target=5)
    while len([h for h in game.hands if h.over]) < 3 and not game.over:
        if game.current is None:
            game = game_start_hand(game, rng)
            continue
        acts = legal_actions(game.current)
        game = game_apply(game, acts[rng.randrange(len(acts))])
    if not game.over:  # the next hand under way: `last_hand` is the one before
        game = game_start_hand(game, rng)
        game = game_apply(game, legal_actions(game.current)[0])  # type: ignore[arg-type]
    for seat in (0, 1, 2, None):
        first = game_view(game, seat)
        expected = repr(game_view(game, seat))
        for row in first["score_pad"]:
            row["result"]["alone"].append(9)
            row["result"]["tricks"].append(9)
            row["result"]["points"].append(9)
            row["result"]["maker"] = 9
            row["outcome"]["outcome"] = None
        last = first["last_hand"]
        assert last is not None
        for a in last["history"]:
            if isinstance(a.get("keep"), list):
                a["keep"].append("9C")  # type: ignore[union-attr]
            a["seat"] = 9
        for t in last["tricks"]:
            t["cards"].append((9, "9C"))
        last["deal"]["hands"][0].append("9C")
        last["deal"]["discards"][0].append("9C")
        last["deal"]["kitty"].append("9C")
        last["result"]["points"].append(9)
        assert repr(game_view(game, seat)) == expected
        # What a finished hand keeps is not pickled: read back, it says the same.
        again = pickle.loads(pickle.dumps(game))
        assert repr(game_view(again, seat)) == expected
        assert len(pickle.dumps(again)) == len(pickle.dumps(pickle.loads(pickle.dumps(game))))
