"""Computer players: each reads one seat's view and returns a legal action.

Pure Python, no Django. A bot never sees the hand's full state: its only
input is the dict of `games.engine.view(state, seat)` (or `game_view`, which
adds `scores` and `target`; without them the score is taken as 0-0-0 to 10),
plus an explicit `random.Random`.

    choose_action(level, view, rng, budget_ms=None) -> action dict

The action is one of `view["legal_actions"]`, with one exception forced by
the rules: the maker's dummy choice is made in two steps, as for a person.
At `maker_choice` the view lists `{"seat", "type": "dummy"}` without `keep`
(nobody has seen the dummy yet), and the bot returns either the `alone`
action or that `dummy` action. If it is `dummy`, ask again with the ten
cards the maker now sees, as the key `exchange` (or the site's
`exchange_cards`) in the view (`view | {"exchange":
engine.maker_exchange_cards(state)}`), or call
`choose_keep(level, view, ten, rng)`; the answer is then the complete
record action `{"seat", "type": "dummy", "keep": [five cards]}`.

    analyse(view, rng, budget_ms) -> [{"action", "score", "share"}, ...]

is the hard bot's ranking of the legal actions, best first: `score` is the
mean value of the action over the sampled deals (in points of this seat
relative to the others, adjusted for the game score) and `share` the
fraction of samples in which it was best.
"""

from __future__ import annotations

import random
from typing import Any

from . import easy, hard, medium
from .common import Action, Knowledge

LEVELS = ("easy", "medium", "hard")

__all__ = ["LEVELS", "analyse", "choose_action", "choose_keep"]


def choose_action(
    level: str, view: dict[str, Any], rng: random.Random, *, budget_ms: int | None = None
) -> Action:
    """The bot's action for the seat of `view` (which must be the seat to act)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    if not view.get("legal_actions") and not (view.get("exchange") or view.get("exchange_cards")):
        raise ValueError("this seat has nothing to decide now")
    k = Knowledge.from_view(view)
    if level == "easy":
        a = easy.decide(k, rng)
    elif level == "medium":
        a = medium.decide(k, rng)
    else:
        a = hard.decide(k, rng, budget_ms)
    return dict(a)


def choose_keep(
    level: str,
    view: dict[str, Any],
    ten: list[str],
    rng: random.Random,
    *,
    budget_ms: int | None = None,
) -> Action:
    """The maker's complete dummy action once the ten cards (hand and dummy) are known."""
    return choose_action(level, {**view, "exchange": list(ten)}, rng, budget_ms=budget_ms)


def analyse(
    view: dict[str, Any], rng: random.Random, budget_ms: int | None = None
) -> list[dict[str, Any]]:
    """The hard bot's ranking of the legal actions (best first)."""
    k = Knowledge.from_view(view)
    return hard.analyse(k, rng, budget_ms)
