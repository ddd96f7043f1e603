"""E-mail through a real Celery worker on the real Redis.

The worker is started with `EMAIL_URL=filemail://...` (Django's file e-mail
backend), so what it sends can be read back here: real processes, no mocks.
"""

from __future__ import annotations

import re
from email.message import Message
from typing import Any
from urllib.parse import urlparse

import pytest
from django.test import Client

from notifications import services
from notifications.models import Notification

from .conftest import MailDir, game_waiting_for, notify_turn

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def text_of(message: Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes)
            return payload.decode()
    raise AssertionError("no text part")


def table_links(text: str) -> list[str]:
    return re.findall(r"http://testserver/tables/\d+/", text)


def test_a_turn_gives_one_notification_and_one_email_from_the_worker(
    worker_mail: MailDir, alice: Any, bob: Any, carol: Any
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    note = notify_turn(alice, game)
    assert note is not None
    assert notify_turn(alice, game) is None  # the same turn again: nothing
    messages = worker_mail.wait_for(1)
    assert len(messages) == 1
    message = messages[0]
    assert message["To"] == "alice@example.com"
    assert message["Subject"] == "Your turn in Friday table"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    body = text_of(message)
    assert table_links(body) == [f"http://testserver/tables/{game.table_id}/"]
    client = Client()
    client.force_login(alice)
    assert client.get(urlparse(table_links(body)[0]).path).status_code == 200
    assert Notification.objects.filter(user=alice).count() == 1
    note.refresh_from_db()
    assert note.emailed_at is not None and not note.email_pending

    # A turn in another game later: a new message with that game only.
    other = game_waiting_for(alice, [alice, bob, carol], name="Other table")
    notify_turn(alice, other)
    messages = worker_mail.wait_for(2)
    # Two messages, one link each (the files' order within a second is arbitrary).
    assert sorted(table_links(text_of(m)) for m in messages) == sorted(
        [
            [f"http://testserver/tables/{game.table_id}/"],
            [f"http://testserver/tables/{other.table_id}/"],
        ]
    )


def test_turns_pending_together_are_combined_by_the_worker(
    worker_mail: MailDir, settings: Any, alice: Any, bob: Any, carol: Any
) -> None:
    first = game_waiting_for(alice, [alice, bob, carol], name="Monday table")
    second = game_waiting_for(alice, [alice, carol, bob], name="Tuesday table")
    settings.NOTIFY_EMAIL_DELAY = 1.0  # both turns are in before the first task runs
    notify_turn(alice, first)
    notify_turn(alice, second)
    messages = worker_mail.wait_for(1)
    assert [m["Subject"] for m in messages] == ["Your turn in Monday table (and 1 more)"]
    assert table_links(text_of(messages[0])) == [
        f"http://testserver/tables/{first.table_id}/",
        f"http://testserver/tables/{second.table_id}/",
    ]
    # Both are claimed, so the second task has nothing left to send.
    assert not Notification.objects.filter(user=alice, email_pending=True).exists()
    assert services.send_pending_emails(alice.pk).sent == 0


def _wait_for(query: Any, timeout: float = 20) -> bool:
    """Poll until the worker has written what `query` finds (its time, not the test's)."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if query.exists():
            return True
        time.sleep(0.05)
    return False


def test_the_worker_tells_nothing_of_a_table_to_a_player_who_has_it_open(
    notification_worker: MailDir, alice: Any, bob: Any, carol: Any
) -> None:
    """Issue 22: the start and the turn are shown by the open table; told
    (in-app and by e-mail) only once the player is away from it."""
    from games import presence, tasks

    from .conftest import on_the_worker

    game = game_waiting_for(alice, [alice, bob, carol])  # by turns: alice's move
    Notification.objects.all().delete()
    with on_the_worker(
        notification_worker, "notifications.tasks.*", "games.tasks.tell_players"
    ) as mail:
        presence.joined(game.table_id, alice.pk)  # alice looks at the table
        tasks.tell_players.delay(game.pk, game.version)
        assert _wait_for(Notification.objects.filter(user=bob, kind="game_started"))
        assert _wait_for(Notification.objects.filter(user=carol, kind="game_started"))
        assert not Notification.objects.filter(user=alice).exists()
        presence.left(game.table_id, alice.pk)  # she closed it
        tasks.tell_players.delay(game.pk, game.version)
        assert _wait_for(Notification.objects.filter(user=alice, kind="turn"))
        # Away from the table: her turn is for e-mail too (the batch is sent later).
        assert Notification.objects.get(user=alice, kind="turn").email_pending
        assert mail is notification_worker
