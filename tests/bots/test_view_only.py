"""Bots read one seat's view and nothing else."""

from __future__ import annotations

import ast
import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.bots import LEVELS, choose_action
from games.engine import Rules, apply, hand_from_record, hand_to_record, new_hand, view

BOTS = Path(__file__).resolve().parents[2] / "games" / "bots"
# The match and duel commands are harnesses that run the engine; the players are the rest.
PLAYERS = [p for p in BOTS.glob("*.py") if p.name not in ("match.py", "duel.py")]


def test_importing_the_bots_does_not_import_django() -> None:
    code = "import sys, games.bots; assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=BOTS.parents[1])


# The engine's rules that need no state, which the bots share instead of copying.
STATELESS_RULES = {"hand_points", "opening_lead", "next_seat", "game_winner"}


def test_players_use_no_engine_function_that_takes_a_full_state() -> None:
    """Only card tables, helpers and stateless rules come from the engine (no
    state, view, record or apply)."""
    for path in PLAYERS:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("games.engine")
            ):
                if node.module == "games.engine.rules":
                    assert {a.name for a in node.names} <= STATELESS_RULES, path.name
                else:
                    assert node.module == "games.engine.cards", (path.name, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith(("django", "games.engine")), (
                        path.name,
                        alias.name,
                    )
            if isinstance(node, ast.Attribute):
                assert not node.attr.startswith("_hands"), path.name


class Strict(dict):  # type: ignore[type-arg]
    """A view that fails on any write, so a bot cannot change what it was given."""

    def __setitem__(self, key: Any, value: Any) -> None:
        raise AssertionError(f"bot wrote {key!r} into the view")

    def __delitem__(self, key: Any) -> None:
        raise AssertionError(f"bot deleted {key!r} from the view")


def _positions(n_hands: int, rng: random.Random) -> list[Any]:
    out = []
    for h in range(n_hands):
        rules = Rules(deck=("24", "32", "25")[h % 3], stick_the_dealer=h % 2 == 0)
        state = new_hand(rules, h % 3, rng)
        while not state.over:
            out.append(state)
            from games.engine import legal_actions

            acts = legal_actions(state)
            state = apply(state, acts[rng.randrange(len(acts))])
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_bots_get_a_json_copy_of_the_view_and_leave_it_unchanged(
    level: str, small_budget: None
) -> None:
    rng = random.Random(3)
    for state in _positions(4, rng)[::3]:
        v = view(state, state.to_act)
        original = copy.deepcopy(v)
        # A JSON round trip: nothing but plain data, no handle on the state.
        plain = json.loads(json.dumps(v))
        strict = Strict(plain)
        a = choose_action(level, strict, random.Random(5))
        b = choose_action(level, original, random.Random(5))
        assert a == b
        assert v == original


def _hidden_twin(rec: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same record with every card this seat cannot see dealt anew among the unseen places."""
    twin = copy.deepcopy(rec)
    deal = twin["deal"]
    others = [s for s in range(3) if s != seat]
    hidden = deal["hands"][others[0]] + deal["hands"][others[1]] + deal["dummy"] + deal["kitty"][1:]
    rng.shuffle(hidden)
    deal["hands"][others[0]] = hidden[0:5]
    deal["hands"][others[1]] = hidden[5:10]
    deal["dummy"] = hidden[10:15]
    deal["kitty"] = deal["kitty"][:1] + hidden[15:]
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_cards_a_seat_cannot_see_do_not_change_its_decision(level: str, small_budget: None) -> None:
    """Two deals that differ only in hidden cards give the same view and the same decision."""
    rng = random.Random(8)
    checked = 0
    for h in range(30):
        rules = Rules(deck=("24", "32", "25")[h % 3])
        state = new_hand(rules, h % 3, rng)
        if state.phase.value != "bid1":
            continue
        seat = state.to_act
        assert seat is not None
        rec = hand_to_record(state)
        twin = hand_from_record(_hidden_twin(rec, seat, rng))
        v1, v2 = view(state, seat), view(twin, seat)
        assert v1 == v2
        assert choose_action(level, v1, random.Random(h)) == choose_action(
            level, v2, random.Random(h)
        )
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_action(level: str, small_budget: None) -> None:
    rng = random.Random(21)
    for state in _positions(3, rng)[::2]:
        v = view(state, state.to_act)
        assert choose_action(level, v, random.Random(9)) == choose_action(
            level, v, random.Random(9)
        )


def test_a_plain_hand_view_without_scores_works() -> None:
    state = new_hand(Rules(), 0, random.Random(2))
    v = view(state, 1)
    assert "scores" not in v
    for level in LEVELS:
        assert choose_action(level, v, random.Random(1)) in v["legal_actions"]
