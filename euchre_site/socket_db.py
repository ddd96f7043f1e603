"""Database calls of the websocket consumers, keeping their thread's connection.

Channels runs every consumer's `database_sync_to_async` call of a process in
one shared thread and closes that thread's connections after each call as
`CONN_MAX_AGE` says. On SQLite it is 0 (Django's advice under ASGI: an HTTP
request's thread ends with it), so each call opened the database anew: about
1 ms (the file, its WAL, the pragmas), on every page's heartbeat and every
chat message; at 800 sockets that was 8.5% of daphne's CPU (py-spy, during
`python -m benchmarks.live --chat`). This version keeps the shared thread's
connection for `KEEP_SECONDS`; errors and a changed autocommit still close
it, as they do for every connection (`close_old_connections`).
"""

from __future__ import annotations

import asyncio
import time

from asgiref.sync import SyncToAsync
from django.db import close_old_connections, connections

KEEP_SECONDS = 60


class SocketDatabaseSyncToAsync(SyncToAsync):  # type: ignore[type-arg]
    # asgiref's own (untyped) hook: the call's exc_info, context, function and arguments.
    def thread_handler(
        self, loop: asyncio.AbstractEventLoop, *args: object, **kwargs: object
    ) -> object:
        close_old_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            for conn in connections.all(initialized_only=True):
                raw = conn.connection
                if raw is not None and getattr(conn, "kept_connection", None) is not raw:
                    # Opened by this call: it lives KEEP_SECONDS at least
                    # (close_at None: CONN_MAX_AGE None, it lives on anyway).
                    conn.kept_connection = raw  # type: ignore[attr-defined]
                    if conn.close_at is not None:
                        conn.close_at = max(conn.close_at, time.monotonic() + KEEP_SECONDS)
            close_old_connections()


database_sync_to_async = SocketDatabaseSyncToAsync
