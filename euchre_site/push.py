"""Sending to websocket groups through the channel layer from sync code.

One event loop per process, in a daemon thread, carries every push:
`async_to_sync` from a thread with no loop (a Celery worker) would start a new
loop, and with it a new Redis connection, for every push. The loop is created
lazily, and again after a fork (Celery's prefork pool).

A Celery worker's processes publish directly instead (`publish_directly`,
called as each starts): the Redis pub/sub layer's group send is one PUBLISH
of the serialized message on the group's channel, and a move's frames go in
one pipeline on the process's own connection, without the hop to the loop's
thread and back (a tenth of a bot move's worker time). Only where nothing
else in the process publishes through the layer: the web processes' consumers
publish on the loop's connection, and a log-out's `session.end` must reach
the sockets before any frame published after it (accounts.sessions), so
daphne keeps the one connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Mapping, Sequence

import redis
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

log = logging.getLogger(__name__)

# A channel-layer message: any msgpack-able mapping whose "type" names the
# consumers' handler; each sender owns its shape (a TypedDict where it has one).
GroupMessage = Mapping[str, object]

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()
_direct: tuple[int, redis.Redis, str] | None = None  # (pid, client, prefix)
_direct_wanted = False


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
    direct = _direct_client(layer)
    if direct is not None:
        client, prefix = direct
        try:
            pipe = client.pipeline(transaction=False)
            for group, message in frames:
                pipe.publish(f"{prefix}__group__{group}", layer.serialize(message))
            pipe.execute()
        except Exception:
            log.exception("push to %s failed", [g for g, _ in frames])
        return

    async def send_all() -> None:
        for group, message in frames:
            await layer.group_send(group, message)

    try:
        asyncio.run_coroutine_threadsafe(send_all(), _sender_loop()).result(timeout=10)
    except Exception:
        log.exception("push to %s failed", [g for g, _ in frames])


def publish_directly() -> None:
    """This process's pushes go straight to Redis (a Celery worker's: see
    the module's docstring)."""
    global _direct_wanted
    _direct_wanted = True


def _direct_client(layer: object) -> tuple[redis.Redis, str] | None:
    """The process's own Redis client and the layer's prefix, if this process
    publishes directly and the layer is Redis pub/sub on one server."""
    global _direct
    if not _direct_wanted or not isinstance(layer, RedisPubSubChannelLayer):
        return None
    if _direct is None or _direct[0] != os.getpid():
        # Set by settings.redis_settings (globals().update): unseen by the stubs.
        config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})  # type: ignore[misc]
        hosts = config.get("hosts") or ["redis://localhost:6379"]
        if len(hosts) != 1 or not isinstance(hosts[0], str):
            return None  # sharded or configured by a dict: the layer's own way
        _direct = (os.getpid(), redis.Redis.from_url(hosts[0]), config.get("prefix", "asgi"))
    return _direct[1], _direct[2]


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
