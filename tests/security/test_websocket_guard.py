"""Websockets: only from this site's own origin (scheme, host and port), and at
most WEBSOCKETS_PER_USER open at once per user, counted in Redis across processes."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from euchre_site import ws_guard
from euchre_site.asgi import application
from tests.games.wsclient import session_cookie

from .conftest import SOCKET_LIMIT, Daphne

pytestmark = pytest.mark.django_db(transaction=True)

PATHS = ["/ws/lobby/", "/ws/notifications/"]


def socket(
    user: Any,
    origin: str | None,
    *,
    host: str = "127.0.0.1:8000",
    path: str = "/ws/lobby/",
    scheme: str | None = None,
    client: str | None = None,
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> WebsocketCommunicator:
    sent = [(b"host", host.encode())]
    if origin is not None:
        sent.append((b"origin", origin.encode()))
    if user is not None:
        cookie = f"{django_settings.SESSION_COOKIE_NAME}={session_cookie(user)}"
        sent.append((b"cookie", cookie.encode()))
    ws = WebsocketCommunicator(application, path, headers=[*sent, *headers])
    if scheme:
        ws.scope["scheme"] = scheme
    if client:
        ws.scope["client"] = [client, 40000]
    return ws


async def opens(ws: WebsocketCommunicator) -> bool:
    """Connect; an accepted socket's first frame (the snapshot) is read."""
    connected, _ = await ws.connect(timeout=5)
    if connected:
        await ws.receive_from(timeout=5)
    else:
        await ws.disconnect()
    return bool(connected)


async def refused_with(ws: WebsocketCommunicator) -> int:
    connected, code = await ws.connect(timeout=5)
    assert not connected
    await ws.disconnect()
    return int(code)


def run(check: Any) -> None:
    async_to_sync(check)()


# --------------------------------------------------------------------------- origin


def test_a_page_on_another_port_of_the_same_host_may_not_open_a_socket(alice: Any) -> None:
    async def check() -> None:
        for origin in ["http://127.0.0.1:9999", "http://127.0.0.1", "http://localhost:8000"]:
            ws = await sync_to_async(socket)(alice, origin)
            assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED, origin

    run(check)


def test_the_sites_own_origin_is_accepted(alice: Any) -> None:
    async def check() -> None:
        for host, origin in [
            ("127.0.0.1:8000", "http://127.0.0.1:8000"),
            ("localhost:8000", "http://LOCALHOST:8000"),
            ("localhost", "http://localhost"),
            ("localhost:80", "http://localhost"),  # default port either way
            ("[::1]:8000", "http://[::1]:8000"),
        ]:
            ws = await sync_to_async(socket)(alice, origin, host=host)
            assert await opens(ws), (host, origin)
            await ws.disconnect()

    run(check)


def test_the_scheme_must_match_too(alice: Any) -> None:
    async def check() -> None:
        ws = await sync_to_async(socket)(alice, "https://127.0.0.1:8000")
        assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED
        ws = await sync_to_async(socket)(alice, "https://127.0.0.1:8000", scheme="wss")
        assert await opens(ws)
        await ws.disconnect()
        ws = await sync_to_async(socket)(alice, "http://127.0.0.1:8000", scheme="wss")
        assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED

    run(check)


def test_x_forwarded_proto_counts_only_from_a_trusted_proxy(settings: Any, alice: Any) -> None:
    proto = ((b"x-forwarded-proto", b"https"),)

    async def check() -> None:
        ws = await sync_to_async(socket)(
            alice, "https://127.0.0.1:8000", client="10.0.0.1", headers=proto
        )
        assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED

    settings.TRUSTED_PROXIES = []
    run(check)

    async def behind_proxy() -> None:
        ws = await sync_to_async(socket)(
            alice, "https://127.0.0.1:8000", client="10.0.0.1", headers=proto
        )
        assert await opens(ws)
        await ws.disconnect()

    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    run(behind_proxy)


def test_a_csrf_trusted_origin_is_accepted(settings: Any, alice: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://euchre.example.com", "https://*.example.org"]

    async def check() -> None:
        for origin in ["https://euchre.example.com", "https://play.example.org"]:
            ws = await sync_to_async(socket)(alice, origin)
            assert await opens(ws), origin
            await ws.disconnect()
        for origin in [
            "https://euchre.example.com:8443",
            "http://euchre.example.com",
            "https://evil-euchre.example.com",
            "http://play.example.org",
        ]:
            ws = await sync_to_async(socket)(alice, origin)
            assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED, origin

    run(check)


def test_no_origin_a_null_origin_or_a_host_not_allowed_is_refused(alice: Any) -> None:
    async def check() -> None:
        for origin, host in [
            (None, "127.0.0.1:8000"),
            ("null", "127.0.0.1:8000"),
            ("http://127.0.0.1:8000/path", "127.0.0.1:8000"),
            # A rebound DNS name: Host and Origin agree, but the host is not this site's.
            ("http://rebind.example:8000", "rebind.example:8000"),
        ]:
            ws = await sync_to_async(socket)(alice, origin, host=host)
            assert await refused_with(ws) == ws_guard.ORIGIN_REFUSED, (origin, host)

    run(check)


# --------------------------------------------------------------------------- per-user limit


def test_one_user_may_not_open_more_than_websockets_per_user(
    settings: Any, alice: Any, bob: Any
) -> None:
    settings.WEBSOCKETS_PER_USER = 3

    async def check() -> None:
        open_ = []
        for n in range(3):
            ws = await sync_to_async(socket)(alice, "http://127.0.0.1:8000", path=PATHS[n % 2])
            assert await opens(ws)
            open_.append(ws)
        assert await sync_to_async(ws_guard.open_sockets)(alice.pk) == 3
        for path in PATHS:
            extra = await sync_to_async(socket)(alice, "http://127.0.0.1:8000", path=path)
            assert await refused_with(extra) == ws_guard.TOO_MANY_SOCKETS
        # Another user is not affected.
        other = await sync_to_async(socket)(bob, "http://127.0.0.1:8000")
        assert await opens(other)
        # Closing one lets a new one in.
        await open_.pop().disconnect()
        assert await sync_to_async(ws_guard.open_sockets)(alice.pk) == 2
        again = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await opens(again)
        for ws in [*open_, other, again]:
            await ws.disconnect()
        assert await sync_to_async(ws_guard.open_sockets)(alice.pk) == 0

    run(check)


def test_sockets_of_a_dead_web_process_stop_counting(settings: Any, alice: Any) -> None:
    """Places taken by another process (written to the real Redis here) count
    while renewed; a process that died without closing them stops renewing."""
    settings.WEBSOCKETS_PER_USER = 2
    client = ws_guard.redis_client()
    key = ws_guard.sockets_key(alice.pk)
    seconds, micros = client.time()
    now = seconds + micros / 1_000_000

    async def connects() -> bool:
        ws = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        if await opens(ws):
            await ws.disconnect()
            return True
        return False

    client.zadd(key, {"other-process-1": now, "other-process-2": now})
    assert not async_to_sync(connects)()
    stale = now - ws_guard.stale_after() - 1
    client.zadd(key, {"other-process-1": stale, "other-process-2": stale})
    assert async_to_sync(connects)()
    assert client.zcard(key) == 0  # the dead ones were pruned, the closed one released


def test_an_open_socket_keeps_its_place_by_its_heartbeat(settings: Any, alice: Any) -> None:
    settings.WEBSOCKETS_PER_USER = 1
    settings.SOCKET_HEARTBEAT_SECONDS = 0.2

    async def check() -> None:
        first = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await opens(first)
        await asyncio.sleep(5 * ws_guard.stale_after())  # unrenewed, it would be stale by now
        second = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await refused_with(second) == ws_guard.TOO_MANY_SOCKETS
        await first.disconnect()
        # Its place goes when the closed socket's app has finished: wait for
        # that (the sorted set empties) rather than race it.
        key = ws_guard.sockets_key(alice.pk)
        deadline = time.monotonic() + 10
        while ws_guard.redis_client().zcard(key) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        third = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await opens(third)
        await third.disconnect()

    run(check)


def test_sockets_on_two_web_processes_share_one_limit(
    settings: Any, alice: Any, procfile_web: Daphne
) -> None:
    """Sockets open on a real daphne count against the socket this process opens."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    settings.WEBSOCKETS_PER_USER = SOCKET_LIMIT
    cookie = session_cookie(alice)
    origin = procfile_web.url
    url = f"ws://127.0.0.1:{procfile_web.port}/ws/lobby/"
    headers = {"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"}

    async def check() -> None:
        remote = []
        for _ in range(SOCKET_LIMIT):
            ws = await connect(url, origin=origin, additional_headers=headers, open_timeout=10)  # type: ignore[arg-type]
            await asyncio.wait_for(ws.recv(), 10)
            remote.append(ws)
        with pytest.raises(InvalidStatus) as refused:
            await connect(url, origin=origin, additional_headers=headers, open_timeout=10)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        local = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await refused_with(local) == ws_guard.TOO_MANY_SOCKETS
        await remote.pop().close()
        end = time.monotonic() + 10
        while await sync_to_async(ws_guard.open_sockets)(alice.pk) >= SOCKET_LIMIT:
            assert time.monotonic() < end, "the closed socket's place was not released"
            await asyncio.sleep(0.05)
        local = await sync_to_async(socket)(alice, "http://127.0.0.1:8000")
        assert await opens(local)
        await local.disconnect()
        for ws in remote:
            await ws.close()

    run(check)
