from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from games import services
from games.models import Game

from .conftest import open_table, players, to_act
from .wsclient import acommunicator

pytestmark = pytest.mark.django_db(transaction=True)


def version_of(html: str) -> int:
    match = re.search(r'data-version="(\d+)"', html)
    assert match, html[:200]
    return int(match.group(1))


def test_a_connecting_seat_gets_a_full_snapshot_of_its_own_view(game: Game) -> None:
    user = players(game.table)[to_act(game)]

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", user)
        connected, _ = await ws.connect()
        assert connected
        html = await ws.receive_from(timeout=5)
        assert 'id="table"' in html and 'hx-swap-oob="morph"' in html
        assert version_of(html) == 1
        assert "Your turn" in html
        await ws.disconnect()

    async_to_sync(run)()


def test_every_seat_and_a_spectator_get_each_move(game: Game, outsider: Any) -> None:
    seated = players(game.table)

    async def run() -> None:
        sockets = [
            await acommunicator(f"/ws/tables/{game.table_id}/", u)
            for u in [*seated.values(), outsider]
        ]
        for ws in sockets:
            assert (await ws.connect())[0]
            assert version_of(await ws.receive_from(timeout=5)) == 1
        seat = await sync_to_async(to_act)(game)
        await sync_to_async(services.game_act)(
            game_id=game.pk,
            version=1,
            action={"type": "pass"},
            actor=services.Actor.person(seated[seat]),
        )
        for ws in sockets:
            frame = await ws.receive_from(timeout=5)
            assert version_of(frame) == 2
        for ws in sockets:
            await ws.disconnect()

    async_to_sync(run)()


def test_a_page_that_missed_a_move_is_resynced_by_its_heartbeat(game: Game, settings: Any) -> None:
    """Redis lost its data (presence counts): the move's push renders nothing for
    the seat; the socket's next heartbeat notices the newer version and sends it."""
    from django.core.cache import cache

    settings.SOCKET_HEARTBEAT_SECONDS = 0.2
    seated = players(game.table)
    watcher = seated[(to_act(game) + 1) % 3]

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", watcher)
        assert (await ws.connect())[0]
        assert version_of(await ws.receive_from(timeout=5)) == 1
        await sync_to_async(cache.clear)()
        seat = await sync_to_async(to_act)(game)
        await sync_to_async(services.game_act)(
            game_id=game.pk,
            version=1,
            action={"type": "pass"},
            actor=services.Actor.person(seated[seat]),
        )
        assert version_of(await ws.receive_from(timeout=5)) == 2
        await ws.disconnect()

    async_to_sync(run)()


def test_a_move_stored_while_the_socket_joins_its_game_still_reaches_the_page(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a game's start the bots move at once, while the page's socket is
    connecting: a move stored after the socket's snapshot was read and
    before it joined the game's group is pushed to nobody on this socket.
    The page still gets it at once, not a heartbeat (15 s) later."""
    from games.consumers import TableConsumer

    seated = players(game.table)
    watcher = seated[(to_act(game) + 1) % 3]
    snapshot = TableConsumer._snapshot
    moved: list[int] = []

    def snapshot_then_a_move(self: TableConsumer) -> Any:
        taken = snapshot(self)
        if not moved:  # the first read only: the move lands between it and the join
            seat = to_act(game)
            services.game_act(
                game_id=game.pk,
                version=1,
                action={"type": "pass"},
                actor=services.Actor.person(seated[seat]),
            )
            moved.append(seat)
        return taken

    monkeypatch.setattr(TableConsumer, "_snapshot", snapshot_then_a_move)

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", watcher)
        assert (await ws.connect())[0]
        assert version_of(await ws.receive_from(timeout=5)) == 2
        assert moved
        await ws.disconnect()

    async_to_sync(run)()


def test_anonymous_and_foreign_origin_sockets_are_refused(game: Game, alice: Any) -> None:
    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", None)
        connected, _ = await ws.connect()
        assert not connected
        ws = await acommunicator(
            f"/ws/tables/{game.table_id}/", alice, origin=b"http://evil.example.com"
        )
        connected, _ = await ws.connect()
        assert not connected
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", alice, origin=None)
        connected, _ = await ws.connect()
        assert not connected

    async_to_sync(run)()


def test_a_private_table_refuses_people_not_seated(alice: Any, outsider: Any) -> None:
    table = open_table(alice, visibility="private")

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{table.pk}/", outsider)
        assert not (await ws.connect())[0]
        ws = await acommunicator(f"/ws/tables/{table.pk}/", alice)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        await ws.disconnect()

    async_to_sync(run)()


def test_seat_changes_and_the_start_reach_an_open_table_page(
    alice: Any, bob: Any, carol: Any
) -> None:
    table = open_table(alice)

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{table.pk}/", alice)
        assert (await ws.connect())[0]
        first = await ws.receive_from(timeout=5)
        assert "Empty seat" in first
        await sync_to_async(services.table_join)(table=table, user=bob, position=1)
        frame = await ws.receive_from(timeout=5)
        assert "bob" in frame and frame.count("Empty seat") == 1
        await sync_to_async(services.table_join)(table=table, user=carol, position=2)
        frame = await ws.receive_from(timeout=5)
        assert 'data-version="1"' in frame and "Your hand" in frame
        # The socket now follows the game: the next move arrives too.
        game = await sync_to_async(lambda: table.games.get())()
        seat = await sync_to_async(to_act)(game)
        who = {0: alice, 1: bob, 2: carol}[seat]
        await sync_to_async(services.game_act)(
            game_id=game.pk, version=1, action={"type": "pass"}, actor=services.Actor.person(who)
        )
        frame = await ws.receive_from(timeout=5)
        assert version_of(frame) == 2
        await ws.disconnect()

    async_to_sync(run)()


def test_the_lobby_updates_live_when_a_table_opens(alice: Any, bob: Any) -> None:
    async def run() -> None:
        ws = await acommunicator("/ws/lobby/", bob)
        assert (await ws.connect())[0]
        first = await ws.receive_from(timeout=5)
        assert "No public table" in first
        await sync_to_async(open_table)(alice, name="Brand new table")
        frame = await ws.receive_from(timeout=5)
        assert "Brand new table" in frame
        await ws.disconnect()

    async_to_sync(run)()


def test_an_open_table_page_counts_as_presence(game: Game) -> None:
    from games import presence

    user = players(game.table)[0]

    async def run() -> None:
        first = await acommunicator(f"/ws/tables/{game.table_id}/", user)
        second = await acommunicator(f"/ws/tables/{game.table_id}/", user)
        assert (await first.connect())[0] and (await second.connect())[0]
        await first.receive_from(timeout=5)
        await second.receive_from(timeout=5)
        assert await sync_to_async(presence.is_on_table_page)(game.table_id, user.pk)
        await first.disconnect()
        assert await sync_to_async(presence.is_on_table_page)(
            game.table_id, user.pk
        )  # one tab still open
        await second.disconnect()
        assert not await sync_to_async(presence.is_on_table_page)(game.table_id, user.pk)

    async_to_sync(run)()


def test_presence_lost_with_redis_data_is_restored_by_the_heartbeat(
    game: Game, outsider: Any
) -> None:
    from django.core.cache import cache

    from games import presence

    user = players(game.table)[0]
    presence.joined(game.table_id, user.pk)
    presence.joined(game.table_id, outsider.pk)
    cache.clear()  # Redis lost its data
    assert presence.watching(game.table_id, [user.pk]) == (set(), False)
    presence.still_here(game.table_id, user.pk)
    presence.still_here(game.table_id, outsider.pk)
    assert presence.watching(game.table_id, [user.pk]) == ({user.pk}, True)
    presence.still_here(game.table_id, user.pk)  # later beats only renew
    assert presence.watching(game.table_id, [user.pk]) == ({user.pk}, True)
    presence.left(game.table_id, outsider.pk)
    assert presence.watching(game.table_id, [user.pk]) == ({user.pk}, False)
    presence.left(game.table_id, user.pk)
    assert presence.watching(game.table_id, [user.pk]) == (set(), False)


def frame(version: int) -> dict[str, Any]:
    """A table frame as games.realtime publishes it."""
    return {"type": "html.frame", "html": f'<b data-version="{version}"></b>', "version": version}


async def seat_zero_at_version_one(game: Game) -> tuple[Any, Any]:
    """Seat 0's table socket, connected and holding version 1, and a way to
    publish a frame to that seat's group."""
    from channels.layers import get_channel_layer

    from games import groups

    user = await sync_to_async(lambda: players(game.table)[0])()
    ws = await acommunicator(f"/ws/tables/{game.table_id}/", user)
    assert (await ws.connect())[0]
    assert version_of(await ws.receive_from(timeout=5)) == 1
    group, layer = groups.game_group(game.pk, 0), get_channel_layer()

    async def send(event: dict[str, Any]) -> None:
        await layer.group_send(group, event)

    return ws, send


def test_a_frame_that_overtook_an_older_one_waits_for_it(game: Game) -> None:
    """Two moves published by different processes can reach the channel layer
    out of order: the page still gets them in order, each once."""

    async def run() -> None:
        ws, send = await seat_zero_at_version_one(game)
        await send(frame(3))
        await send(frame(4))
        await send(frame(2))
        await send(frame(3))  # repeated: dropped
        got = [version_of(await ws.receive_from(timeout=5)) for _ in range(3)]
        assert got == [2, 3, 4]
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()

    async_to_sync(run)()


def test_a_frame_never_rendered_for_the_page_is_skipped_after_a_wait(
    game: Game, settings: Any
) -> None:
    settings.FRAME_GAP_WAIT_SECONDS = 0.2

    async def run() -> None:
        ws, send = await seat_zero_at_version_one(game)
        await send(frame(4))
        await send(frame(3))
        assert [version_of(await ws.receive_from(timeout=5)) for _ in range(2)] == [3, 4]
        await send(frame(5))
        assert version_of(await ws.receive_from(timeout=5)) == 5
        await ws.disconnect()

    async_to_sync(run)()
