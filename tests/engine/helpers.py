"""Small builders for engine tests: deals and hands written in card notation."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from games.engine import (
    Action,
    ActionDict,
    GameFault,
    GameReplayError,
    GameResult,
    HandFault,
    HandReplayError,
    HandResult,
    HandState,
    RecordDeal,
    Rules,
    apply,
    apply_recorded,
    hand_from_record,
    legal_actions,
)
from games.engine.cards import CARD_STRS, deck_cards

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "data" / "examples"


def spec_examples_dir() -> Path:
    """The example records: tests/data/examples, or $EUCHRE_SPEC_DIR (a folder
    holding the .jsonl files or an `examples/` folder of them), e.g. a larger set."""
    env = os.environ.get("EUCHRE_SPEC_DIR")
    if env:
        p = Path(env)
        return p / "examples" if (p / "examples").is_dir() else p
    return EXAMPLES_DIR


def load_examples(name: str) -> list[dict[str, Any]]:
    """Lines of an example file, each {"record": ..., "expect": ...}."""
    path = spec_examples_dir() / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def example_cases(name: str) -> list[Any]:
    """The examples of `name` as pytest parameters, each named by its line; when
    the file is missing, empty or unreadable, one parameter holding the fault,
    so that the test fails (`missing_examples`) instead of vanishing."""
    path = spec_examples_dir() / name
    if not path.is_file():
        return [_missing(f"{path} is missing (copy the examples there or set EUCHRE_SPEC_DIR)")]
    cases = []
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except ValueError as e:
            return [_missing(f"{path} line {n} is not JSON: {e}")]
        if not isinstance(case, dict) or not {"record", "expect"} <= case.keys():
            return [_missing(f"{path} line {n} is not an object with `record` and `expect`")]
        cases.append(pytest.param(case, id=f"{name}:{n}"))
    return cases or [_missing(f"{path} holds no example")]


def _missing(fault: str) -> Any:
    return pytest.param({"missing": fault}, id="missing-examples")


def missing_examples(case: dict[str, Any]) -> None:
    """Fail the test when its examples could not be read (see `example_cases`)."""
    if "missing" in case:
        pytest.fail(case["missing"], pytrace=False)


def hand_ok(got: HandResult | HandReplayError) -> HandResult:
    """A hand replay's result, failing the test on a replay error."""
    assert "error" not in got, got
    return cast(HandResult, got)


def hand_error(got: HandResult | HandReplayError) -> HandFault:
    """A hand replay's error, failing the test when it replayed."""
    assert set(got) == {"error"}, got
    return cast(HandReplayError, got)["error"]


def game_ok(got: GameResult | GameReplayError) -> GameResult:
    """A game replay's result, failing the test on a replay error."""
    assert "error" not in got, got
    return cast(GameResult, got)


def game_error(got: GameResult | GameReplayError) -> GameFault:
    """A game replay's error, failing the test when it replayed."""
    assert set(got) == {"error"}, got
    return cast(GameReplayError, got)["error"]


def full_deal(
    hands: dict[int, list[str]],
    up: str,
    deck: str = "24",
    dummy: list[str] | None = None,
) -> RecordDeal:
    """A complete deal: the given cards where asked, the rest filled in deck order."""
    used = {c for h in hands.values() for c in h} | {up} | set(dummy or [])
    rest = [CARD_STRS[c] for c in deck_cards(deck) if CARD_STRS[c] not in used]
    out_hands = []
    for s in range(3):
        h = list(hands.get(s, []))
        while len(h) < 5:
            h.append(rest.pop(0))
        out_hands.append(h)
    d = list(dummy or [])
    while len(d) < 5:
        d.append(rest.pop(0))
    return {"hands": out_hands, "dummy": d, "kitty": [up, *rest]}


def record(
    deal: RecordDeal,
    dealer: int = 0,
    actions: Sequence[Mapping[str, object]] | None = None,
    **rules: str | bool | int,
) -> dict[str, Any]:
    """A hand record (input to the engine: `rules` as given, perhaps partial)."""
    return {
        "format": "euchre3-hand/1",
        "rules": rules,
        "dealer": dealer,
        "deal": deal,
        "actions": actions or [],
    }


def state_of(rec: Mapping[str, object]) -> HandState:
    """The state a record describes."""
    return hand_from_record(rec)


def act(state: HandState, **fields: str | int | list[str] | None) -> HandState:
    """Apply an action given as record fields (seat defaults to the seat to act);
    a `dummy` with `keep` at the maker's choice is both steps, as in a record."""
    fields.setdefault("seat", state.to_act)
    return apply_recorded(state, Action.from_dict(fields), pending_keep=True)


def named_in_round_two(dealer: int, maker: int) -> list[ActionDict]:
    """Three first-round passes, then second-round passes up to the maker."""
    out: list[ActionDict] = [{"seat": (dealer + k) % 3, "type": "pass"} for k in (1, 2, 3)]
    s = (dealer + 1) % 3
    while s != maker:
        out.append({"seat": s, "type": "pass"})
        s = (s + 1) % 3
    return out


def to_play(
    hands: dict[int, list[str]],
    trump: str,
    up: str,
    dealer: int = 0,
    maker: int = 1,
    deck: str = "24",
    maker_alone: bool = True,
    **rules: Any,
) -> HandState:
    """A hand in the play phase: the maker named `trump` in round two, nobody else alone."""
    deal = full_deal(hands, up, deck)
    actions = [*named_in_round_two(dealer, maker), {"seat": maker, "type": "name", "suit": trump}]
    if maker_alone:
        actions.append({"seat": maker, "type": "alone"})
    else:
        keep = deal["hands"][maker]
        actions.append({"seat": maker, "type": "dummy", "keep": keep})
    actions += [
        {"seat": (maker + 1) % 3, "type": "pass"},
        {"seat": (maker + 2) % 3, "type": "pass"},
    ]
    return state_of(record(deal, dealer, actions, deck=deck, **rules))


def random_playout(state: HandState, rng: random.Random) -> HandState:
    """Finish a hand with random legal actions."""
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def rules_combos() -> list[Rules]:
    """Every deck with every option."""
    out = []
    for deck in ("24", "32", "25"):
        for stick in (False, True):
            for turned in (False, True):
                for march in (3, 4):
                    out.append(Rules(deck, stick, turned, march))
    return out
