"""The chat over the table page's websocket: the real ASGI application (auth,
origin check) and the real Redis channel layer. Messages are sent over the
socket as the page's forms do (htmx ws-send), or posted to the chat's view
(the path without JavaScript)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.utils import translation
from django.utils.translation import pgettext

from games.models import Game
from social.models import Block, Mute
from tests.games.wsclient import acommunicator

from .conftest import client_for, players, say

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3  # seconds a socket must stay silent to count as "got nothing more"


async def open_page(table_id: int, user: Any) -> Any:
    """A table page's socket, past its connect frame: the table and the chat in one."""
    ws = await acommunicator(f"/ws/tables/{table_id}/", user)
    assert (await ws.connect())[0]
    snapshot = await ws.receive_from(timeout=5)
    assert 'id="table"' in snapshot[:300], snapshot[:300]
    assert '<div id="chat-scroll" class="chat-scroll" hx-ext="morph"' in snapshot
    ws.snapshot = snapshot.split('<div id="chat-scroll"', 1)[1]
    return ws


async def send(ws: Any, **fields: Any) -> None:
    """A chat form sent over the socket, as htmx-ext-ws sends one."""
    body = {"csrfmiddlewaretoken": "x", "chat": "send", **fields, "HEADERS": {"HX-Request": "true"}}
    await ws.send_to(text_data=json.dumps(body))


async def post(user: Any, table_id: int, **data: str) -> int:
    answer = await sync_to_async(lambda: say(client_for(user), table_id, data))()
    return int(answer.status_code)


async def chat_frames(ws: Any) -> list[str]:
    """Every frame the socket gets until it stays quiet."""
    frames = []
    while not await ws.receive_nothing(timeout=QUIET):
        frames.append(await ws.receive_from(timeout=1))
    return frames


def test_a_message_reaches_every_page_once_live(game: Game, outsider: Any) -> None:
    seated = players(game.table)

    async def run() -> None:
        pages = [await open_page(game.table_id, u) for u in [*seated.values(), outsider]]
        await send(pages[1], text="good luck <all>")  # bob's page
        for n, ws in enumerate(pages):
            [frame] = await chat_frames(ws)  # one frame per message per page
            assert frame.startswith('<ol id="chat-log" hx-swap-oob="beforeend"><li id="chat-')
            assert "good luck &lt;all&gt;" in frame and "<all>" not in frame
            assert 'id="chat-announcer" hx-swap-oob="beforeend"' in frame
            assert "bob wrote: good luck &lt;all&gt;" in frame
            # The sender's own frame also clears the error box and says a text went out.
            assert ('data-sent="text"' in frame) == (n == 1)
        assert await post(seated[2], game.table_id, text="posted") == 200  # without JavaScript
        for ws in pages:
            [frame] = await chat_frames(ws)
            assert "carol wrote: posted" in frame
        # Only the others' messages carry the Mute button.
        own, other = await post_and_read(pages[1], pages[0], seated[1], game.table_id)
        assert "/players/bob/mute/" not in own and "/players/bob/mute/" in other
        for ws in pages:
            await ws.disconnect()

    async_to_sync(run)()


async def post_and_read(own: Any, other: Any, user: Any, table_id: int) -> tuple[str, str]:
    assert await post(user, table_id, phrase="gg") == 200
    return await own.receive_from(timeout=5), await other.receive_from(timeout=5)


def test_muted_and_blocked_senders_reach_nobody_who_hid_them_and_are_not_told(
    game: Game,
) -> None:
    seated = players(game.table)
    alice, bob, carol = seated[0], seated[1], seated[2]

    async def run() -> None:
        a, b, c = [await open_page(game.table_id, u) for u in (alice, bob, carol)]
        await sync_to_async(Mute.objects.create)(muter=carol, muted=alice)
        assert await post(alice, game.table_id, text="first") == 200
        assert "first" in (await a.receive_from(timeout=5))
        assert "first" in (await b.receive_from(timeout=5))
        assert await c.receive_nothing(timeout=QUIET)

        # Bob blocks alice while his page is open: her next message stops at his page.
        await sync_to_async(Block.objects.create)(blocker=bob, blocked=alice)
        assert await post(alice, game.table_id, text="second") == 200  # nothing tells her
        assert "second" in (await a.receive_from(timeout=5))
        assert await b.receive_nothing(timeout=QUIET)
        assert await c.receive_nothing(timeout=QUIET)

        # Bob still reaches everybody.
        assert await post(bob, game.table_id, text="third") == 200
        for ws in (a, b, c):
            [frame] = await chat_frames(ws)
            assert "third" in frame

        # A page opened now shows the conversation without the hidden sender.
        again = await open_page(game.table_id, carol)
        assert "third" in again.snapshot and "first" not in again.snapshot
        for ws in (a, b, c, again):
            await ws.disconnect()

    async_to_sync(run)()


def test_each_reader_gets_the_phrase_in_their_own_language(game: Game) -> None:
    seated = players(game.table)
    seated[2].language = "el"
    seated[2].save(update_fields=["language"])
    with translation.override("el"):
        greek = pgettext("chat phrase", "Well played")

    async def run() -> None:
        english = await open_page(game.table_id, seated[1])
        in_greek = await open_page(game.table_id, seated[2])
        assert await post(seated[0], game.table_id, phrase="wp") == 200
        assert '<span class="chat-words phrase">Well played</span>' in (
            await english.receive_from(timeout=5)
        )
        assert f'<span class="chat-words phrase">{greek}</span>' in (
            await in_greek.receive_from(timeout=5)
        )
        await english.disconnect()
        await in_greek.disconnect()

    async_to_sync(run)()


def test_the_owner_lets_a_watching_spectator_write_live(game: Game, outsider: Any) -> None:
    seated = players(game.table)
    owner = seated[0]

    async def run() -> None:
        watcher = await open_page(game.table_id, outsider)
        owners = await open_page(game.table_id, owner)
        assert await post(outsider, game.table_id, phrase="gg") == 403
        assert await watcher.receive_nothing(timeout=QUIET)

        switch = await sync_to_async(
            lambda: client_for(owner).post(
                f"/tables/{game.table_id}/chat/spectators/", {"allow": "1"}
            )
        )()
        assert switch.status_code == 302
        [compose] = await chat_frames(watcher)  # the composer, now with the text field
        assert compose.startswith('<div id="chat-compose" class="chat-compose" hx-swap-oob="true">')
        assert 'id="chat-text"' in compose
        [owner_compose] = await chat_frames(owners)
        assert "Stop spectators writing" in owner_compose

        assert await post(outsider, game.table_id, text="go bob!") == 200
        for ws in (watcher, owners):
            [frame] = await chat_frames(ws)
            assert "go bob!" in frame and "spectator" in frame
        await watcher.disconnect()
        await owners.disconnect()

    async_to_sync(run)()


def test_opening_the_table_reads_its_chat_notifications(alice: Any, bob: Any, carol: Any) -> None:
    from chat import services
    from notifications.models import Notification
    from tests.notifications.conftest import turns_game

    table = turns_game([alice, bob, carol]).table
    services.message_send(table=table, user=alice, phrase="hurry")
    note = Notification.objects.get(user=bob, kind="chat")
    assert note.read_at is None

    async def run() -> None:
        ws = await open_page(table.pk, bob)
        await ws.disconnect()

    async_to_sync(run)()
    note.refresh_from_db()
    assert note.read_at is not None


def test_refusals_over_the_socket_go_to_the_sender_only_and_change_nothing(
    game: Game, outsider: Any, settings: Any
) -> None:
    from chat.models import Message

    settings.CHAT_RATE = "4/d"  # a day: a minute's window could turn over mid-test
    seated = players(game.table)

    async def run() -> None:
        bob = await open_page(game.table_id, seated[1])
        watcher = await open_page(game.table_id, outsider)
        carol = await open_page(game.table_id, seated[2])
        cases: list[tuple[Any, dict[str, Any], str]] = [
            (bob, {"text": "x" * 201}, "at most 200 characters"),
            (bob, {"text": "nul\u0000"}, "cannot be shown"),
            (bob, {"phrase": "nope"}, "no such quick phrase"),
            (bob, {"phrase": ["gg"]}, "no such quick phrase"),
            (watcher, {"phrase": "gg"}, "Only the players at this table"),
        ]
        for ws, fields, says in cases:
            await send(ws, **fields)
            [answer] = await chat_frames(ws)
            assert answer.startswith('<div id="chat-error" class="chat-error" hx-swap-oob="true">')
            assert says in answer and 'role="alert"' in answer
        await bob.send_to(text_data=json.dumps({"chat": "send", "text": "y" * 20_000}))
        assert "at most 200 characters" in (await bob.receive_from(timeout=5))
        for junk in ["not json", "[1, 2]", '{"chat": "other", "text": "hi"}', '{"text": "hi"}']:
            await bob.send_to(text_data=junk)
        assert await bob.receive_nothing(timeout=QUIET)
        assert await carol.receive_nothing(timeout=QUIET)  # nobody else heard anything
        # The rate limit counts every try (4 a minute here): the next is refused too.
        await send(bob, text="hello")
        assert "You are sending messages too fast" in (await bob.receive_from(timeout=5))
        assert not await sync_to_async(Message.objects.exists)()
        for ws in (bob, watcher, carol):
            await ws.disconnect()

    async_to_sync(run)()
