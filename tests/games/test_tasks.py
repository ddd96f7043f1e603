from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, tasks
from games.models import Game, Seat

from .conftest import open_table
from .wsclient import acommunicator

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_game(alice: Any) -> Game:
    """alice against two bots, with the first turn a bot's."""
    for _ in range(50):
        table = open_table(alice)
        services.table_set_bot(table=table, user=alice, position=1, level="medium")
        game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
        assert game is not None
        if game.to_act != 0:
            return game
        table.delete()
    raise AssertionError("no deal gave a bot the first turn")


def actions(game: Game) -> int:
    return sum(len(h.record["actions"]) for h in game.hands.all())


def test_a_bot_turn_is_played_once_and_a_duplicate_does_nothing(bot_game: Game) -> None:
    assert tasks.play_bot_turn(bot_game.pk, 1) == "played"
    assert tasks.play_bot_turn(bot_game.pk, 1) == "stale"
    assert actions(bot_game) == 1
    bot_game.refresh_from_db()
    assert bot_game.version == 2


def test_a_bot_move_reads_the_game_once_and_no_hand_row(
    bot_game: Game, django_capture_on_commit_callbacks: Any
) -> None:
    """A bot that decides at once moves in one transaction (services.bot_act):
    the game and its seats are read once, and the current hand row is made
    from the state this process kept (as after the move before it)."""
    with django_capture_on_commit_callbacks(execute=True):
        services.game_state(bot_game)  # kept once committed
    with CaptureQueriesContext(connection) as moved:
        assert tasks.play_bot_turn(bot_game.pk, 1) == "played"
    reads = [q["sql"] for q in moved.captured_queries if q["sql"].startswith("SELECT")]
    assert sum('FROM "games_game"' in sql for sql in reads) == 1, reads
    assert not any('FROM "games_hand"' in sql for sql in reads), reads
    hand = bot_game.hands.get()
    assert len(hand.record["actions"]) == 1
    bot_game.refresh_from_db()
    assert bot_game.version == 2
    # The row made from a kept state is the stored one.
    with django_capture_on_commit_callbacks(execute=True):
        state = services.game_state(bot_game)
    with CaptureQueriesContext(connection) as made:
        kept = services.current_hand_row(bot_game, state)
    assert not made.captured_queries
    assert kept is not None and (kept.pk, kept.number, kept.record) == (
        hand.pk,
        hand.number,
        hand.record,
    )


def test_a_late_task_for_an_old_version_does_nothing(bot_game: Game) -> None:
    Game.objects.filter(pk=bot_game.pk).update(version=5)
    assert tasks.play_bot_turn(bot_game.pk, 1) == "stale"
    assert actions(bot_game) == 0


def test_a_task_for_a_persons_turn_does_nothing(alice: Any) -> None:
    for _ in range(50):
        table = open_table(alice)
        services.table_set_bot(table=table, user=alice, position=1, level="easy")
        game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
        assert game is not None
        if game.to_act == 0:
            assert tasks.play_bot_turn(game.pk, game.version) == "not a bot"
            assert actions(game) == 0
            return
        table.delete()


def test_the_bot_answers_the_dummy_step_with_five_cards(bot_game: Game) -> None:
    for _ in range(400):
        bot_game.refresh_from_db()
        hand = services.current_hand_row(bot_game)
        current = services.game_state(bot_game).current
        if hand is not None and current is not None and current.phase == "dummy_keep":
            assert bot_game.to_act is not None
            seat = Seat.objects.get(table=bot_game.table, position=bot_game.to_act)
            if seat.is_bot:
                assert tasks.play_bot_turn(bot_game.pk, bot_game.version) == "played"
                last = hand.__class__.objects.get(pk=hand.pk).record["actions"][-1]
                assert last["type"] == "dummy" and len(last["keep"]) == 5
                return
        if bot_game.status == Game.Status.FINISHED:
            break
        assert bot_game.to_act is not None
        seat = Seat.objects.get(table=bot_game.table, position=bot_game.to_act)
        if seat.is_bot:
            tasks.play_bot_turn(bot_game.pk, bot_game.version)
        else:
            assert seat.user is not None
            services.seat_set_autopilot(table=bot_game.table, user=seat.user, level="medium")
    pytest.fail("no bot chose the dummy in 400 moves")


@pytest.mark.django_db(transaction=True)
def test_a_game_of_three_bots_runs_to_the_end_through_the_real_worker(
    alice: Any, celery_worker: Any
) -> None:
    table = open_table(alice, target=5)

    async def watch_until_over() -> str:
        ws = await acommunicator(f"/ws/tables/{table.pk}/", alice)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the snapshot
        await sync_to_async(start)()
        frame = ""
        while "won the game" not in frame:  # every move of the worker's bots is pushed here
            frame = await ws.receive_from(timeout=60)
        await ws.disconnect()
        return frame

    def start() -> None:
        services.table_set_bot(table=table, user=alice, position=1, level="medium")
        services.table_set_bot(table=table, user=alice, position=2, level="hard")
        services.seat_set_autopilot(table=table, user=alice, level="easy")

    last_frame = async_to_sync(watch_until_over)()
    game = table.games.get()
    assert game.status == Game.Status.FINISHED
    assert f'data-version="{game.version}"' in last_frame
    assert max(game.scores) >= 5 and game.winner is not None
    assert all(h.result is not None for h in game.hands.all())
