"""By-turns play: deadlines, time-outs, the hand-over after three, vacations,
the sweeper, and the live tables' disconnect grace period. Time is moved by
the tests (deadlines set in the past), never slept through."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db.models import F
from django.test import Client
from django.utils import timezone

from accounts import vacations
from games import services, tasks
from games.models import Game, Seat

from .conftest import expire, open_table, play_one, players
from .wsclient import acommunicator

pytestmark = pytest.mark.django_db
DAY = 86400


def test_a_by_turns_turn_has_a_deadline_of_the_time_per_move(turns_game: Game) -> None:
    assert turns_game.deadline is not None
    left = (turns_game.deadline - timezone.now()).total_seconds()
    assert DAY - 60 < left <= DAY
    play_one(turns_game)
    before = turns_game.deadline
    turns_game.refresh_from_db()
    assert turns_game.deadline is not None and turns_game.deadline >= before


def test_a_live_table_has_no_deadline(game: Game) -> None:
    assert game.deadline is None


def test_the_time_out_move_is_made_by_the_bot_and_marked_auto(turns_game: Game) -> None:
    seat = turns_game.to_act
    assert seat is not None
    assert tasks.play_timeout(turns_game.pk, turns_game.version) == "not yet"
    expire(turns_game)
    assert tasks.play_timeout(turns_game.pk, turns_game.version) == "played"
    action = turns_game.hands.get().record["actions"][-1]
    assert action["seat"] == seat and action["auto"] is True
    assert Seat.objects.get(table=turns_game.table, position=seat).timeouts_in_row == 1
    user = players(turns_game.table)[seat]
    client = Client()
    client.force_login(user)
    assert (
        "Time ran out: the bot moved for"
        in client.get(turns_game.table.get_absolute_url()).content.decode()
    )
    assert tasks.play_timeout(turns_game.pk, turns_game.version - 1) == "stale"


def test_three_time_outs_in_a_row_hand_the_seat_to_a_bot_until_taken_back(turns_game: Game) -> None:
    # Always let the first seat to act time out; the others play.
    victim = turns_game.to_act
    assert victim is not None
    timeouts = 0
    for _ in range(300):
        turns_game.refresh_from_db()
        if turns_game.to_act == victim:
            expire(turns_game)
            assert tasks.play_timeout(turns_game.pk, turns_game.version) == "played"
            timeouts += 1
            if timeouts == 3:
                break
        else:
            play_one(turns_game)
    seat = Seat.objects.get(table=turns_game.table, position=victim)
    assert seat.timeouts_in_row == 3 and seat.bot_level == "medium"
    assert seat.user is not None
    client = Client()
    client.force_login(seat.user)
    page = client.get(turns_game.table.get_absolute_url()).content.decode()
    assert "A bot is playing your seat" in page
    client.post(f"/tables/{turns_game.table_id}/autopilot/", {"level": ""})
    seat.refresh_from_db()
    # The seat is theirs again; its count stays (only a move in time resets it).
    assert (seat.bot_level, seat.timeouts_in_row) == ("", 3)


def test_a_players_own_move_resets_the_time_out_count(turns_game: Game) -> None:
    seat = turns_game.to_act
    assert seat is not None
    Seat.objects.filter(table=turns_game.table, position=seat).update(timeouts_in_row=2)
    play_one(turns_game)
    assert Seat.objects.get(table=turns_game.table, position=seat).timeouts_in_row == 0


def test_expire_deadlines_finds_the_overdue_games(turns_game: Game, game: Game) -> None:
    assert tasks.expire_deadlines() == 0
    expire(turns_game)
    assert tasks.expire_deadlines() == 1


def test_a_vacation_pauses_deadlines_and_coming_back_restarts_them(turns_game: Game) -> None:
    # accounts owns the days (tests/accounts/test_vacations.py); games moves
    # its deadlines when accounts says a vacation changed.
    user = players(turns_game.table)[turns_game.to_act or 0]
    now = timezone.now()
    vacations.vacation_start(user=user, days=3, now=now)
    turns_game.refresh_from_db()
    assert turns_game.deadline is not None
    assert turns_game.deadline >= now + datetime.timedelta(days=3, seconds=DAY - 60)
    vacations.vacation_end(user=user, now=now + datetime.timedelta(hours=1))
    turns_game.refresh_from_db()
    back = now + datetime.timedelta(hours=1)  # the deadline runs again from the return
    assert turns_game.deadline == back + datetime.timedelta(seconds=DAY)


def test_the_vacation_form_on_the_profile(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    client.post("/vacation/", {"days": "20"})
    alice.refresh_from_db()
    assert alice.vacation_until is None
    client.post("/vacation/", {"days": "2"})
    alice.refresh_from_db()
    assert alice.on_vacation()
    assert "You are on vacation until" in client.get("/profile/").content.decode()


def test_my_games_lists_my_turns_first_by_deadline(alice: Any, bob: Any, carol: Any) -> None:
    tables = []
    for name, hours in (("Later", 30), ("Sooner", 2), ("Elsewhere", 1)):
        table = open_table(alice, name=name, mode="turns", move_seconds=DAY)
        services.table_join(table=table, user=bob, position=1)
        g = services.table_join(table=table, user=carol, position=2)
        assert g is not None
        to_act = 1 if name == "Elsewhere" else 0
        Game.objects.filter(pk=g.pk).update(
            to_act=to_act, deadline=timezone.now() + datetime.timedelta(hours=hours)
        )
        tables.append(table)
    client = Client()
    client.force_login(alice)
    html = client.get("/games/mine/").content.decode()
    assert html.index("Sooner") < html.index("Later") < html.index("Elsewhere")
    assert html.count("Your turn") == 2 and "bob" in html


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_resumes_a_game_whose_bot_task_was_lost(alice: Any, celery_worker: Any) -> None:
    table = open_table(alice)
    services.table_set_bot(table=table, user=alice, position=1, level="easy")
    game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
    assert game is not None
    services.seat_set_autopilot(table=table, user=alice, level="easy")  # three bots
    # Lose the queued task: the game moves on without it and then stalls.
    Game.objects.filter(pk=game.pk).update(
        version=F("version") + 1, last_move_at=timezone.now() - datetime.timedelta(hours=1)
    )
    game.refresh_from_db()
    stalled_at = game.version

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{table.pk}/", alice)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        assert await sync_to_async(tasks.sweep_stalled_games)() == 1
        frame = await ws.receive_from(timeout=30)  # the worker's resumed move
        assert f'data-version="{stalled_at + 1}"' in frame
        await ws.disconnect()

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_live_player_who_drops_gets_a_bot_then_the_seat_back_on_return(game: Game) -> None:
    user = players(game.table)[0]

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", user)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        await ws.disconnect()
        # The grace period has passed (the task would run after LIVE_GRACE_SECONDS).
        assert await sync_to_async(tasks.live_grace_expired)(game.table_id, user.pk) == "bot"
        seat = await sync_to_async(Seat.objects.get)(table=game.table_id, position=0)
        assert (seat.bot_level, seat.away) == ("medium", True)
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", user)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        seat = await sync_to_async(Seat.objects.get)(table=game.table_id, position=0)
        assert (seat.bot_level, seat.away) == ("", False)
        await ws.disconnect()

    async_to_sync(run)()


def test_a_player_back_within_the_grace_period_keeps_the_seat(game: Game) -> None:
    from games import presence

    user = players(game.table)[0]
    presence.joined(game.table_id, user.pk)
    assert tasks.live_grace_expired(game.table_id, user.pk) == "back"
    presence.left(game.table_id, user.pk)
    assert Seat.objects.get(table=game.table, position=0).bot_level == ""


def test_the_player_whose_turn_comes_is_told_once(turns_game: Game) -> None:
    from notifications.models import Notification

    tasks.tell_players(turns_game.pk, turns_game.version)
    tasks.tell_players(turns_game.pk, turns_game.version)  # a repeated task
    seated = players(turns_game.table)
    assert turns_game.to_act is not None
    waiting = seated[turns_game.to_act]
    turn = Notification.objects.filter(kind="turn")
    assert [n.user for n in turn] == [waiting]
    assert turn.get().url == turns_game.table.get_absolute_url()
    started = Notification.objects.filter(kind="game_started")
    assert sorted(n.user.username for n in started) == ["alice", "bob", "carol"]
    play_one(turns_game)
    assert tasks.tell_players(turns_game.pk, turns_game.version - 1) == "stale"


def test_a_time_out_tells_the_player(turns_game: Game) -> None:
    from notifications.models import Notification

    seat = turns_game.to_act
    assert seat is not None
    expire(turns_game)
    tasks.play_timeout(turns_game.pk, turns_game.version)
    note = Notification.objects.get(kind="timeout")
    assert note.user == players(turns_game.table)[seat]
    # games tells the facts (games.signals); notifications writes the words
    # in the player's language.
    assert note.params == {"table": turns_game.table.name, "handed_over": False}


@pytest.mark.django_db(transaction=True)
def test_my_games_pages_are_told_to_refresh_after_a_by_turns_move(turns_game: Game) -> None:
    from games import realtime

    user = players(turns_game.table)[0]

    async def run() -> None:
        ws = await acommunicator("/ws/notifications/", user)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the badge
        await sync_to_async(realtime.push_my_games)([user.pk])
        # The game's start may still be told (a badge and a toast) on the same socket.
        frame = await ws.receive_from(timeout=5)
        while 'id="my-games-refresh"' not in frame:
            assert 'id="unread-badge"' in frame, frame
            frame = await ws.receive_from(timeout=5)
        assert "/games/mine/?partial=1" in frame
        await ws.disconnect()

    async_to_sync(run)()
    client = Client()
    client.force_login(user)
    partial = client.get("/games/mine/?partial=1", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="my-games"') and "Friday table" in partial
