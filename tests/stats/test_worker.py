"""The statistics task runs through a real Celery worker after a game ends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games import services
from games.models import Game
from stats.models import GameFact, HandFact, PlayerStats, Rating, RatingEvent
from tests.games.conftest import open_table


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_game_the_workers_bots_played_for_both_people_counts_for_neither(
    alice: Any, bob: Any, real_celery: Any, celery_worker: Any
) -> None:
    table = open_table(alice, target=5)
    services.table_join(table=table, user=bob, position=1)
    services.table_set_bot(table=table, user=alice, position=2, level="medium")
    # Both people hand their seats to bots before the first move: the worker
    # plays the whole game, and it is neither person's game.
    services.seat_set_autopilot(table=table, user=alice, level="easy")
    services.seat_set_autopilot(table=table, user=bob, level="easy")
    game = table.games.get()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        game.refresh_from_db()
        done = (
            PlayerStats.objects.filter(key="all").exists()
            and GameFact.objects.filter(game=game).count() == 2
        )
        if game.status == Game.Status.FINISHED and done:
            break
        time.sleep(0.5)
    assert game.status == Game.Status.FINISHED
    # The hand records say who moved: the people's seats, their autopilot.
    actions = [a for h in game.hands.all() for a in h.record["actions"]]
    assert {a.get("by") for a in actions if a["seat"] in (0, 1)} == {"autopilot"}
    assert all("by" not in a for a in actions if a["seat"] == 2)  # a bot's own seat
    time.sleep(1)  # the last hand's own task may still be finishing
    assert not HandFact.objects.filter(game=game).exists()
    facts = GameFact.objects.filter(game=game)
    assert facts.count() == 2
    assert all(not f.counted and not f.won and f.rating_note == "bot_only" for f in facts)
    for user in (alice, bob):
        data = PlayerStats.objects.get(key=f"user:{user.pk}").data
        assert data["lifetime"]["games"]["played"] == 0
        assert data["lifetime"]["hands"] == 0
        assert data["rating"] is None
    # Bots played it all: a game of bots, rated for nobody.
    assert not Rating.objects.exists() and not RatingEvent.objects.filter(game=game).exists()
