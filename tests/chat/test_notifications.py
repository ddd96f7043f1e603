"""By-turns tables: new chat messages are told to the seated players who are
not on the table's page, one notification per table and reader until they
read it, mailed in the same batch as their turns (the real worker)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from chat import services
from games import presence
from notifications.models import Notification
from social.models import Mute
from tests.notifications.conftest import (  # noqa: F401  (fixtures)
    MailDir,
    eager_celery,
    game_waiting_for,
    notification_worker,
    notify_turn,
    turns_game,
    worker_mail,
)
from tests.notifications.test_worker import text_of

pytestmark = pytest.mark.django_db(transaction=True)


def chat_notes(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="chat").order_by("pk"))


def test_players_away_are_told_once_until_they_read(
    eager_celery: None,  # noqa: F811
    alice: Any,
    bob: Any,
    carol: Any,
    outsider: Any,
    settings: Any,
) -> None:
    settings.NOTIFY_EMAIL_DELAY = 0
    game = turns_game([alice, bob, carol])
    table = game.table
    presence.joined(table.pk, carol.pk)  # carol has the table open
    services.message_send(table=table, user=alice, phrase="hurry")
    services.message_send(table=table, user=alice, text="are you there?")
    [note] = chat_notes(bob)
    assert note.message == "New messages in the chat at Friday table."
    assert note.url == f"/tables/{table.pk}/" and note.game_id == game.pk
    assert chat_notes(carol) == [] and chat_notes(alice) == []

    # Read (bob opens the table, whose socket marks it read): the next message tells again.
    services.notifications_seen(table_id=table.pk, user_id=bob.pk)
    services.message_send(table=table, user=alice, phrase="thanks")
    assert len(chat_notes(bob)) == 2

    # A reader who muted the sender is not told; a live table tells nobody.
    Mute.objects.create(muter=bob, muted=carol)
    services.notifications_seen(table_id=table.pk, user_id=bob.pk)
    services.message_send(table=table, user=carol, phrase="sorry")
    assert len(chat_notes(bob)) == 2 and len(chat_notes(alice)) == 1


def test_a_live_table_tells_nobody_away(alice: Any, bob: Any, game: Any) -> None:
    services.message_send(table=game.table, user=alice, phrase="gg")
    assert not Notification.objects.filter(kind="chat").exists()


@pytest.mark.slow
def test_chat_and_turn_go_out_in_one_email_from_the_worker(
    worker_mail: MailDir,  # noqa: F811
    alice: Any,
    bob: Any,
    carol: Any,
    settings: Any,
) -> None:
    settings.NOTIFY_EMAIL_DELAY = 2  # the batch waits: the chat joins the turn
    settings.SITE_URL = "http://testserver"
    game = game_waiting_for(bob, [alice, bob, carol])
    assert notify_turn(bob, game) is not None
    services.message_send(table=game.table, user=alice, phrase="hurry")
    services.message_send(table=game.table, user=carol, text="your move, bob")
    messages = [m for m in worker_mail.wait_for(2) if m["To"] == "bob@example.com"]
    time.sleep(1.0)  # a second e-mail to bob would have come by now
    to_bob = [m for m in worker_mail.messages() if m["To"] == "bob@example.com"]
    assert len(to_bob) == 1 and to_bob[0]["Subject"] == "Your turn in Friday table"
    body = text_of(to_bob[0])
    assert "Your turn in Friday table." in body
    assert body.count("New messages in the chat at Friday table.") == 1
    assert "your move, bob" not in body  # the words stay on the site
    assert messages
    # Mailed but not read: more messages tell bob nothing new.
    [note] = chat_notes(bob)
    assert note.emailed_at is not None and note.read_at is None
    services.message_send(table=game.table, user=alice, phrase="thanks")
    assert len(chat_notes(bob)) == 1
