"""Back at the table after a stand-in bot played for you (issue 22): the
table says what it did, until your own next move."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine, frames
from games import services as games_services
from games.models import Game, Seat, Table
from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def move(game: Game, seat: int, actor: games_services.Actor) -> None:
    game.refresh_from_db()
    state = games_services.game_state(game)
    assert state.current is not None and state.current.to_act == seat
    legal = engine.legal_actions(state.current)[0].to_dict()
    action: dict[str, object] = {k: v for k, v in legal.items() if k != "seat"}
    if action["type"] == "dummy":
        exchange = engine.game_view(state, seat)["exchange"]
        assert exchange is not None
        action["keep"] = exchange[:5]
    games_services.game_act(game_id=game.pk, version=game.version, action=action, actor=actor)


def alice_sees(table: Table) -> str:
    game = table.games.get()
    return frames.render_table(table, game, 0)


def test_the_table_says_what_the_stand_in_did_until_your_own_move(
    alice: Any, bob: Any, carol: Any
) -> None:
    table = open_table(alice)
    games_services.table_join(table=table, user=bob, position=1)
    games_services.table_join(table=table, user=carol, position=2)
    game = table.games.get()
    people = {0: alice, 1: bob, 2: carol}
    away = Seat.objects.filter(table=table, position=0)
    away.update(away=True, bot_level="easy")  # alice dropped: a stand-in plays her seat
    for _ in range(400):
        game.refresh_from_db()
        if game.hands.filter(result__complete=True).count() >= 2 and game.to_act == 0:
            break
        seat = game.to_act
        assert seat is not None
        actor = (
            games_services.Actor.bot(0) if seat == 0 else games_services.Actor.person(people[seat])
        )
        move(game, seat, actor)
    assert "A bot played" not in alice_sees(table)  # still away: nothing to say yet
    away.update(away=False, bot_level="")  # she is back
    html = alice_sees(table)
    assert "A bot played 2 hands for you while you were away:" in html or (
        "A bot played 3 hands for you while you were away:" in html
    )
    assert ", then " in html and 'class="stood-in small" role="status"' in html
    move(game, 0, games_services.Actor.person(alice))  # her own move
    assert "A bot played" not in alice_sees(table)
    assert "A bot played" not in frames.render_table(table, table.games.get(), 1)  # bob's table
