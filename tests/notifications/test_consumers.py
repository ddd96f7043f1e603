from __future__ import annotations

import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from notifications import services
from tests.games.wsclient import acommunicator

pytestmark = pytest.mark.django_db(transaction=True)


def run(coroutine_function: Callable[[], Awaitable[None]]) -> None:
    """Run the test's coroutine on a fresh thread: the sync Playwright of a
    browser test earlier in the session can leave a loop marked running on
    the main thread, where `async_to_sync` refuses to start."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            async_to_sync(coroutine_function)()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    if failure:
        raise failure[0]


def badge_count(frame: str) -> int:
    match = re.search(
        r'<span id="unread-badge" class="badge" hx-swap-oob="true" data-live( hidden)?>(\d+)<',
        frame,
    )
    assert match, frame
    return int(match.group(2))


def test_the_socket_sends_the_badge_on_connect_and_again_on_each_change(alice: Any) -> None:
    services.notify(user=alice, kind="game_started", game=None, text="Old news", url="/")

    async def check() -> None:
        ws = await acommunicator("/ws/notifications/", alice)
        assert (await ws.connect())[0]
        assert badge_count(await ws.receive_from(timeout=5)) == 1
        note = await sync_to_async(services.notify)(
            user=alice, kind="turn", game=None, text="Your turn in <Friday>.", url="/tables/9/"
        )
        assert note is not None
        frame = await ws.receive_from(timeout=5)
        assert badge_count(frame) == 2
        # The toast: a status with the link, the text escaped, added to the toast box.
        assert 'hx-swap-oob="afterbegin:#notification-toasts"' in frame
        assert 'role="status"' in frame
        link = f'<a href="/notifications/{note.pk}/" class="toast-link">'
        assert link + "Your turn in &lt;Friday&gt;.</a>" in frame
        await sync_to_async(services.mark_read)(alice, note.pk)
        assert badge_count(await ws.receive_from(timeout=5)) == 1
        await sync_to_async(services.mark_all_read)(alice)
        assert badge_count(await ws.receive_from(timeout=5)) == 0
        await ws.disconnect()

    run(check)


def test_each_user_hears_only_their_own(alice: Any, bob: Any) -> None:
    async def check() -> None:
        ws_alice = await acommunicator("/ws/notifications/", alice)
        ws_bob = await acommunicator("/ws/notifications/", bob)
        for ws in (ws_alice, ws_bob):
            assert (await ws.connect())[0]
            assert badge_count(await ws.receive_from(timeout=5)) == 0
        await sync_to_async(services.notify)(
            user=bob, kind="game_ended", game=None, text="Game over.", url="/"
        )
        assert badge_count(await ws_bob.receive_from(timeout=5)) == 1
        assert await ws_alice.receive_nothing(timeout=0.3)
        for ws in (ws_alice, ws_bob):
            await ws.disconnect()

    run(check)


def test_anonymous_sockets_are_refused() -> None:
    async def check() -> None:
        ws = await acommunicator("/ws/notifications/")
        connected, code = await ws.connect()
        assert not connected and code == 4401
        await ws.disconnect()

    run(check)


def test_no_toast_over_the_table_the_player_is_looking_at(alice: Any, bob: Any, carol: Any) -> None:
    from games import presence
    from tests.notifications.conftest import notify_turn, turns_game

    game = turns_game([alice, bob, carol])

    async def check() -> None:
        ws = await acommunicator("/ws/notifications/", alice)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        await sync_to_async(presence.joined)(game.table_id, alice.pk)
        # A turn not told before (the start may already have told alice of hers):
        # the table she looks at shows it, so nothing is told, not even the badge.
        game.version += 1
        assert await sync_to_async(notify_turn)(alice, game) is None
        assert await ws.receive_nothing(timeout=0.3)
        await sync_to_async(presence.left)(game.table_id, alice.pk)
        await ws.disconnect()

    run(check)
