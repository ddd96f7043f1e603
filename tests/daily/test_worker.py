"""The daily deal through the real Celery worker and Redis: two players who
play the same moves meet the same deals and the same bot moves, and the
worker computes their points, the day's figures and places as they finish."""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from daily import services
from daily.models import DailyDeal, Entry
from games.models import Game
from tests.games.wsclient import acommunicator

from .conftest import my_points, person_moves, records

FRAME_TIMEOUT = 120  # a hard bot's decision takes its whole sample budget here


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


async def play_to_the_end(game_id: int, user: Any) -> int:
    """At the table's socket: the person moves (the fixed policy) whenever it
    is their turn; the worker's bots move between, each move pushed here.
    Returns the frames received."""
    game = await sync_to_async(game_row)(game_id)
    ws = await acommunicator(f"/ws/tables/{game.table_id}/", user)
    assert (await ws.connect())[0]
    frames = 0
    try:
        await ws.receive_from(timeout=10)  # the snapshot
        while True:
            game = await sync_to_async(game_row)(game_id)
            if game.status == Game.Status.FINISHED:
                return frames
            if game.to_act == 0:
                await sync_to_async(person_moves)(game, user)
                continue
            await ws.receive_from(timeout=FRAME_TIMEOUT)  # a bot moved
            frames += 1
    finally:
        await ws.disconnect()


def wait_for(check: Any, timeout: float = 60) -> None:
    """Until the worker's results are stored (it tells nobody: read them)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the worker did not compute the results"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_same_play_meets_the_same_deals_and_bot_moves_and_the_worker_ranks_it(
    alice: Any, bob: Any, real_celery: Any, celery_worker: Any
) -> None:
    games = {}
    for user in (alice, bob):
        entry = services.attempt_start(user=user)
        assert entry.game_id is not None
        assert async_to_sync(play_to_the_end)(entry.game_id, user) > 0
        games[user.username] = Game.objects.get(pk=entry.game_id)
    a, b = records(games["alice"]), records(games["bob"])
    assert len(a) == len(b) == 5
    deal = DailyDeal.objects.get()
    assert [r["deal"] for r in a] == [r["deal"] for r in b] == deal.deals
    # Every action the same, the worker's bots' included (their rng is the day's).
    assert [r["actions"] for r in a] == [r["actions"] for r in b]
    bot_moves = [x for r in a for x in r["actions"] if x["seat"] != 0]
    assert len(bot_moves) >= 15
    assert games["alice"].scores == games["bob"].scores

    def ranked() -> bool:
        """Both attempts counted and the day's figures computed after the
        last of them (the worker recomputes the day at most every 2 s)."""
        entries = list(Entry.objects.all())
        deal.refresh_from_db()
        counted = [e.total for e in entries if e.status == Entry.Status.FINISHED]
        return (
            len(counted) == 2
            and deal.summary.get("players") == 2
            and [e.place for e in entries] == services.places([e.total for e in entries])
            and all(h.get("players") == 2 for h in deal.summary["hands"])
        )

    wait_for(ranked)
    mine = my_points(games["alice"])
    for entry in Entry.objects.all():
        assert entry.points == mine and entry.total == sum(mine)
        assert entry.place == 1  # equal totals share the place
        assert entry.streak == 1
    assert [h["best"] for h in deal.summary["hands"]] == mine
    assert [h["average"] for h in deal.summary["hands"]] == [float(p) for p in mine]
