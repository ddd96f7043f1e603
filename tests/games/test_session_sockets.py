"""Sockets follow the session (issue 21, item 5): log-out, a new password and
deactivation close that user's table and notifications sockets at once, and
nothing is sent to a session that ended. Real Redis channel layer, real
database, the site's own log-out and password-change views."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from accounts import sessions
from euchre_site.asgi import application
from games import services
from games.models import Game
from notifications.consumers import NotificationConsumer
from notifications.realtime import send_to_user

from .conftest import players, to_act
from .wsclient import ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORDS = {"alice": "pw-alice-123", "bob": "pw-bob-123", "carol": "pw-carol-123"}


def logged_in(user: Any) -> Client:
    """A browser that signed in through the log-in view (a real session)."""
    client = Client()
    response = client.post(
        reverse("account_login"), {"login": user.username, "password": PASSWORDS[user.username]}
    )
    assert response.status_code == 302, response.content[:300]
    return client


def socket(path: str, client: Client) -> WebsocketCommunicator:
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"origin", ORIGIN),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    return WebsocketCommunicator(application, path, headers=headers)


async def open_sockets(game: Game, client: Client) -> tuple[Any, Any]:
    table = socket(f"/ws/tables/{game.table_id}/", client)
    notes = socket("/ws/notifications/", client)
    for ws in (table, notes):
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the snapshot, the badge
    return table, notes


async def closed(ws: WebsocketCommunicator, timeout: float = 5) -> int:
    """The close code the server sent (frames before it are skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        out = await ws.receive_output(timeout=max(0.01, deadline - time.monotonic()))
        if out["type"] == "websocket.close":
            return int(out["code"])


async def a_move(game: Game) -> None:
    seated = await sync_to_async(players)(game.table)
    await sync_to_async(game.refresh_from_db)()
    seat = await sync_to_async(to_act)(game)
    await sync_to_async(services.game_act)(
        game_id=game.pk,
        version=game.version,
        action={"type": "pass"},
        actor=services.Actor.person(seated[seat]),
    )


async def still_open(ws: WebsocketCommunicator) -> None:
    """A socket that stayed open gets the next frame."""
    frame = await ws.receive_from(timeout=5)
    assert frame


async def ends_everything(game: Game, end: Any, user: Any, other: Any) -> None:
    """`end` ends `user`'s session; its sockets close and get nothing after;
    `other`'s stay open and get the move and their notification."""
    client, other_client = (
        await sync_to_async(logged_in)(user),
        await sync_to_async(logged_in)(other),
    )
    table, notes = await open_sockets(game, client)
    other_table, other_notes = await open_sockets(game, other_client)
    lobby = socket("/ws/lobby/", client)
    assert (await lobby.connect())[0]
    await lobby.receive_from(timeout=5)
    # While the session lasts the socket's chat is taken (and reaches the others).
    await table.send_json_to({"chat": "send", "phrase": "", "text": "hello all"})
    assert "hello all" in await table.receive_from(timeout=5)
    assert "hello all" in await other_table.receive_from(timeout=5)
    await end(client)
    assert await closed(table) == sessions.SESSION_ENDED
    assert await closed(notes) == sessions.SESSION_ENDED
    assert await closed(lobby) == sessions.SESSION_ENDED
    # Frames pushed afterwards: none reaches the old sockets (the consumers
    # are still running: the test client has not disconnected).
    await a_move(game)
    await sync_to_async(send_to_user)(user.pk, "<p>for the old session</p>")
    await sync_to_async(send_to_user)(other.pk, "<p>for the other user</p>")
    assert await table.receive_nothing(timeout=1)
    assert await notes.receive_nothing(timeout=0.2)
    await still_open(other_table)
    assert "for the other user" in await other_notes.receive_from(timeout=5)
    # The chat is refused too: nothing comes back, nothing is stored.
    await table.send_json_to({"chat": "send", "phrase": "", "text": "still here?"})
    assert await table.receive_nothing(timeout=0.5)
    for ws in (table, notes, lobby, other_table, other_notes):
        await ws.disconnect()


def test_log_out_closes_the_sessions_sockets(game: Game) -> None:
    seated = players(game.table)
    user, other = seated[0], seated[1]

    async def log_out(client: Client) -> None:
        response = await sync_to_async(client.post)(reverse("account_logout"))
        assert response.status_code == 302

    async_to_sync(ends_everything)(game, log_out, user, other)
    from chat.models import Message

    assert Message.objects.filter(text="hello all").exists()
    assert not Message.objects.filter(text="still here?").exists()


def test_a_password_change_closes_the_users_sockets(game: Game) -> None:
    seated = players(game.table)
    user, other = seated[0], seated[2]

    async def change_password(client: Client) -> None:
        # Another browser of the same user: its session's sockets close too.
        second = await sync_to_async(logged_in)(user)
        notes = socket("/ws/notifications/", second)
        assert (await notes.connect())[0]
        await notes.receive_from(timeout=5)
        new = "a-new-pw-7781"
        response = await sync_to_async(client.post)(
            reverse("account_change_password"),
            {"oldpassword": PASSWORDS[user.username], "password1": new, "password2": new},
        )
        assert response.status_code == 302, response.content[:500]
        assert await closed(notes) == sessions.SESSION_ENDED
        await notes.disconnect()
        # The browser that changed it is still signed in: its new socket opens.
        fresh = socket("/ws/notifications/", client)
        assert (await fresh.connect())[0]
        await fresh.receive_from(timeout=5)
        await fresh.disconnect()

    async_to_sync(ends_everything)(game, change_password, user, other)


def test_deactivation_closes_the_users_sockets(game: Game) -> None:
    seated = players(game.table)
    user, other = seated[1], seated[2]

    async def deactivate(client: Client) -> None:
        def save() -> None:
            user.refresh_from_db()
            user.is_active = False
            user.save()

        await sync_to_async(save)()

    async_to_sync(ends_everything)(game, deactivate, user, other)


def test_a_saved_profile_does_not_close_sockets(game: Game) -> None:
    user = players(game.table)[0]

    async def run() -> None:
        client = await sync_to_async(logged_in)(user)
        table, notes = await open_sockets(game, client)

        def save() -> None:
            user.refresh_from_db()
            user.first_name = "Al"
            user.save()

        await sync_to_async(save)()
        await a_move(game)
        await still_open(table)
        await sync_to_async(send_to_user)(user.pk, "<p>hello</p>")
        assert "hello" in await notes.receive_from(timeout=5)
        await table.disconnect()
        await notes.disconnect()

    async_to_sync(run)()


def test_a_session_that_ended_unannounced_gets_no_frame(game: Game, settings: Any) -> None:
    """The channel layer may lose `session.end`: the socket checks its session
    again before sending once its last check is older than the interval."""
    settings.SOCKET_SESSION_RECHECK_SECONDS = 0.0
    user = players(game.table)[0]

    async def run() -> None:
        client = await sync_to_async(logged_in)(user)
        table, notes = await open_sockets(game, client)
        key = client.cookies[settings.SESSION_COOKIE_NAME].value
        # Deleted behind the site's back: no signal, no message.
        await sync_to_async(lambda: Session.objects.filter(session_key=key).delete())()
        await a_move(game)
        assert await closed(table) == sessions.SESSION_ENDED
        await sync_to_async(send_to_user)(user.pk, "<p>late</p>")
        assert await closed(notes) == sessions.SESSION_ENDED
        await table.disconnect()
        await notes.disconnect()

    async_to_sync(run)()


def test_a_socket_of_a_session_that_ended_is_refused() -> None:
    """A log-out that raced the connect: the cache mark is seen after joining."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("dora", "dora@example.com", "pw-dora-123")
    PASSWORDS["dora"] = "pw-dora-123"
    client = logged_in(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    from django.core.cache import cache

    cache.set(f"session-ended:{sessions.session_digest(key)}", 1, 60)

    async def run() -> None:
        ws = socket("/ws/notifications/", client)
        connected, code = await ws.connect()
        assert not connected and code == sessions.SESSION_ENDED

    async_to_sync(run)()


def test_the_check_per_frame_costs_next_to_nothing() -> None:
    """The per-frame cost of following the session, printed (-s): `send` of a
    bound consumer against a plain AsyncWebsocketConsumer's, the transport
    stubbed out, and one re-validation (made at most every interval)."""
    frames = 200_000

    async def sink(message: dict[str, Any]) -> None:
        return None

    async def per_frame(consumer: Any) -> float:
        consumer.base_send = sink
        send = consumer.send
        start = time.perf_counter()
        for _ in range(frames):
            await send(text_data="<div id='table'></div>")
        return (time.perf_counter() - start) / frames

    plain = AsyncWebsocketConsumer()
    bound = NotificationConsumer()
    bound._session_bound = True
    bound._session_lock = asyncio.Lock()
    bound._session_check_due = time.monotonic() + 3600

    async def run() -> tuple[float, float]:
        best_plain = min([await per_frame(plain) for _ in range(3)])
        best_bound = min([await per_frame(bound) for _ in range(3)])
        return best_plain, best_bound

    base, followed = async_to_sync(run)()
    extra = followed - base
    print(
        f"\nsend per frame: plain {base * 1e9:.0f} ns, session-bound {followed * 1e9:.0f} ns, "
        f"extra {extra * 1e9:.0f} ns"
    )
    assert extra < 2e-6  # two microseconds: next to a frame's rendering and daphne's write

    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("erin", "erin@example.com", "pw-erin-123")
    PASSWORDS["erin"] = "pw-erin-123"
    key = logged_in(user).cookies[settings.SESSION_COOKIE_NAME].value
    assert sessions.session_alive(user.pk, key)
    checks = 200
    start = time.perf_counter()
    for _ in range(checks):
        sessions.session_alive(user.pk, key)
    check = (time.perf_counter() - start) / checks
    print(
        f"one re-validation {check * 1e6:.0f} us (at most one per socket per "
        f"{sessions.recheck_seconds():.0f} s of frames)"
    )
