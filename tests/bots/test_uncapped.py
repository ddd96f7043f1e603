"""Without its wall-time cap (`capped=False`, as the daily deal asks), the hard
bot's choice depends on the view and the rng only: on a machine so loaded
that the cap would cut every decision after one sample, it still decides as
on an idle one."""

from __future__ import annotations

import math
import random

import pytest

from games import bots, engine
from games.bots import hard
from games.engine import Action, Rules


def positions(n: int, seed: int) -> list[engine.GameView]:
    """Views of the seat to act at random points of random hands, decisions only."""
    rng = random.Random(seed)
    out: list[engine.GameView] = []
    while len(out) < n:
        game = engine.game_start_hand(engine.new_game(Rules(), 10, rng.randrange(3)), rng)
        stop = rng.randrange(4, 20)
        for _ in range(stop):
            cur = game.current
            if cur is None:
                break
            view = engine.game_view(game, cur.to_act)
            action = dict(rng.choice(view["legal_actions"]))
            if view["exchange"]:
                action["keep"] = view["exchange"][:5]
            game = engine.game_apply(game, Action.from_dict(action))
        cur = game.current
        if cur is not None:
            view = engine.game_view(game, cur.to_act)
            if len(view["legal_actions"]) > 1:
                out.append(view)
    return out


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_an_uncapped_decision_follows_the_rng_whatever_the_cap(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = positions(6, seed=11)
    monkeypatch.setattr(hard, "CAP_MS", math.inf)
    monkeypatch.setattr(hard, "EXPERT_CAP_MS", math.inf)
    idle = [
        bots.choose_action(level, v, random.Random(i), capped=False) for i, v in enumerate(views)
    ]
    # A cap of zero: a capped decision would stop after its first sample.
    monkeypatch.setattr(hard, "CAP_MS", 0.0)
    monkeypatch.setattr(hard, "EXPERT_CAP_MS", 0.0)
    loaded = [
        bots.choose_action(level, v, random.Random(i), capped=False) for i, v in enumerate(views)
    ]
    assert loaded == idle
