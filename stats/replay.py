"""The replay viewer: one finished hand, step by step, with every card face
up (docs/rules.md: once a hand is over the whole deal may be shown to its players).

Each move is said with its actor as it was at that move (the record marks a
bot's moves for a person): the person's name, or "walker's bot"; never the
seat's state now ("walker (bot playing)").

Only ever called for finished hands; the callers check that."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games import engine, words
from games.narration import describe
from games.presenters import Face
from games.presenters import face as card

from .facts import HandRecord, RecordAction, bot_made

# The replay's tags by a player's name and by the dummy (lower case).
TAGS: dict[str, Promise] = {
    # Translators: a tag by a player's name in a hand's replay (lower case): the player who dealt this hand.
    "dealer": pgettext_lazy("replay tag", "dealer"),
    # Translators: a tag by a player's name in a hand's replay (lower case): the maker, the player who chose trump and plays against the other two.
    "maker": pgettext_lazy("replay tag", "maker"),
    # Translators: a tag by a player's name in a hand's replay (lower case): this player plays the hand alone (the maker without the dummy, or a lone defender).
    "alone": pgettext_lazy("replay tag", "alone"),
    # Translators: a tag by a player's name in a hand's replay (lower case): this defender sits the hand out because the other defender plays alone.
    "sits_out": pgettext_lazy("replay tag", "sits out"),
    # Translators: a note by a player's name in a hand's replay (lower case): it is this player's turn.
    "to_act": pgettext_lazy("replay tag", "to act"),
    # Translators: a tag by the dummy (the extra hand of five cards dealt face down) in a hand's replay: the maker took it.
    "dummy_taken": pgettext_lazy("replay tag", "taken by the maker"),
}


class ReplaySeat(TypedDict):
    seat: int
    name: str
    dealer: bool
    maker: bool
    alone: bool
    sitting_out: bool
    tricks: int
    to_act: bool
    cards: list[Face]  # in hand at this step
    dealt: list[Face]


class PlayedCard(TypedDict):
    player: str
    card: Face


class LastTrick(TypedDict):
    winner: str
    cards: list[PlayedCard]


class ReplayLine(TypedDict):
    n: int  # 1-based
    text: str


class ReplayStep(TypedDict):
    """The replay viewer's context at one step (stats/replay.html)."""

    tags: dict[str, Promise]
    step: int
    total: int
    prev: int | None
    next: int | None
    seats: list[ReplaySeat]
    dummy: list[Face]
    dummy_used: bool
    kitty: list[Face]
    up_card: Face
    trump: str | None
    current_trick: list[PlayedCard]
    last_trick: LastTrick | None
    just_done: str
    steps: list[ReplayLine]
    result: Mapping[str, object] | None  # the hand's replay result, at the last step
    discards: list[list[Face]] | None  # at the last step


def _actor_names(action: RecordAction, people: dict[int, str]) -> dict[int, str]:
    """The seats' names for saying `action`: its seat named as it was at that
    move, the person for their own move, "walker's bot" for a bot's move for them."""
    seat = action["seat"]
    if not bot_made(action):
        return people
    return {**people, seat: words.bots_move_for(people[seat])}


def step_context(
    record: HandRecord,
    step: int,
    names: dict[int, str],
    final: Mapping[str, object] | None = None,
) -> ReplayStep:
    """What the viewer shows after the first `step` actions of a finished hand
    (one hand's record: a few dozen actions). `final` is the hand's result when
    it is stored (Hand.result, ImportedGame.hand_results): not replayed again."""
    actions = record["actions"]
    total = len(actions)
    step = max(0, min(step, total))
    state = engine.hand_from_record({**record, "actions": actions[:step]})
    dealer = record["dealer"]
    # The players by their own names: `names` says how the seats are now
    # ("walker (bot playing)"), which is not who made this hand's moves.
    names = {s: words.person_of(n) for s, n in names.items()}
    views = [engine.view(state, s) for s in range(3)]
    pub = engine.view(state, None)
    if final is None:
        final = dict(engine.replay_hand(record))
    deal = record["deal"]
    dummy_used = any(a["type"] == "dummy" for a in actions[:step])
    seats: list[ReplaySeat] = []
    for s in range(3):
        seats.append(
            {
                "seat": s,
                "name": names[s],
                "dealer": s == dealer,
                "maker": pub["maker"] == s,
                "alone": s in pub["alone"],
                "sitting_out": pub["sitting_out"] == s,
                "tricks": pub["tricks_won"][s],
                "to_act": pub["to_act"] == s,
                "cards": [card(c) for c in views[s]["hand"] or []],
                "dealt": [card(c) for c in deal["hands"][s]],
            }
        )
    last_trick = pub["tricks"][-1] if pub["tricks"] else None
    return {
        "tags": TAGS,
        "step": step,
        "total": total,
        "prev": step - 1 if step > 0 else None,
        "next": step + 1 if step < total else None,
        "seats": seats,
        "dummy": [card(c) for c in deal["dummy"]],
        "dummy_used": dummy_used,
        "kitty": [card(c) for c in deal["kitty"]],
        "up_card": card(deal["kitty"][0]),
        "trump": words.suit_name(pub["trump"]) if pub["trump"] in words.SUITS else None,
        "current_trick": [{"player": names[s], "card": card(c)} for s, c in pub["current_trick"]],
        "last_trick": None
        if last_trick is None
        else {
            "winner": names[last_trick["winner"]],
            "cards": [{"player": names[s], "card": card(c)} for s, c in last_trick["cards"]],
        },
        # Translators: the first step of a hand's replay, before anyone acted: the cards have been dealt.
        "just_done": (
            describe(actions[step - 1], _actor_names(actions[step - 1], names), dealer)
            if step
            else _("The deal.")
        ),
        "steps": [
            {"n": i + 1, "text": describe(a, _actor_names(a, names), dealer)}
            for i, a in enumerate(actions)
        ],
        "result": final if step == total else None,
        "discards": [
            [card(c) for c in per]
            for per in (views[0]["deal"]["discards"] if views[0]["deal"] else [])
        ]
        if step == total
        else None,
    }
