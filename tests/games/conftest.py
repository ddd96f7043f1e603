from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from games import engine, services
from games.models import Game, Table

User = get_user_model()


def open_table(owner: Any, **kw: Any) -> Table:
    args: dict[str, Any] = dict(
        name="Friday table", rules={}, target=5, mode="live", move_seconds=None, visibility="public"
    )
    args.update(kw)
    return services.table_create(owner=owner, **args)


@pytest.fixture
def full_table(alice: Any, bob: Any, carol: Any) -> Table:
    table = open_table(alice)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    return table


@pytest.fixture
def game(full_table: Table) -> Game:
    return full_table.games.select_related("table").get()


def see_the_rule(anchor: str) -> str:
    """The link a refusal's message ends with, to the rules page's section that
    explains it (none while the site has no rules page)."""
    try:
        url = reverse("rules")
    except NoReverseMatch:
        return ""
    return f' <a href="{url}#{anchor}">See the rule</a>'


def players(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in table.seats.select_related("user")}


def state_of(game: Game) -> engine.GameState:
    game.refresh_from_db()
    return services.game_state(game)


def to_act(game: Game) -> int:
    cur = state_of(game).current
    assert cur is not None and cur.to_act is not None
    return cur.to_act


def play_one(
    game: Game, rng: random.Random | None = None, prefer: str | None = None
) -> dict[str, Any]:
    """Play a legal action of whoever is to act, through the service: the first
    of type `prefer` if there is one, else a random one."""
    table = game.table
    state = state_of(game)
    seat = to_act(game)
    view = engine.game_view(state, seat)
    legal = view["legal_actions"]
    preferred = [a for a in legal if a["type"] == prefer]
    action = dict(preferred[0] if preferred else (rng or random.Random(game.version)).choice(legal))
    if view["exchange"]:
        action["keep"] = view["exchange"][:5]
    action.pop("seat", None)
    services.game_act(
        game_id=game.pk,
        version=game.version,
        action=action,
        actor=services.Actor.person(players(table)[seat]),
    )
    return action


# A game at a by-turns table (a day per move) of alice, bob and carol.
@pytest.fixture
def turns_game(alice: Any, bob: Any, carol: Any) -> Game:
    table = open_table(alice, mode="turns", move_seconds=86400)
    services.table_join(table=table, user=bob, position=1)
    game = services.table_join(table=table, user=carol, position=2)
    assert game is not None
    return game


def expire(game: Game) -> None:
    """Let the seat to act run out of time."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    game.refresh_from_db()
