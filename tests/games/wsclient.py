"""Websocket test clients on the real ASGI application (auth, origin check, Redis layer)."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from euchre_site.asgi import application

ORIGIN = b"http://127.0.0.1:8000"


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def communicator(
    path: str, user: Any = None, origin: bytes | None = ORIGIN
) -> WebsocketCommunicator:
    headers = [(b"host", b"127.0.0.1:8000")]
    if origin is not None:
        headers.append((b"origin", origin))
    if user is not None:
        headers.append(
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session_cookie(user)}".encode())
        )
    return WebsocketCommunicator(application, path, headers=headers)


async def acommunicator(
    path: str, user: Any = None, origin: bytes | None = ORIGIN
) -> WebsocketCommunicator:
    """`communicator` from async code (logging in touches the database)."""
    from asgiref.sync import sync_to_async

    return await sync_to_async(communicator)(path, user, origin)
