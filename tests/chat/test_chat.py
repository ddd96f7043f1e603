"""Sending, reading, reporting and the spectators' switch, through the real
views (the websocket side is in test_live.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from chat import selectors, services
from chat.models import Message, Report, TableChat
from games.models import Game, Table
from social.models import Block, Mute

from .conftest import client_for, open_table, say

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_a_seated_player_sends_a_quick_phrase_and_a_message(game: Game, bob: Any) -> None:
    client = client_for(bob)
    assert say(client, game.table_id, phrase="gg").status_code == 200
    answer = say(client, game.table_id, text="  nice   lead!  ")
    assert answer.status_code == 200 and answer.content == b""
    first, second = Message.objects.order_by("pk")
    assert (first.phrase, first.text, first.seat, first.game_id) == ("gg", "", 1, game.pk)
    assert (second.phrase, second.text) == ("", "nice   lead!")


def test_a_plain_form_post_comes_back_to_the_table(game: Game, bob: Any) -> None:
    answer = say(client_for(bob), game.table_id, htmx=False, text="hello")
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{game.table_id}/#chat"


def test_a_message_before_the_first_game_belongs_to_no_game(alice: Any) -> None:
    table = open_table(alice)
    assert say(client_for(alice), table.pk, text="anyone?").status_code == 200
    assert Message.objects.get().game is None


BAD = [
    ({"text": ""}, 400, "Write a message first."),
    ({"text": " \t\n "}, 400, "Write a message first."),
    ({"text": "x" * 201}, 400, "at most 200 characters"),
    ({"text": "x" * 100_000}, 400, "at most 200 characters"),
    ({"text": "nul\x00byte"}, 400, "cannot be shown"),
    ({"text": "bell\x07"}, 400, "cannot be shown"),
    ({"phrase": "nope"}, 400, "no such quick phrase"),
    ({"phrase": "gg" * 1000}, 400, "no such quick phrase"),
    ({"phrase": "gg", "text": "and words"}, 400, "not both"),
]


@pytest.mark.parametrize(("data", "status", "says"), BAD)
def test_bad_messages_are_refused_and_change_nothing(
    game: Game, bob: Any, data: dict[str, str], status: int, says: str
) -> None:
    answer = say(client_for(bob), game.table_id, data)
    assert answer.status_code == status
    assert answer["X-Chat-Refused"] == "1" and says in answer.content.decode()
    assert not Message.objects.exists()


def test_two_hundred_characters_are_enough(game: Game, bob: Any) -> None:
    text = "é" * 199 + "\u00e9"
    assert say(client_for(bob), game.table_id, text=text).status_code == 200
    assert len(Message.objects.get().text) == 200


def test_a_plain_post_refused_gets_a_page_with_the_reason(game: Game, bob: Any) -> None:
    answer = say(client_for(bob), game.table_id, htmx=False, text="")
    assert answer.status_code == 400
    assert "Write a message first." in answer.content.decode()
    assert f'href="/tables/{game.table_id}/#chat"' in answer.content.decode()


def test_forged_tables_get_requests_and_strangers_are_refused(
    game: Game, alice: Any, outsider: Any
) -> None:
    private = open_table(alice, visibility="private")
    client = client_for(outsider)
    assert say(client, 999_999, text="hi").status_code == 404
    assert say(client, private.pk, text="hi").status_code == 404
    assert client.get(f"/tables/{game.table_id}/chat/").status_code == 405
    from django.test import Client

    anonymous = say(Client(), game.table_id, text="hi")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not Message.objects.exists()


def test_the_same_words_twice_at_once_are_sent_once(game: Game, bob: Any) -> None:
    client = client_for(bob)
    assert say(client, game.table_id, phrase="thanks").status_code == 200
    again = say(client, game.table_id, phrase="thanks")
    assert again.status_code == 409 and "You have just sent that." in again.content.decode()
    assert say(client, game.table_id, phrase="wp").status_code == 200
    assert Message.objects.count() == 2


def test_messages_are_rate_limited_per_player(
    game: Game, bob: Any, carol: Any, settings: Any
) -> None:
    settings.CHAT_RATE = "3/d"  # a day: a minute's window could turn over mid-test
    bobs = client_for(bob)
    for n in range(3):
        assert say(bobs, game.table_id, text=f"message {n}").status_code == 200
    refused = say(bobs, game.table_id, text="one more")
    assert refused.status_code == 429
    assert "You are sending messages too fast" in refused.content.decode()
    assert say(client_for(carol), game.table_id, text="I still may").status_code == 200
    assert Message.objects.count() == 4


def test_a_spectator_reads_but_writes_only_when_the_owner_allows(
    game: Game, alice: Any, bob: Any, outsider: Any
) -> None:
    watcher = client_for(outsider)
    page = watcher.get(f"/tables/{game.table_id}/").content.decode()
    assert 'id="chat-log"' in page and 'id="chat-text"' not in page
    assert "Only the players write in this chat" in page
    refused = say(watcher, game.table_id, phrase="gg")
    assert refused.status_code == 403 and "Only the players" in refused.content.decode()

    # Only the owner switches it.
    bobs = client_for(bob)
    not_owner = bobs.post(f"/tables/{game.table_id}/chat/spectators/", {"allow": "1"})
    assert not_owner.status_code == 403
    assert alice_switches(alice, game.table, "1").status_code == 200
    assert TableChat.objects.get(table=game.table).spectators_may_chat

    assert 'id="chat-text"' in watcher.get(f"/tables/{game.table_id}/").content.decode()
    assert say(watcher, game.table_id, phrase="wp").status_code == 200
    message = Message.objects.get()
    assert message.seat is None and message.sender == outsider
    page = bobs.get(f"/tables/{game.table_id}/").content.decode()
    assert "spectator" in page and "Well played" in page

    assert alice_switches(alice, game.table, "0").status_code == 200
    assert say(watcher, game.table_id, phrase="gg").status_code == 403
    assert alice_switches(alice, game.table, "maybe").status_code == 400


def alice_switches(alice: Any, table: Table, allow: str) -> Any:
    return client_for(alice).post(
        f"/tables/{table.pk}/chat/spectators/", {"allow": allow}, headers={"HX-Request": "true"}
    )


def test_free_text_is_escaped_on_the_page(game: Game, bob: Any, carol: Any) -> None:
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    assert say(client_for(bob), game.table_id, text=evil).status_code == 200
    page = client_for(carol).get(f"/tables/{game.table_id}/").content.decode()
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_the_page_opens_with_the_conversation_minus_hidden_senders(
    game: Game, alice: Any, bob: Any, carol: Any
) -> None:
    for user, words in [(alice, "from alice"), (bob, "from bob"), (carol, "from carol")]:
        services.message_send(table=game.table, user=user, text=words)
    Mute.objects.create(muter=carol, muted=alice)
    Block.objects.create(blocker=carol, blocked=bob)
    for_carol = client_for(carol).get(f"/tables/{game.table_id}/").content.decode()
    assert "from carol" in for_carol
    assert "from alice" not in for_carol and "from bob" not in for_carol
    for_bob = client_for(bob).get(f"/tables/{game.table_id}/").content.decode()
    assert all(w in for_bob for w in ("from alice", "from bob", "from carol"))
    # Each message of another has its Mute and Block buttons, posting to the social app.
    assert 'action="/players/alice/mute/"' in for_bob and "Mute alice" in for_bob
    assert 'action="/players/alice/block/"' in for_bob and "Block alice" in for_bob
    assert 'action="/players/bob/mute/"' not in for_bob
    assert 'action="/players/bob/block/"' not in for_bob


def test_the_phrase_is_written_in_the_readers_language(game: Game, bob: Any, carol: Any) -> None:
    from django.utils import translation
    from django.utils.translation import pgettext

    services.message_send(table=game.table, user=bob, phrase="gg")
    carol.language = "el"
    carol.save(update_fields=["language"])
    with translation.override("el"):
        greek = pgettext("chat phrase", "Good game")
    page = client_for(carol).get(f"/tables/{game.table_id}/").content.decode()
    assert f'<span class="chat-words phrase">{greek}</span>' in page
    assert Message.objects.get().phrase == "gg"  # stored as its code, not as words


# --------------------------------------------------------------------------- reports


def report(user: Any, message: Message, reason: str = "abuse") -> Any:
    return client_for(user).post(
        f"/chat/messages/{message.pk}/report/", {"reason": reason}, headers={"HX-Request": "true"}
    )


def test_a_report_keeps_the_conversation_around_it_and_twice_is_once(
    game: Game, alice: Any, bob: Any, carol: Any
) -> None:
    said = [
        services.message_send(table=game.table, user=u, text=f"line {n}")
        for n, u in enumerate([alice, bob, carol] * 6)
    ]
    bad = said[9]  # alice's "line 9"
    answer = report(bob, bad, "cheating")
    assert answer.status_code == 200 and "staff will read" in answer.content.decode()
    stored = Report.objects.get()
    assert (stored.reporter, stored.message, stored.reason) == (bob, bad, "cheating")
    assert [m["text"] for m in stored.context] == [f"line {n}" for n in range(0, 15)]
    assert [m["reported"] for m in stored.context].count(True) == 1
    assert stored.context[9]["reported"] and stored.context[9]["sender"] == "alice"

    again = report(bob, bad, "spam")
    assert again.status_code == 200 and "already" in again.content.decode()
    assert Report.objects.get().reason == "cheating"


def test_bad_reports_are_refused(game: Game, alice: Any, bob: Any, outsider: Any) -> None:
    mine = services.message_send(table=game.table, user=bob, text="my own")
    assert report(bob, mine).status_code == 400
    assert report(alice, mine, "because").status_code == 400
    private = open_table(alice, visibility="private")
    hidden = services.message_send(table=private, user=alice, text="private words")
    assert report(outsider, hidden).status_code == 404
    assert (
        client_for(bob).post("/chat/messages/999999/report/", {"reason": "spam"}).status_code == 404
    )
    assert not Report.objects.exists()


def test_reports_are_rate_limited(game: Game, alice: Any, bob: Any, settings: Any) -> None:
    settings.CHAT_REPORT_RATE = "2/d"
    said = [services.message_send(table=game.table, user=alice, text=f"x{n}") for n in range(3)]
    assert report(bob, said[0]).status_code == 200
    assert report(bob, said[1]).status_code == 200
    assert report(bob, said[2]).status_code == 429
    assert Report.objects.count() == 2


def test_staff_read_the_reported_conversation_in_the_admin(
    game: Game, alice: Any, bob: Any
) -> None:
    services.message_send(table=game.table, user=bob, text="before <b>it</b>")
    bad = services.message_send(table=game.table, user=alice, text="the bad one")
    services.message_send(table=game.table, user=bob, phrase="sorry")
    report(bob, bad)
    staff = User.objects.create_superuser("staff", "staff@example.com", "pw-staff-123")
    client = client_for(staff)
    listing = client.get("/admin/chat/report/").content.decode()
    assert "the bad one" in listing
    page = client.get(f"/admin/chat/report/{Report.objects.get().pk}/change/").content.decode()
    assert 'class="reported"' in page and "the bad one" in page
    assert "before &lt;b&gt;it&lt;/b&gt;" in page and "[Sorry]" in page


# --------------------------------------------------------------------------- the replay


def test_a_finished_games_chat_stays_with_its_replay_for_its_players(
    alice: Any, bob: Any, carol: Any, outsider: Any
) -> None:
    from tests.stats.helpers import build_game

    done = build_game([alice, bob, carol])
    services.message_send(table=done.table, user=bob, phrase="gg")
    services.message_send(table=done.table, user=carol, text="rematch tomorrow?")
    hand = done.hands.order_by("number").first()
    assert hand is not None
    page = client_for(alice).get(f"/stats/hands/{hand.pk}/").content.decode()
    assert "The game&#x27;s chat" in page or "The game's chat" in page
    assert "Good game" in page and "rematch tomorrow?" in page
    assert client_for(outsider).get(f"/stats/hands/{hand.pk}/").status_code == 404
    assert selectors.of_game(done, outsider) is None
    Mute.objects.create(muter=alice, muted=carol)
    page = client_for(alice).get(f"/stats/hands/{hand.pk}/").content.decode()
    assert "rematch tomorrow?" not in page
