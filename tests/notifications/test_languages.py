"""Notifications speak their reader's language, not the acting player's.

A notification stores what happened (kind and params); its words are written
when it is read or sent. These tests watch the language active while the
words are written (`spoken`), what Django itself translates (a date's format,
a month's name), and the sentence as the reader's catalog has it (`said`,
which refuses a message the catalog lacks), in the centre, the e-mail, the
push and the socket's toast.
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape, escapejs
from django.utils.translation import gettext, ngettext

from games import signals
from games.models import Game
from notifications import realtime, services, texts
from notifications.models import Notification, PushSubscription

from .conftest import game_waiting_for

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# In the future, so nothing times out; 18:00 UTC reads "6 μμ." in Greek and
# "2 марта 2027 ..., 18:00" in Russian (Django's own locale formats).
DEADLINE = datetime.datetime(2027, 3, 2, 18, 0, tzinfo=UTC)
GREEK_DEADLINE = "02/03/2027 6 μμ."
RUSSIAN_DEADLINE = "2 марта 2027 г. 18:00"


@pytest.fixture
def spoken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language active each time a notification's words are written."""
    heard: list[str] = []
    real = texts.words

    def words(note: Notification) -> str:
        heard.append(translation.get_language())
        return real(note)

    monkeypatch.setattr(texts, "words", words)
    return heard


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """What goes to the users' sockets (badge and toast)."""
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(
        realtime, "send_to_user", lambda user_id, html: sent.append((user_id, html))
    )
    return sent


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[dict[str, Any]]:
    """Web pushes as they would leave (the payload before encryption)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    sent: list[dict[str, Any]] = []

    def push_one(sub: PushSubscription, payload: str) -> bool:
        sent.append(json.loads(payload))
        return True

    monkeypatch.setattr(services, "_push_one", push_one)
    return sent


def said(language: str, message: str, *, name: bool = False, **params: Any) -> str:
    """`message` as `language`'s catalog has it, which must translate it (an
    English sentence would pass for any reader's language) unless it is a
    `name` that may stay as it is."""
    with translation.override(language):
        text = gettext(message)
    assert name or text != message, f"{message!r} is not in the {language} catalog"
    return text % params


def speaking(user: Any, language: str) -> Any:
    user.language = language
    user.save(update_fields=["language"])
    return user


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match, html[:200]
    return match.group(1)


def test_a_turn_told_while_the_mover_reads_arabic_reaches_a_greek_reader_in_greek_and_later_in_russian(
    alice: Any,
    bob: Any,
    carol: Any,
    mailoutbox: list[Any],
    spoken: list[str],
    frames: list[tuple[int, str]],
    pushes: list[dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    speaking(alice, "el")
    speaking(bob, "ar")
    game = game_waiting_for(alice, [alice, bob, carol])
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    game.refresh_from_db()
    services.preferences_for(alice)
    services.Preferences.objects.filter(user=alice).update(push_enabled=True)
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.com/alice", p256dh="k", auth="a"
    )

    # Bob moved (his request speaks Arabic); the turn is Alice's.
    with translation.override("ar"), django_capture_on_commit_callbacks(execute=True):
        note = services.notify(
            user=alice,
            kind="turn",
            game=game,
            params={"table": game.table.name},
            url=game.get_absolute_url(),
            turn_key=f"{game.pk}:{game.version}",
        )
        assert translation.get_language() == "ar"  # bob's own language is left alone
    assert note is not None
    assert note.params == {"table": "Friday table"} and note.text == ""

    # The toast, the e-mail and the push: all written in Greek.
    assert spoken and set(spoken) == {"el"}
    (toast,) = [html for user_id, html in frames if "toast-" in html]
    assert escape(said("el", "Your turn in %(table)s.", table="Friday table")) in toast
    (message,) = mailoutbox
    assert message.extra_headers["Content-Language"] == "el"
    html = message.alternatives[0][0]
    assert html_lang(html) == "el" and 'dir="ltr"' in html
    assert GREEK_DEADLINE in message.body and GREEK_DEADLINE in html
    assert message.subject == said("el", "Your turn in %(table)s", table="Friday table")
    assert pushes == [
        {
            "title": said("el", "Cutthroat Euchre", name=True),
            "body": said("el", "Your turn in %(table)s.", table="Friday table"),
            "url": f"http://testserver/tables/{game.table_id}/",
        }
    ]

    # Alice's centre, in Greek (the page and the notification's words).
    Notification.objects.filter(pk=note.pk).update(created=DEADLINE)
    client = logged_in(alice)
    spoken.clear()
    page = client.get(reverse("notifications:centre")).content.decode()
    assert html_lang(page) == "el"
    assert spoken == ["el"]
    assert f'title="{GREEK_DEADLINE}"' in page
    assert f'">{escape(said("el", "Your turn in %(table)s.", table="Friday table"))}</a>' in page

    # She switches to Russian: the same stored notification now reads in Russian.
    client.post(reverse("set_language"), {"language": "ru", "next": "/notifications/"})
    alice.refresh_from_db()
    assert alice.language == "ru"
    spoken.clear()
    page = client.get(reverse("notifications:centre")).content.decode()
    assert html_lang(page) == "ru"
    assert f'title="{RUSSIAN_DEADLINE}"' in page
    assert spoken == ["ru"]
    note.refresh_from_db()
    spoken.clear()
    with translation.override("ar"):  # whoever asks
        assert texts.render(note) == said("ru", "Your turn in %(table)s.", table="Friday table")
        payload = json.loads(services.push_payload(note))
    assert spoken == ["ru", "ru"]
    assert payload["body"] == said("ru", "Your turn in %(table)s.", table="Friday table")
    # And mailed again, it is a Russian e-mail.
    Notification.objects.filter(pk=note.pk).update(email_pending=True)
    mailoutbox.clear()
    with translation.override("ar"):
        assert services.send_pending_emails(alice.pk).sent == 1
    (message,) = mailoutbox
    assert message.extra_headers["Content-Language"] == "ru"
    assert html_lang(message.alternatives[0][0]) == "ru"
    assert RUSSIAN_DEADLINE in message.body


def test_the_socket_badge_and_toast_speak_the_recipients_language(
    alice: Any, bob: Any, frames: list[tuple[int, str]], django_capture_on_commit_callbacks: Any
) -> None:
    speaking(alice, "ar")
    heard: list[str | None] = []
    real = services.badge_html

    def badge_html(count: int, *, oob: bool = False) -> str:
        heard.append(translation.get_language())
        return real(count, oob=oob)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(services, "badge_html", badge_html)
        with translation.override("th"), django_capture_on_commit_callbacks(execute=True):
            services.notify(
                user=alice,
                kind="game_started",
                game=None,
                params={"table": "Friday table"},
                url="/tables/1/",
            )
            note = Notification.objects.get(user=alice)
            services.mark_read(alice, note.pk)
    assert heard == ["ar", "ar"]  # the new badge with the toast, then the read one
    assert [user_id for user_id, _ in frames] == [alice.pk, alice.pk]


def test_the_daily_digest_speaks_the_readers_language(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    speaking(alice, "ru")
    game = game_waiting_for(alice, [alice, bob, carol], name="Digest table")
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    services.preferences_for(alice)
    services.Preferences.objects.filter(user=alice).update(daily_digest=True)
    with translation.override("el"):
        assert services.send_daily_digests() == 1
    (message,) = mailoutbox
    assert message.extra_headers["Content-Language"] == "ru"
    assert html_lang(message.alternatives[0][0]) == "ru"
    assert RUSSIAN_DEADLINE in message.body
    with translation.override("ru"):
        subject = ngettext(
            "%(count)d game waiting for your move", "%(count)d games waiting for your move", 1
        ) % {"count": 1}
    assert message.subject == subject


def test_times_in_the_email_are_in_the_readers_time_zone(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any]
) -> None:
    prefs = services.preferences_for(alice)
    prefs.time_zone = "Asia/Bangkok"  # UTC+7: 18:00 UTC is 01:00 the next day
    prefs.save()
    game = game_waiting_for(alice, [alice, bob, carol])
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    services.notify(
        user=alice,
        kind="turn",
        game=game,
        params={"table": game.table.name},
        url=game.get_absolute_url(),
        turn_key=f"{game.pk}:{game.version}",
    )
    assert services.send_pending_emails(alice.pk).sent == 1
    assert "(due March 3, 2027, 1 a.m., +07)" in mailoutbox[0].body


# --------------------------------------------------------------------------- the words


@pytest.mark.parametrize(
    ("kind", "params", "words"),
    [
        ("turn", {"table": "Friday table"}, "Your turn in Friday table."),
        ("game_started", {"table": "Friday table"}, "Friday table: the game has started."),
        (
            "game_ended",
            {"table": "Friday table", "winner": "bob"},
            "Friday table: the game is over, bob won.",
        ),
        (
            "timeout",
            {"table": "Friday table", "handed_over": False},
            "Your time ran out in Friday table: the medium bot moved for you.",
        ),
        (
            "timeout",
            {"table": "Friday table", "handed_over": True},
            "Your time ran out in Friday table: the medium bot moved for you. After three "
            "time-outs in a row it now plays your seat; take it back from the table.",
        ),
        (
            "reminder",
            {"table": "Friday table", "minutes": 1},
            "Your move at Friday table is due in 1 minute.",
        ),
        (
            "reminder",
            {"table": "Friday table", "minutes": 90},
            "Your move at Friday table is due in 90 minutes.",
        ),
        (
            "reminder",
            {"table": "Friday table", "minutes": 100},
            "Your move at Friday table is due in about 2 hours.",
        ),
    ],
)
def test_each_kind_has_its_sentence(
    alice: Any, kind: str, params: dict[str, Any], words: str
) -> None:
    note = services.notify(user=alice, kind=kind, game=None, params=params, url="/")
    assert note is not None
    assert texts.render(note) == words
    assert texts.sentence(kind, params) == words  # the active language's: English here


def test_a_bots_win_names_the_bot_in_the_readers_language(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import words

    heard: list[str | None] = []
    real = words.bot_name
    with translation.override("th"):
        expected = gettext("%(table)s: the game is over, %(winner)s won.") % {
            "table": "T",
            "winner": real("hard", 3),
        }

    def bot_name(level: str, n: int) -> str:
        heard.append(translation.get_language())
        return real(level, n)

    monkeypatch.setattr(words, "bot_name", bot_name)
    speaking(alice, "th")
    note = services.notify(
        user=alice,
        kind="game_ended",
        game=None,
        # `winner` is the name in the site's language, for readers that take only a string.
        params={"table": "T", "winner": "Hard bot 3", "winner_bot": "hard", "winner_seat": 3},
        url="/",
    )
    assert note is not None
    with translation.override("ar"):
        assert texts.render(note) == expected
    assert heard == ["th"]


def test_rows_from_before_params_show_their_stored_text(alice: Any) -> None:
    old = Notification.objects.create(
        user=alice, kind="turn", text="Your turn in <Old> table.", url="/tables/3/"
    )
    assert texts.render(old) == "Your turn in <Old> table."
    # Params that do not make the sentence (a key missing): the text stands in,
    # else the kind's name.
    odd = Notification.objects.create(
        user=alice, kind="game_ended", params={"table": "T"}, text="T: over.", url="/"
    )
    assert texts.render(odd) == "T: over."
    bare = Notification.objects.create(user=alice, kind="game_ended", params={"x": 1}, url="/")
    assert texts.render(bare) == "Game ended"
    page = logged_in(alice).get(reverse("notifications:centre")).content.decode()
    assert "Your turn in &lt;Old&gt; table." in page and "T: over." in page


def test_table_names_are_escaped_in_the_centre_and_the_toast(
    alice: Any, frames: list[tuple[int, str]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        services.notify(
            user=alice,
            kind="game_started",
            game=None,
            params={"table": "<b>Evil</b>"},
            url="/tables/1/",
        )
    page = logged_in(alice).get(reverse("notifications:centre")).content.decode()
    for html in (page, frames[-1][1]):
        assert "<b>Evil</b>" not in html
        assert "&lt;b&gt;Evil&lt;/b&gt;: the game has started." in html


# --------------------------------------------------------------------------- the signal


def test_the_signal_takes_params_and_still_takes_an_old_senders_text(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = game_waiting_for(alice, [alice, bob, carol])
    signals.tell.send(
        sender=Game,
        user=alice,
        kind="game_ended",
        game=game,
        params={"table": "Friday table", "winner": "carol"},
        turn_key=f"end:{game.pk}",
    )
    note = Notification.objects.get(user=alice, kind="game_ended")
    assert note.params == {"table": "Friday table", "winner": "carol"} and note.text == ""
    assert note.url == f"/tables/{game.table_id}/"
    with translation.override("el"):
        assert note.message == said(
            "el",
            "%(table)s: the game is over, %(winner)s won.",
            table="Friday table",
            winner="carol",
        )

    # The transition: a sender that still writes the English sentence.
    signals.tell.send(
        sender=Game,
        user=alice,
        kind="game_started",
        game=game,
        text="Friday table: the game has started.",
        turn_key=f"start:{game.pk}",
    )
    old = Notification.objects.get(user=alice, kind="game_started")
    assert old.params == {} and old.text == "Friday table: the game has started."
    assert texts.render(old) == "Friday table: the game has started."

    # Both: the params make the words, the text is kept as the fallback.
    signals.tell.send(
        sender=Game,
        user=alice,
        kind="timeout",
        game=game,
        params={"table": "Friday table", "handed_over": False},
        text="An old sentence.",
        turn_key=f"{game.pk}:{game.version}",
    )
    both = Notification.objects.get(user=alice, kind="timeout")
    assert both.params == {"table": "Friday table", "handed_over": False}
    assert texts.render(both) == "Your time ran out in Friday table: the medium bot moved for you."


# --------------------------------------------------------------------------- pages and scripts


def test_the_notification_pages_speak_the_readers_language(alice: Any) -> None:
    client = logged_in(speaking(alice, "el"))
    for name in ["notifications:centre", "notifications:preferences"]:
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert html_lang(response.content.decode()) == "el"
        assert response["Content-Language"] == "el"
    token = services.preferences_for(alice).unsubscribe_token
    page = Client(headers={"accept-language": "ar"}).get(
        reverse("notifications:unsubscribe", args=[token])
    )
    assert '<html lang="ar" dir="rtl">' in page.content.decode()


def test_the_service_worker_has_a_fallback_title_and_no_template_left(client: Client) -> None:
    body = client.get("/sw.js", headers={"accept-language": "ru"}).content.decode()
    assert f'data.title || "{escapejs(said("ru", "Cutthroat Euchre"))}"' in body
    assert "{%" not in body and "{{" not in body


def test_a_push_refusal_speaks_the_pages_language(alice: Any) -> None:
    client = logged_in(speaking(alice, "el"))
    response = client.post(
        reverse("notifications:push_subscription"), "[]", content_type="application/json"
    )
    assert response.status_code == 400
    assert response["Content-Language"] == "el"
    assert response.json()["error"] == said(
        "el", "This is not a push subscription: a JSON object with an endpoint and keys."
    )
