"""The statistics task runs through a real Celery worker after a game ends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games import services
from games.models import Game
from stats.models import GameFact, HandFact, PlayerStats, Rating, RatingEvent
from tests.conftest import celery_conf
from tests.games.conftest import open_table


@pytest.fixture
def real_celery() -> Any:
    from euchre_site.celery import app

    celery_conf(task_always_eager=False)
    return app


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_finished_game_is_counted_and_rated_by_the_worker(
    alice: Any, bob: Any, real_celery: Any, celery_worker: Any
) -> None:
    table = open_table(alice, target=5)
    services.table_join(table=table, user=bob, position=1)
    services.table_set_bot(table=table, user=alice, position=2, level="medium")
    # Both people hand their seats to bots: the worker plays the whole game.
    services.seat_set_autopilot(table=table, user=alice, level="easy")
    services.seat_set_autopilot(table=table, user=bob, level="easy")
    game = table.games.get()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        game.refresh_from_db()
        done = (
            PlayerStats.objects.filter(key="all").exists()
            and RatingEvent.objects.filter(game=game).count() == 3
        )
        if game.status == Game.Status.FINISHED and done:
            break
        time.sleep(0.5)
    assert game.status == Game.Status.FINISHED
    finished_hands = game.hands.filter(result__isnull=False).count()
    for _ in range(40):  # the last hand's own task may still be finishing
        if HandFact.objects.filter(game=game).count() == 2 * finished_hands:
            break
        time.sleep(0.25)
    assert HandFact.objects.filter(game=game).count() == 2 * finished_hands
    assert GameFact.objects.filter(game=game).count() == 2
    for user, seat in ((alice, 0), (bob, 1)):
        data = PlayerStats.objects.get(key=f"user:{user.pk}").data
        assert data["lifetime"]["games"]["played"] == 1
        assert data["lifetime"]["games"]["won"] == int(game.winner == seat)
        assert data["lifetime"]["hands"] == finished_hands
        assert data["rating"]["games"] == 1
    assert Rating.objects.get(user=None, bot_level="medium").games == 1
