"""Pushes to a user's own sockets: group `user.<id>.notifications` on every page."""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    return f"user.{user_id}.notifications"


def send_to_user(user_id: int, html: str) -> None:
    """Best effort: the badge is sent whole again on the next change and on reconnect."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "html.frame", "html": html}
    try:
        asyncio.run_coroutine_threadsafe(
            layer.group_send(user_group(user_id), message), _sender_loop()
        ).result(timeout=10)
    except Exception:
        log.exception("notification push to user %s failed", user_id)


_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """One event loop per process in a daemon thread, so a worker keeps one
    Redis connection instead of opening one per push (see games.realtime)."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(
                target=loop.run_forever, name="notification-sender", daemon=True
            ).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop
