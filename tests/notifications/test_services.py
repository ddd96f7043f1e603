from __future__ import annotations

import datetime
from typing import Any
from urllib.parse import urlparse

import pytest
from django.test import Client
from django.utils import timezone

from games import presence
from games.models import Game, Table
from notifications import services, texts
from notifications.models import Notification

from .conftest import game_waiting_for, notify_turn

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def test_a_turn_gives_one_in_app_notification_and_one_email_with_a_working_link(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    with django_capture_on_commit_callbacks(execute=True):
        note = notify_turn(alice, game)
    assert note is not None
    assert Notification.objects.filter(user=alice).count() == 1
    assert services.unread_count(alice) == 1
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Your turn in Friday table"
    link = f"http://testserver/tables/{game.table_id}/"
    assert link in message.body
    html = message.alternatives[0][0]
    assert f'href="{link}"' in html
    client = Client()
    client.force_login(alice)
    assert client.get(urlparse(link).path).status_code == 200
    note.refresh_from_db()
    assert note.emailed_at is not None and not note.email_pending


def test_the_same_turn_is_told_once(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_turn(alice, game) is not None
        assert notify_turn(alice, game) is None
    assert Notification.objects.filter(user=alice).count() == 1
    assert len(mailoutbox) == 1


def test_two_pending_turns_in_two_games_go_out_as_one_email(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    first = game_waiting_for(alice, [alice, bob, carol], name="Monday table")
    second = game_waiting_for(alice, [alice, carol, bob], name="Tuesday table")
    # The batching task has not run yet (its countdown), so both wait for it.
    notify_turn(alice, first)
    notify_turn(alice, second)
    outcome = services.send_pending_emails(alice.pk)
    assert outcome.sent == 2
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.subject == "Your turn in Monday table (and 1 more)"
    assert f"/tables/{first.table_id}/" in message.body
    assert f"/tables/{second.table_id}/" in message.body
    # Each turn is mailed once: a second task finds nothing.
    assert services.send_pending_emails(alice.pk).sent == 0
    assert len(mailoutbox) == 1


def test_a_turn_already_played_is_not_mailed(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    notify_turn(alice, game)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # alice moved meanwhile
    outcome = services.send_pending_emails(alice.pk)
    assert (outcome.sent, outcome.skipped) == (0, 1)
    assert mailoutbox == []


def test_the_email_has_a_one_click_unsubscribe(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    notify_turn(alice, game)
    services.send_pending_emails(alice.pk)
    message = mailoutbox[0]
    token = services.preferences_for(alice).unsubscribe_token
    url = f"http://testserver/notifications/unsubscribe/{token}/"
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body


def test_nothing_is_told_of_a_turn_at_the_table_the_player_has_open(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    services.mark_all_read(alice)  # the start's notice
    presence.joined(game.table_id, alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_turn(alice, game) is None  # the table shows it: no notice at all
    assert services.unread_count(alice) == 0
    assert mailoutbox == []
    presence.left(game.table_id, alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_turn(alice, game) is not None  # away from it: told


def test_a_player_who_opens_the_table_before_the_batch_goes_out_gets_no_email(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    notify_turn(alice, game)
    presence.joined(game.table_id, alice.pk)
    assert services.send_pending_emails(alice.pk).sent == 0
    presence.left(game.table_id, alice.pk)
    assert services.send_pending_emails(alice.pk).sent == 0  # dropped, not postponed
    assert mailoutbox == []


def test_email_off_means_in_app_only(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    prefs = services.preferences_for(alice)
    prefs.email_enabled = False
    prefs.save()
    game = game_waiting_for(alice, [alice, bob, carol])
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_turn(alice, game) is not None
    assert mailoutbox == []
    assert services.unread_count(alice) == 1


def test_quiet_hours_hold_the_email_until_they_end(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    prefs = services.preferences_for(alice)
    prefs.quiet_start = datetime.time(22, 0)
    prefs.quiet_end = datetime.time(7, 30)
    prefs.time_zone = "Europe/Berlin"
    prefs.save()
    game = game_waiting_for(alice, [alice, bob, carol])
    notify_turn(alice, game)
    night = datetime.datetime(2026, 1, 14, 23, 0, tzinfo=UTC)  # 00:00 in Berlin
    outcome = services.send_pending_emails(alice.pk, now=night)
    assert outcome.sent == 0
    assert outcome.retry_at == datetime.datetime(2026, 1, 15, 6, 30, tzinfo=UTC)  # 07:30 Berlin
    assert mailoutbox == []
    assert services.send_pending_emails(alice.pk, now=outcome.retry_at).sent == 1
    assert len(mailoutbox) == 1


@pytest.mark.parametrize(
    ("start", "end", "local", "quiet"),
    [
        ((22, 0), (7, 0), (21, 59), False),
        ((22, 0), (7, 0), (22, 0), True),
        ((22, 0), (7, 0), (6, 59), True),
        ((22, 0), (7, 0), (7, 0), False),
        ((13, 0), (14, 0), (13, 30), True),
        ((13, 0), (14, 0), (14, 30), False),
    ],
)
def test_quiet_hours_over_midnight_and_within_a_day(
    alice: Any,
    start: tuple[int, int],
    end: tuple[int, int],
    local: tuple[int, int],
    quiet: bool,
) -> None:
    prefs = services.preferences_for(alice)
    prefs.quiet_start, prefs.quiet_end = datetime.time(*start), datetime.time(*end)
    prefs.time_zone = "America/New_York"
    now = datetime.datetime(
        2026, 7, 1, *local, tzinfo=datetime.timezone(datetime.timedelta(hours=-4))
    )
    assert services.in_quiet_hours(prefs, now) is quiet


def test_unsubscribing_stops_emails(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    notify_turn(alice, game)
    token = services.preferences_for(alice).unsubscribe_token
    assert services.preferences_unsubscribe(token=token) is not None
    assert services.send_pending_emails(alice.pk).sent == 0
    assert not services.preferences_for(alice).email_enabled
    assert services.preferences_unsubscribe(token="not-a-token") is None
    assert mailoutbox == []


def test_notify_refuses_an_unknown_kind(alice: Any) -> None:
    with pytest.raises(ValueError, match=r"^unknown notification kind 'gossip'$"):
        services.notify(user=alice, kind="gossip", game=None, text="hi", url="/")


def test_mark_read_and_mark_all_read(alice: Any, bob: Any) -> None:
    notes = [
        services.notify(user=alice, kind="game_started", game=None, text=f"n{i}", url="/")
        for i in range(3)
    ]
    theirs = services.notify(user=bob, kind="game_started", game=None, text="b", url="/")
    assert notes[0] is not None and theirs is not None
    assert services.unread_count(alice) == 3
    assert services.mark_read(alice, notes[0].pk)
    assert not services.mark_read(alice, theirs.pk)
    assert services.unread_count(alice) == 2
    assert services.unread_count(bob) == 1
    assert services.mark_all_read(alice) == 2
    assert services.unread_count(alice) == 0
    assert services.unread_count(bob) == 1


# --------------------------------------------------------------------------- reminders


def _deadline_game(
    alice: Any, bob: Any, carol: Any, deadline: datetime.datetime, *, move_seconds: int = 86400
) -> Game:
    game = game_waiting_for(alice, [alice, bob, carol])
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    Table.objects.filter(pk=game.table_id).update(move_seconds=move_seconds)
    game.refresh_from_db()
    return game


def test_a_reminder_comes_only_when_the_time_limit_is_longer_than_its_lead(
    alice: Any, bob: Any, carol: Any
) -> None:
    """A one-hour table and the default two-hour lead: the turn's own notice
    says it all (a reminder 45 s after it said "due in 59 minutes")."""
    deadline = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    _deadline_game(alice, bob, carol, deadline, move_seconds=3600)
    assert services.preferences_for(alice).reminder_minutes == 120
    assert services.send_reminders(deadline - datetime.timedelta(minutes=59)) == 0
    prefs = services.preferences_for(alice)
    prefs.reminder_minutes = 60  # the whole time limit: still the turn's own minute
    prefs.save()
    assert services.send_reminders(deadline - datetime.timedelta(minutes=59)) == 0
    prefs.reminder_minutes = 30
    prefs.save()
    assert services.send_reminders(deadline - datetime.timedelta(minutes=30)) == 1
    assert services.reminder_worth_it(3600, 59) and not services.reminder_worth_it(3600, 60)
    assert not services.reminder_worth_it(None, 30)


def test_reminders_come_at_the_lead_time_and_not_before(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    deadline = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    game = _deadline_game(alice, bob, carol, deadline)
    hours = datetime.timedelta(hours=1)
    assert services.due_reminders(deadline - 2 * hours - datetime.timedelta(seconds=1)) == []
    assert services.due_reminders(deadline - 2 * hours) == [(game, alice)]
    assert services.send_reminders(deadline - 90 * datetime.timedelta(minutes=1)) == 1
    assert services.send_reminders(deadline - hours) == 0  # one per (game, version)
    assert services.due_reminders(deadline) == []  # too late: the time-out takes over
    note = Notification.objects.get(user=alice)
    assert note.kind == "reminder"
    assert note.turn_key == f"reminder:{game.pk}:{game.version}"
    assert note.params == {"table": "Friday table", "minutes": 90}
    assert note.text == ""  # the words are written when read or sent
    assert texts.render(note) == "Your move at Friday table is due in 90 minutes."
    assert note.url == f"/tables/{game.table_id}/"


def test_each_player_chooses_the_lead_time(alice: Any, bob: Any, carol: Any) -> None:
    prefs = services.preferences_for(alice)
    prefs.reminder_minutes = 30
    prefs.save()
    deadline = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    _deadline_game(alice, bob, carol, deadline)
    assert services.send_reminders(deadline - datetime.timedelta(minutes=31)) == 0
    assert services.send_reminders(deadline - datetime.timedelta(minutes=30)) == 1


def test_no_reminder_when_switched_off_or_for_a_bot_seat(alice: Any, bob: Any, carol: Any) -> None:
    deadline = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    game = _deadline_game(alice, bob, carol, deadline)
    prefs = services.preferences_for(alice)
    prefs.reminder_minutes = 0
    prefs.save()
    assert services.due_reminders(deadline - datetime.timedelta(minutes=1)) == []
    prefs.reminder_minutes = 120
    prefs.save()
    game.table.seats.filter(user=alice).update(bot_level="medium")
    assert services.due_reminders(deadline - datetime.timedelta(minutes=1)) == []


def test_a_new_turn_gets_a_new_reminder(alice: Any, bob: Any, carol: Any) -> None:
    deadline = datetime.datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    game = _deadline_game(alice, bob, carol, deadline)
    now = deadline - datetime.timedelta(minutes=10)
    assert services.send_reminders(now) == 1
    Game.objects.filter(pk=game.pk).update(version=game.version + 3)
    assert services.send_reminders(now) == 1
    assert Notification.objects.filter(user=alice, kind="reminder").count() == 2


# --------------------------------------------------------------------------- daily digest


def test_the_daily_digest_lists_games_waiting_only_for_those_who_asked(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol], name="Digest table")
    assert services.send_daily_digests() == 0  # nobody opted in
    prefs = services.preferences_for(alice)
    prefs.daily_digest = True
    prefs.save()
    assert list(services.games_waiting_for(alice)) == [game]
    assert list(services.games_waiting_for(bob)) == []
    assert services.send_daily_digests() == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "1 game waiting for your move"
    assert "Digest table" in message.body
    assert f"http://testserver/tables/{game.table_id}/" in message.body
    assert "List-Unsubscribe" in message.extra_headers


def test_user_text_is_escaped_in_the_html_email(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol], name="<b>Evil</b> & co")
    notify_turn(alice, game)
    services.send_pending_emails(alice.pk)
    html = mailoutbox[0].alternatives[0][0]
    assert "<b>Evil</b>" not in html
    assert "&lt;b&gt;Evil&lt;/b&gt; &amp; co" in html
    assert mailoutbox[0].subject == "Your turn in <b>Evil</b> & co"


def test_timezone_is_used_now(alice: Any) -> None:
    # A bad zone name never breaks sending: quiet hours fall back to UTC.
    prefs = services.preferences_for(alice)
    prefs.quiet_start, prefs.quiet_end = datetime.time(1, 0), datetime.time(2, 0)
    prefs.time_zone = "Nowhere/Atlantis"
    assert services.in_quiet_hours(prefs, datetime.datetime(2026, 1, 1, 1, 30, tzinfo=UTC))
    assert not services.in_quiet_hours(prefs, timezone.now().replace(hour=3))
