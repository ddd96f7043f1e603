"""The consumers' database calls keep their shared thread's connection
(euchre_site.socket_db) for KEEP_SECONDS, instead of opening SQLite anew on
every heartbeat and chat message (SQLite's CONN_MAX_AGE is 0)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from euchre_site import socket_db
from games.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def in_the_sockets_thread(fn: Any) -> Any:
    return async_to_sync(socket_db.database_sync_to_async(fn))()


def the_connection() -> Any:
    Table.objects.exists()  # a real query on the thread's connection
    return connection.connection  # held by the test: no other can take its id


def grown_old() -> None:
    connection.close_at = 0.0


def test_consecutive_calls_share_one_connection_until_it_is_old() -> None:
    first = in_the_sockets_thread(the_connection)
    assert in_the_sockets_thread(the_connection) is first
    assert in_the_sockets_thread(the_connection) is first
    in_the_sockets_thread(grown_old)  # closed at the end of this call
    second = in_the_sockets_thread(the_connection)
    assert second is not first
    assert in_the_sockets_thread(the_connection) is second
