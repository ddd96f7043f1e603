"""Computer players: each reads one seat's view and returns a legal action.

Pure Python, no Django. A bot never sees the hand's full state: its only
input is the dict of `games.engine.view(state, seat)` (or `game_view`, which
adds `scores` and `target`; without them the score is taken as 0-0-0 to 10),
plus an explicit `random.Random`.

    choose_action(level, view, rng, budget_ms=None, capped=True) -> action dict

Levels (`LEVELS`, offered to players): easy, medium, hard (search, quick
enough for live play) and expert (the hard bot's method with four times the
samples, at most 2 s a decision). Earlier bots are measured from git, not
kept as forks: `python -m games.bots.duel --b git:<rev>` (games.bots.revision).

The action is one of `view["legal_actions"]`. The maker's dummy choice is
two engine phases, as for a person: at `maker_choice` the bot returns `alone`
or `{"seat", "type": "dummy"}` (nobody has seen the dummy yet); at
`dummy_keep` the view holds the ten cards as `exchange`, and the answer is
`{"seat", "type": "dummy", "keep": [five of them]}`.

    analyse(view, rng, budget_ms) -> [{"action", "score", "share"}, ...]

is the hard bot's ranking of the legal actions, best first: `score` is the
mean value of the action over the sampled deals (in points of this seat
relative to the others, adjusted for the game score) and `share` the
fraction of samples in which it was best.
"""

from __future__ import annotations

import random

from games.engine import HandView

from . import easy, hard, medium
from .common import Action, Knowledge

LEVELS = ("easy", "medium", "hard", "expert")  # offered to players
# Every level there is: only the player-facing ones (a level is a configuration of a bot).
ALL_LEVELS = LEVELS
# The levels whose decision is a search (tens of milliseconds to seconds of a
# worker): the ones worth scheduling fairly (games.tasks). The others decide
# in a tenth of a millisecond.
SEARCHING = frozenset(hard.SEARCH_LEVELS)

__all__ = ["ALL_LEVELS", "LEVELS", "SEARCHING", "Ranked", "analyse", "choose_action"]

Ranked = hard.Ranked


def choose_action(
    level: str,
    view: HandView,
    rng: random.Random,
    *,
    budget_ms: int | None = None,
    capped: bool = True,
) -> Action:
    """The bot's action for the seat of `view` (which must be the seat to act).

    `capped=False` lifts the hard and expert bots' wall-time cap on a
    decision: the action then depends on the view and `rng` alone, whatever
    the machine's load (the daily deal: the same play meets the same bots)."""
    if level not in ALL_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(ALL_LEVELS)}")
    if not view["legal_actions"]:
        raise ValueError("this seat has nothing to decide now")
    k = Knowledge.from_view(view)
    if level == "easy":
        a = easy.decide(k, rng)
    elif level == "medium":
        a = medium.decide(k, rng)
    else:
        a = hard.decide(k, rng, budget_ms, hard.SEARCH_LEVELS[level], capped=capped)
    return a


def analyse(view: HandView, rng: random.Random, budget_ms: int | None = None) -> list[hard.Ranked]:
    """The hard bot's ranking of the legal actions (best first)."""
    k = Knowledge.from_view(view)
    return hard.analyse(k, rng, budget_ms)
