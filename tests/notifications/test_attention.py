"""Notifications respect attention (issue 22): nothing the open table shows,
no start or end of a live game one is playing, a table opened marks its
games' notices read. Real games, Celery run in-process on commit."""

from __future__ import annotations

from typing import Any

import pytest

from chat import services as chat
from games import presence
from games import services as game_services
from games.models import Game, Seat, Table
from notifications import services
from notifications.models import Notification

from .conftest import turns_game

pytestmark = pytest.mark.django_db


def live_table(owner: Any, *others: Any) -> Table:
    table = game_services.table_create(
        owner=owner,
        name="Live table",
        rules={},
        target=5,
        mode=Table.Mode.LIVE,
        move_seconds=None,
        visibility=Table.Visibility.PRIVATE,
    )
    for position, user in enumerate(others, start=1):
        game_services.table_join(table=table, user=user, position=position)
    return table


def kinds(user: Any) -> list[str]:
    return sorted(Notification.objects.filter(user=user).values_list("kind", flat=True))


def test_a_live_game_tells_its_players_neither_its_start_nor_its_end(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = live_table(alice, bob, carol)
    game = Game.objects.get(table=table)
    assert kinds(alice) == kinds(bob) == kinds(carol) == []
    # Bob drops and a bot stands in for him: the end is news to him, not to the others.
    Seat.objects.filter(table=table, user=bob).update(away=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.game_stop(game_id=game.pk)
    assert kinds(bob) == ["game_ended"] and kinds(alice) == kinds(carol) == []


def test_a_by_turns_game_still_tells_its_start_to_whoever_has_not_the_table_open(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = game_services.table_create(
        owner=alice,
        name="Turns",
        rules={},
        target=5,
        mode=Table.Mode.TURNS,
        move_seconds=86400,
        visibility=Table.Visibility.PRIVATE,
    )
    presence.joined(table.pk, alice.pk)  # alice waits at her table
    game_services.table_join(table=table, user=bob, position=1)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.table_join(table=table, user=carol, position=2)
    presence.left(table.pk, alice.pk)
    assert "game_started" not in kinds(alice)
    assert "game_started" in kinds(bob) and "game_started" in kinds(carol)


def test_opening_a_table_marks_the_notices_of_its_games_read(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = turns_game([alice, bob, carol])
    other = turns_game([alice, bob, carol], name="Other table")
    services.notify(user=alice, kind="game_started", game=other, params={"table": "Other"}, url="/")
    assert services.unread_count(alice) >= 2
    with django_capture_on_commit_callbacks(execute=True):
        chat.notifications_seen(table_id=game.table_id, user_id=alice.pk)  # the socket opens
    unread = Notification.objects.filter(user=alice, read_at__isnull=True)
    assert list(unread.values_list("game__table_id", flat=True).distinct()) == [other.table_id]
    assert services.seen_at_table(user_id=alice.pk, table_id=game.table_id) == 0  # idempotent
