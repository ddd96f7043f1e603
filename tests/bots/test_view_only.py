"""Bots read one seat's view and nothing else.

A bot's input is the view of its seat (`engine.view` / `game_view`): these
tests check what it receives (plain data, no card its seat may not see) and
that its choice does not change when the hidden cards of the real hand do.
The search may run the engine on deals it samples (`engine.state_from_deal`):
those are its own guesses, built from the view.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import cast

import pytest

from games.bots import LEVELS, choose_action
from games.bots.common import Knowledge
from games.engine import (
    GameView,
    HandState,
    HandView,
    RecordError,
    Rules,
    apply,
    game_apply,
    game_start_hand,
    game_view,
    hand_from_record,
    hand_to_record,
    legal_actions,
    new_game,
    new_hand,
    view,
)
from games.engine.cards import CARD_INDEX

BOTS = Path(__file__).resolve().parents[2] / "games" / "bots"


def _cards_in(x: object) -> set[str]:
    """Every card notation anywhere in a JSON value."""
    if isinstance(x, str):
        return {x} if x in CARD_INDEX else set()
    if isinstance(x, dict):
        return set().union(*(_cards_in(v) for v in x.values())) if x else set()
    if isinstance(x, list | tuple):
        return set().union(*(_cards_in(v) for v in x)) if x else set()
    return set()


def _as_lists(x: object) -> object:
    """A JSON-ready value with its tuples as lists, as JSON gives it back."""
    if isinstance(x, dict):
        return {k: _as_lists(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_as_lists(v) for v in x]
    return x


def _hidden_from(state: HandState, seat: int) -> set[str]:
    """The cards `seat` may not see now: the others' hands (but the up card
    the dealer took, which all saw), the kitty under the up card, the
    dummy unless this seat is the maker who chose it, the others' discards."""
    rec = hand_to_record(state)
    acts = rec["actions"]
    played = {a["card"] for a in acts if a["type"] == "play"}
    up = rec["deal"]["kitty"][0]
    hidden = set(rec["deal"]["kitty"][1:])
    for s in range(3):
        if s != seat:
            hidden |= set(state.hand_of(s)) - ({up} if state.up_card_taken else set())
    if not any(a["type"] == "dummy" and a["seat"] == seat for a in acts):
        hidden |= set(rec["deal"]["dummy"])
    hidden |= {a["discard"] for a in acts if a["type"] == "pickup" and a["seat"] != seat}
    return hidden - played


def _decisions(n_hands: int, seed: int) -> list[tuple[HandState, GameView]]:
    """Every decision of seeded bot games (medium bots, every deck), with the
    game view the seat to act gets, as the site gives it to a bot."""
    rng = random.Random(seed)
    out = []
    for h in range(n_hands):
        rules = Rules(deck=("24", "32", "25")[h % 3], stick_the_dealer=h % 2 == 0)
        game = game_start_hand(new_game(rules, 10, h % 3), rng)
        while (state := game.current) is not None:
            v = game_view(game, state.to_act)
            out.append((state, v))
            game = game_apply(game, choose_action("medium", v, rng))
    return out


class Recorder:
    """Stands in for Knowledge.from_view: keeps every input a bot reads."""

    def __init__(self) -> None:
        self.inputs: list[HandView] = []

    def __call__(self, view: HandView) -> Knowledge:
        self.inputs.append(view)
        return _from_view(view)


_from_view = Knowledge.from_view


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_receives_only_its_seats_view_and_no_hidden_card(
    level: str, small_budget: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every decision of seeded games the bot's only input is the seat's
    view (plain JSON data, no handle on the state), and it holds no card the
    seat may not see; the search may run the engine on deals it imagines."""
    seen = Recorder()
    monkeypatch.setattr(Knowledge, "from_view", seen)
    checked = 0
    for n, (state, v) in enumerate(_decisions(6, seed=31)):
        if level in ("hard", "expert") and n % 3:
            continue
        seat = state.to_act
        assert seat is not None
        plain = json.loads(json.dumps(v))
        assert plain == _as_lists(v)  # plain data: only its (seat, card) pairs become lists
        seen.inputs.clear()
        choose_action(level, plain, random.Random(n))
        assert seen.inputs and all(x is plain for x in seen.inputs)
        assert not _cards_in(plain) & _hidden_from(state, seat), (seat, v)
        checked += 1
    assert checked > 30


class Strict(dict):  # type: ignore[type-arg]
    """A view that fails on any write, so a bot cannot change what it was given."""

    def __setitem__(self, key: object, value: object) -> None:
        raise AssertionError(f"bot wrote {key!r} into the view")

    def __delitem__(self, key: object) -> None:
        raise AssertionError(f"bot deleted {key!r} from the view")


def _positions(n_hands: int, rng: random.Random) -> list[HandState]:
    out = []
    for h in range(n_hands):
        rules = Rules(deck=("24", "32", "25")[h % 3], stick_the_dealer=h % 2 == 0)
        state = new_hand(rules, h % 3, rng)
        while not state.over:
            out.append(state)
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
        a = choose_action(level, cast(HandView, strict), random.Random(5))
        b = choose_action(level, original, random.Random(5))
        assert a == b
        assert v == original


def _hidden_twin(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """The same hand so far with the cards this seat cannot see dealt anew
    among the places it cannot see (the cards the actions name stay put),
    when such a deal replays the same actions; else None."""
    rec = hand_to_record(state)
    named = {a.get(f) for a in rec["actions"] for f in ("card", "discard")}
    named |= {c for a in rec["actions"] for c in a.get("keep") or ()}
    deal = rec["deal"]
    places = [("hands", s) for s in range(3) if s != seat] + [("dummy", None), ("kitty", None)]
    if any(a["type"] == "dummy" and a["seat"] == seat for a in rec["actions"]):
        places.remove(("dummy", None))  # the maker saw it
    slots = []
    for where, s in places:
        if s is not None:
            cards = deal["hands"][s]
        else:
            cards = deal["dummy"] if where == "dummy" else deal["kitty"]
        for n, c in enumerate(cards):
            if c not in named and not (where == "kitty" and n == 0):
                slots.append((cards, n))
    for _ in range(20):
        cards = [cs[n] for cs, n in slots]
        rng.shuffle(cards)
        for (cs, n), c in zip(slots, cards, strict=True):
            cs[n] = c
        try:
            return hand_from_record(rec, pending_keep=True)
        except RecordError:
            continue
    return None


@pytest.mark.parametrize("level", LEVELS)
def test_cards_a_seat_cannot_see_do_not_change_its_decision(level: str, small_budget: None) -> None:
    """At decisions of every phase, a hand that differs only in cards the
    seat cannot see gives it the same view and the bot the same decision."""
    rng = random.Random(8)
    checked = 0
    for n, (state, _) in enumerate(_decisions(8, seed=8)):
        if level in ("hard", "expert") and n % 4:
            continue
        seat = state.to_act
        assert seat is not None
        twin = _hidden_twin(state, seat, rng)
        if twin is None:
            continue
        v1, v2 = view(state, seat), view(twin, seat)
        assert v1 == v2
        assert choose_action(level, v1, random.Random(n)) == choose_action(
            level, v2, random.Random(n)
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
        assert choose_action(level, v, random.Random(1)).to_dict() in v["legal_actions"]
