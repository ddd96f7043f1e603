"""Sending to websocket groups through the channel layer from sync code.

One event loop per process, in a daemon thread, carries every push:
`async_to_sync` from a thread with no loop (a Celery worker) would start a new
loop, and with it a new Redis connection, for every push. The loop is created
lazily, and again after a fork (Celery's prefork pool).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Mapping, Sequence

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# A channel-layer message: any msgpack-able mapping whose "type" names the
# consumers' handler; each sender owns its shape (a TypedDict where it has one).
GroupMessage = Mapping[str, object]

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def user_group(user_id: int) -> str:
    """Every page of a signed-in user listens here (the notifications socket)."""
    return f"user.{user_id}.notifications"


def send(frames: Sequence[tuple[str, GroupMessage]]) -> None:
    """Send (group, message) pairs in order, in one trip through the loop.

    Best effort: channel-layer delivery is at most once anyway, and every
    frame the site sends is a whole snapshot healed by the next one or by
    the snapshot a (re)connecting socket gets.
    """
    layer = get_channel_layer()
    if layer is None or not frames:
        return

    async def send_all() -> None:
        for group, message in frames:
            await layer.group_send(group, message)

    try:
        asyncio.run_coroutine_threadsafe(send_all(), _sender_loop()).result(timeout=10)
    except Exception:
        log.exception("push to %s failed", [g for g, _ in frames])


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, name="channel-layer-sender", daemon=True
            ).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop
