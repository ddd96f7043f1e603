"""Web push to a real HTTP endpoint on loopback, encrypted by pywebpush with
VAPID keys made here; the test decrypts what arrived with the browser's key."""

from __future__ import annotations

import base64
import datetime
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from games import presence
from notifications import services
from notifications.models import PushSubscription

from .conftest import game_waiting_for, notify_turn

pytestmark = pytest.mark.django_db


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A stand-in push service: records each POST and answers with `status`."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/device-1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    """On loopback over http: only with WEB_PUSH_ALLOW_PRIVATE_HOSTS (off by default)."""
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True
    service = PushService()
    yield service
    service.server.shutdown()
    service.server.server_close()


class Browser:
    """The browser's side of a subscription: its key pair and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64url(public)

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        return dict(json.loads(plain))


def subscribe(user: Any, service: PushService) -> Browser:
    browser = Browser()
    services.push_subscription_save(
        user=user, endpoint=service.url, p256dh=browser.p256dh, auth=b64url(browser.auth)
    )
    return browser


def test_a_turn_is_pushed_encrypted_to_the_browsers_push_service(
    vapid: None,
    push_service: PushService,
    alice: Any,
    bob: Any,
    carol: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    browser = subscribe(alice, push_service)
    game = game_waiting_for(alice, [alice, bob, carol])
    with django_capture_on_commit_callbacks(execute=True):
        note = notify_turn(alice, game)
    assert note is not None
    assert len(push_service.received) == 1
    headers, body = push_service.received[0]
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    assert b"Friday table" not in body  # encrypted on the wire
    assert browser.decrypt(body) == {
        "title": "Cutthroat Euchre",
        "body": "Your turn in Friday table.",
        "url": f"http://testserver/tables/{game.table_id}/",
    }
    note.refresh_from_db()
    assert note.pushed_at is not None
    assert services.send_push(note.pk) == 0  # pushed once
    assert len(push_service.received) == 1


def test_no_push_while_on_the_table_page(
    vapid: None,
    push_service: PushService,
    alice: Any,
    bob: Any,
    carol: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    subscribe(alice, push_service)
    game = game_waiting_for(alice, [alice, bob, carol])
    presence.joined(game.table_id, alice.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_turn(alice, game) is None  # nothing told: the table shows it
    assert push_service.received == []
    # The page closed before a push that was queued went out: none either.
    presence.left(game.table_id, alice.pk)
    game.version += 1
    note = notify_turn(alice, game)
    assert note is not None
    presence.joined(game.table_id, alice.pk)
    assert services.send_push(note.pk) == 0
    assert push_service.received == []


def test_a_subscription_the_push_service_calls_gone_is_deleted(
    vapid: None, push_service: PushService, alice: Any, bob: Any, carol: Any
) -> None:
    subscribe(alice, push_service)
    push_service.status = 410
    game = game_waiting_for(alice, [alice, bob, carol])
    note = notify_turn(alice, game)
    assert note is not None
    assert services.send_push(note.pk) == 0
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_push_is_silently_off_without_vapid_keys(
    push_service: PushService, alice: Any, bob: Any, carol: Any
) -> None:
    subscribe(alice, push_service)
    game = game_waiting_for(alice, [alice, bob, carol])
    note = notify_turn(alice, game)
    assert note is not None
    assert services.send_push(note.pk) == 0
    assert push_service.received == []


def test_no_push_in_quiet_hours(
    vapid: None, push_service: PushService, alice: Any, bob: Any, carol: Any
) -> None:
    subscribe(alice, push_service)
    prefs = services.preferences_for(alice)
    prefs.quiet_start, prefs.quiet_end = datetime.time(22, 0), datetime.time(7, 0)
    prefs.save()
    game = game_waiting_for(alice, [alice, bob, carol])
    note = notify_turn(alice, game)
    assert note is not None
    night = datetime.datetime(2026, 5, 5, 23, 30, tzinfo=datetime.UTC)
    assert services.send_push(note.pk, now=night) == 0
    assert push_service.received == []
    morning = datetime.datetime(2026, 5, 6, 7, 0, tzinfo=datetime.UTC)
    assert services.send_push(note.pk, now=morning) == 1
