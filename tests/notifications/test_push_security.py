"""Web push must not be a door into the site's own network, nor into another
account's subscription, nor a way to make the subscription view answer 500.

Registration goes through the real view (Django's test client, real database);
sending goes to real sockets on loopback. Only DNS answers are made up (the
`dns` fixture), since the test machine has no network."""

from __future__ import annotations

import datetime
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.test import Client
from django.urls import reverse

from notifications import push_endpoints, services
from notifications.models import Preferences, PushSubscription

from .conftest import FakeDNS, game_waiting_for, notify_turn
from .test_push import Browser, PushService, b64url

pytestmark = pytest.mark.django_db

URL = "/notifications/push/subscription/"
P256DH = b64url(b"\x04" + bytes(range(1, 65)))
AUTH = b64url(bytes(range(16)))
PUBLIC_IP = "93.184.215.14"

NOT_A_URL = "The push endpoint is not a valid URL."
TOO_LONG = "The push endpoint is too long (at most 1000 characters)."
NOT_HTTPS = "The push endpoint must be an https:// URL."
USER_INFO = "The push endpoint must not contain a user name or password."
NOT_443 = "The push endpoint must use the standard https port (443)."
NOT_PUBLIC = "The push endpoint's host is not a public Internet address."
NO_ADDRESS = "The push endpoint's host name could not be looked up."
TAKEN = "This push subscription cannot be registered."
NOT_A_SUBSCRIPTION = "This is not a push subscription: a JSON object with an endpoint and keys."
BAD_KEYS = "The push subscription's keys are not valid (p256dh and auth, base64url)."
TOO_DEEP = "The JSON is nested too deeply (at most 32 levels)."
NAN = "The JSON has NaN or Infinity, which are not allowed."
TOO_LARGE = "The request body is too large (at most 4096 bytes)."


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, body: str | bytes) -> Any:
    return client.post(URL, body, content_type="application/json")


def subscription(endpoint: str, p256dh: str = P256DH, auth: str = AUTH) -> str:
    return json.dumps({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}})


@pytest.fixture
def public_dns(dns: FakeDNS) -> FakeDNS:
    dns["push.example.com"] = [PUBLIC_IP]
    dns["fcm.googleapis.com"] = [PUBLIC_IP, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
    dns["intranet.example.com"] = ["10.0.0.5"]
    dns["rebind.example.com"] = [PUBLIC_IP, "127.0.0.1"]  # one bad address is enough
    dns["metadata.example.com"] = ["169.254.169.254"]
    dns["v6-loopback.example.com"] = ["::1"]
    dns["mapped.example.com"] = ["::ffff:127.0.0.1"]
    return dns


# --------------------------------------------------------------------------- registration


@pytest.mark.parametrize(
    ("endpoint", "error"),
    [
        ("https://127.0.0.1/push", NOT_PUBLIC),
        ("https://127.0.0.1:443/push", NOT_PUBLIC),
        ("https://localhost:6390/push", NOT_443),
        ("https://localhost/push", NOT_PUBLIC),
        ("https://push.localhost/push", NOT_PUBLIC),
        ("https://10.1.2.3/push", NOT_PUBLIC),
        ("https://192.168.1.1/push", NOT_PUBLIC),
        ("https://172.16.0.1/push", NOT_PUBLIC),
        ("https://100.64.0.1/push", NOT_PUBLIC),
        ("https://0.0.0.0/push", NOT_PUBLIC),
        ("https://169.254.169.254/latest/meta-data/", NOT_PUBLIC),
        ("https://224.0.0.1/push", NOT_PUBLIC),
        ("https://[::1]/", NOT_PUBLIC),
        ("https://[::]/", NOT_PUBLIC),
        ("https://[fe80::1]/", NOT_PUBLIC),
        ("https://[fc00::1]/", NOT_PUBLIC),
        ("https://[::ffff:127.0.0.1]/", NOT_PUBLIC),
        ("https://[::ffff:7f00:1]/", NOT_PUBLIC),
        ("https://[::ffff:93.184.215.14]/", NOT_PUBLIC),
        ("https://[::127.0.0.1]/", NOT_PUBLIC),
        ("https://[64:ff9b::a00:1]/", NOT_PUBLIC),
        ("https://[2002:7f00:1::1]/", NOT_PUBLIC),
        ("https://0x7f000001/", NOT_PUBLIC),
        ("https://2130706433/", NOT_PUBLIC),
        ("https://017700000001/", NOT_PUBLIC),
        ("https://127.1/", NOT_PUBLIC),
        ("https://0x7f.0.0.1/", NOT_PUBLIC),
        ("https://redis/", NOT_PUBLIC),
        ("https://intranet.example.com/push", NOT_PUBLIC),
        ("https://rebind.example.com/push", NOT_PUBLIC),
        ("https://metadata.example.com/push", NOT_PUBLIC),
        ("https://v6-loopback.example.com/push", NOT_PUBLIC),
        ("https://mapped.example.com/push", NOT_PUBLIC),
        ("https://nowhere.example.net/push", NO_ADDRESS),
        ("http://push.example.com/push", NOT_HTTPS),
        ("ftp://push.example.com/push", NOT_HTTPS),
        ("file:///etc/passwd", NOT_HTTPS),
        ("gopher://127.0.0.1:6390/_INFO", NOT_HTTPS),
        ("//push.example.com/push", NOT_HTTPS),
        ("https://user:secret@push.example.com/push", USER_INFO),
        ("https://push.example.com@127.0.0.1/push", USER_INFO),
        ("https://push.example.com:8443/push", NOT_443),
        ("https://push.example.com:80/push", NOT_443),
        ("https://push.example.com:abc/push", NOT_A_URL),
        ("https://push.example.com\\@127.0.0.1/push", NOT_A_URL),
        ("https://push.example.com/a b", NOT_A_URL),
        ("https://push.exämple.com/push", NOT_A_URL),
        ("https:///push", NOT_A_URL),
        ("https://push.example.com/" + "a" * 1000, TOO_LONG),
    ],
)
def test_registration_refuses_endpoints_that_are_not_public_push_services(
    alice: Any, public_dns: FakeDNS, endpoint: str, error: str
) -> None:
    response = post(logged_in(alice), subscription(endpoint))
    assert response.status_code == 400
    assert response.json() == {"ok": False, "error": error}
    assert not PushSubscription.objects.exists()
    assert not services.preferences_for(alice).push_enabled


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://push.example.com/wpush/v2/gAAAAABk",
        "https://push.example.com:443/wpush/v2/gAAAAABk",
        "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b?x=1",
        "https://93.184.215.14/push",
        "https://[2606:4700:4700::1111]/push",
    ],
)
def test_registration_takes_a_public_https_endpoint(
    alice: Any, public_dns: FakeDNS, endpoint: str
) -> None:
    response = post(logged_in(alice), subscription(endpoint))
    assert response.status_code == 200
    assert response.json() == {"ok": True, "subscribed": True}
    assert PushSubscription.objects.get().endpoint == endpoint


def test_private_hosts_are_taken_only_with_the_explicit_setting(alice: Any, settings: Any) -> None:
    client = logged_in(alice)
    assert post(client, subscription("http://127.0.0.1:8765/push")).status_code == 400
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True
    assert post(client, subscription("http://127.0.0.1:8765/push")).status_code == 200
    # user-info stays refused even then
    refused = post(client, subscription("http://a:b@127.0.0.1:8765/other"))
    assert refused.json() == {"ok": False, "error": USER_INFO}


# --------------------------------------------------------------------------- takeover


def test_an_endpoint_registered_by_another_account_is_not_moved(
    alice: Any, bob: Any, public_dns: FakeDNS
) -> None:
    endpoint = "https://push.example.com/wpush/alice-browser"
    other_keys = b64url(b"\x04" + bytes(range(101, 165)))
    assert post(logged_in(alice), subscription(endpoint)).status_code == 200

    bob_client = logged_in(bob)
    response = post(bob_client, subscription(endpoint, p256dh=other_keys))
    assert response.status_code == 409
    assert response.json() == {"ok": False, "error": TAKEN}
    sub = PushSubscription.objects.get()
    assert (sub.user_id, sub.p256dh, sub.auth) == (alice.pk, P256DH, AUTH)
    assert not services.preferences_for(bob).push_enabled
    # nor can bob delete it
    post(bob_client, json.dumps({"endpoint": endpoint, "delete": True}))
    assert PushSubscription.objects.filter(user=alice).exists()

    # alice posting it again (new keys from her browser) updates it
    new_auth = b64url(bytes(range(16, 32)))
    again = post(logged_in(alice), subscription(endpoint, p256dh=other_keys, auth=new_auth))
    assert again.json() == {"ok": True, "subscribed": True}
    sub = PushSubscription.objects.get()
    assert (sub.user_id, sub.p256dh, sub.auth) == (alice.pk, other_keys, new_auth)


def test_log_out_deletes_the_subscription_this_browser_registered(
    alice: Any, public_dns: FakeDNS
) -> None:
    laptop, phone = logged_in(alice), logged_in(alice)
    assert post(laptop, subscription("https://push.example.com/laptop")).status_code == 200
    assert post(phone, subscription("https://push.example.com/phone")).status_code == 200
    assert laptop.post(reverse("account_logout")).status_code == 302
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://push.example.com/phone"
    ]
    assert services.preferences_for(alice).push_enabled
    phone.post(reverse("account_logout"))
    assert not PushSubscription.objects.exists()
    assert not services.preferences_for(alice).push_enabled


def test_the_preferences_page_knows_only_this_accounts_endpoints(
    alice: Any, bob: Any, public_dns: FakeDNS, settings: Any
) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "BPublicKey", "private"
    post(logged_in(bob), subscription("https://push.example.com/bob"))
    client = logged_in(alice)
    post(client, subscription("https://push.example.com/alice"))
    html = client.get(reverse("notifications:preferences")).content.decode()
    assert (
        '<script id="push-endpoints" type="application/json">'
        '["https://push.example.com/alice"]</script>'
    ) in html


# --------------------------------------------------------------------------- bad bodies


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("[" * 100_000, TOO_LARGE),  # 413, as any body over the cap
        ('{"a":' * 100_000, TOO_LARGE),
        ("[" * 2000 + "]" * 2000, TOO_DEEP),  # json.loads: RecursionError
        ('{"a":' * 600 + "1" + "}" * 600, TOO_DEEP),
        ('{"endpoint": "' + "[" * 3000 + '"}', NOT_A_SUBSCRIPTION),  # brackets in a string
        ('{"endpoint": ' + "[" * 40 + "]" * 40 + "}", TOO_DEEP),
        ('{"endpoint": NaN}', NAN),
        ('{"endpoint": "https://push.example.com/", "keys": {"p256dh": Infinity}}', NAN),
        ("-Infinity", NAN),
        ("", "The request body is not valid JSON: Expecting value (line 1, column 1)."),
        (
            "{'endpoint': 1}",
            "The request body is not valid JSON: Expecting property name "
            "enclosed in double quotes (line 1, column 2).",
        ),
        (b"\xff\xfe{}", "The request body is not UTF-8 text."),
        ("1" * 4500, "The request body is too large (at most 4096 bytes)."),
        ("[" + "1" * 4400 + "]", "The request body is too large (at most 4096 bytes)."),
        ("[1, 2]", NOT_A_SUBSCRIPTION),
        ('"https://push.example.com/"', NOT_A_SUBSCRIPTION),
        ("42", NOT_A_SUBSCRIPTION),
        ("null", NOT_A_SUBSCRIPTION),
        ("{}", NOT_A_SUBSCRIPTION),
        ('{"endpoint": 42}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": ["https://push.example.com/"]}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": {"url": "https://push.example.com/"}}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": null}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": ""}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": true, "delete": true}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/"}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/", "delete": "yes"}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/", "keys": null}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/", "keys": [1, 2]}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/", "keys": "k"}', NOT_A_SUBSCRIPTION),
        ('{"endpoint": "https://push.example.com/", "keys": {}}', BAD_KEYS),
        (
            '{"endpoint": "https://push.example.com/", "keys": {"p256dh": "k", "auth": "a"}}',
            BAD_KEYS,
        ),
        (
            json.dumps(
                {"endpoint": "https://push.example.com/", "keys": {"p256dh": 5, "auth": AUTH}}
            ),
            BAD_KEYS,
        ),
        (
            json.dumps(
                {"endpoint": "https://push.example.com/", "keys": {"p256dh": P256DH, "auth": None}}
            ),
            BAD_KEYS,
        ),
        (
            json.dumps(
                {
                    "endpoint": "https://push.example.com/",
                    "keys": {"p256dh": [P256DH], "auth": AUTH},
                }
            ),
            BAD_KEYS,
        ),
        (
            json.dumps(
                {"endpoint": "https://push.example.com/", "keys": {"p256dh": AUTH, "auth": AUTH}}
            ),
            BAD_KEYS,
        ),
        (
            json.dumps(
                {
                    "endpoint": "https://push.example.com/",
                    "keys": {"p256dh": P256DH, "auth": "a+b/c=="},
                }
            ),
            BAD_KEYS,
        ),
        (json.dumps({"endpoint": 7, "keys": {"p256dh": P256DH, "auth": AUTH}}), NOT_A_SUBSCRIPTION),
    ],
)
def test_a_bad_body_is_a_400_with_a_reason_never_a_500(
    alice: Any, public_dns: FakeDNS, body: str | bytes, error: str
) -> None:
    response = post(logged_in(alice), body)
    expected_status = 413 if error == TOO_LARGE else 400
    assert (response.status_code, response.json()) == (
        expected_status,
        {"ok": False, "error": error},
    )
    assert not PushSubscription.objects.exists()


def test_a_huge_body_is_refused_before_it_is_read(alice: Any) -> None:
    response = post(logged_in(alice), b'{"endpoint": "' + b"a" * 2_000_000 + b'"}')
    assert response.status_code == 413
    assert response.json() == {"ok": False, "error": TOO_LARGE}


# --------------------------------------------------------------------------- sending


class Listener:
    """A bare TCP listener: did anything connect?"""

    def __init__(self, port: int = 0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]

    def connections(self) -> int:
        count = 0
        while True:
            try:
                conn, _ = self.sock.accept()
            except BlockingIOError:
                return count
            conn.close()
            count += 1

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


@pytest.fixture
def listener_on_443() -> Iterator[Listener]:
    try:
        found = Listener(443)
    except OSError as exc:  # not root, or the port is taken
        pytest.skip(f"cannot listen on 127.0.0.1:443: {exc}")
    yield found
    found.close()


def plant(user: Any, endpoint: str) -> PushSubscription:
    """A row put straight in the database, as an old release or an attacker may have left it."""
    browser = Browser()
    services.preferences_for(user)
    Preferences.objects.filter(user=user).update(push_enabled=True)
    return PushSubscription.objects.create(
        user=user, endpoint=endpoint, p256dh=browser.p256dh, auth=b64url(browser.auth)
    )


def turn_note(alice: Any, bob: Any, carol: Any) -> Any:
    game = game_waiting_for(alice, [alice, bob, carol])
    note = notify_turn(alice, game)
    assert note is not None
    return note


def test_planted_private_endpoints_get_no_connection_at_send_time(
    vapid: None,
    listener: Listener,
    alice: Any,
    bob: Any,
    carol: Any,
    dns: FakeDNS,
    caplog: pytest.LogCaptureFixture,
) -> None:
    dns["loopback.example.com"] = ["127.0.0.1"]
    port = listener.port
    endpoints = [
        f"https://127.0.0.1:{port}/push",
        f"http://127.0.0.1:{port}/push",
        f"https://localhost:{port}/push",
        f"https://[::ffff:127.0.0.1]:{port}/push",
        f"https://0x7f000001:{port}/push",
        f"https://loopback.example.com:{port}/push",
        f"https://user:pw@127.0.0.1:{port}/push",
    ]
    for endpoint in endpoints:
        plant(alice, endpoint)
    note = turn_note(alice, bob, carol)
    assert services.send_push(note.pk) == 0  # and nothing raised
    assert listener.connections() == 0
    assert not PushSubscription.objects.exists()  # no longer acceptable: deleted
    assert "refused and deleted" in caplog.text


def test_private_addresses_on_port_443_are_refused_at_send_time_too(
    vapid: None,
    listener_on_443: Listener,
    alice: Any,
    bob: Any,
    carol: Any,
    dns: FakeDNS,
) -> None:
    # Registered while the name pointed to a public address; now it points home.
    dns["rebind.example.com"] = [PUBLIC_IP]
    assert (
        post(logged_in(alice), subscription("https://rebind.example.com/push")).status_code == 200
    )
    dns["rebind.example.com"] = ["127.0.0.1"]
    for endpoint in [
        "https://127.0.0.1/push",
        "https://localhost/push",
        "https://[::ffff:7f00:1]/",
    ]:
        plant(alice, endpoint)
    note = turn_note(alice, bob, carol)
    assert services.send_push(note.pk) == 0
    assert listener_on_443.connections() == 0
    assert not PushSubscription.objects.exists()


def test_a_name_that_no_longer_resolves_is_skipped_and_kept(
    vapid: None, alice: Any, bob: Any, carol: Any, dns: FakeDNS
) -> None:
    dns["push.example.com"] = [PUBLIC_IP]
    assert post(logged_in(alice), subscription("https://push.example.com/x")).status_code == 200
    del dns["push.example.com"]
    note = turn_note(alice, bob, carol)
    assert services.send_push(note.pk) == 0
    assert PushSubscription.objects.filter(user=alice).exists()


class Answering:
    """Records every request, whatever its method, and answers `status` (with a Location)."""

    def __init__(self, status: int, location: str = "") -> None:
        self.requests: list[tuple[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append((self.command, self.path))
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = do_PUT = do_HEAD = answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/device-1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_from_the_push_service_is_not_followed(
    vapid: None, settings: Any, alice: Any, bob: Any, carol: Any, status: int
) -> None:
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True  # both servers are on loopback
    second = Answering(201)
    first = Answering(status, location=second.url)
    try:
        services.push_subscription_save(
            user=alice, endpoint=first.url, p256dh=Browser().p256dh, auth=AUTH
        )
        note = turn_note(alice, bob, carol)
        assert services.send_push(note.pk) == 0  # a 3xx is a failure
        assert first.requests == [("POST", "/push/device-1")]
        assert second.requests == []
        assert PushSubscription.objects.filter(user=alice).exists()  # failed, not gone
    finally:
        first.close()
        second.close()


def test_the_push_connects_to_the_address_that_was_checked(
    vapid: None, settings: Any, dns: FakeDNS, alice: Any, bob: Any, carol: Any
) -> None:
    """The name exists only in the checked answer: a second look-up would fail."""
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True
    service = PushService()
    try:
        port = service.server.server_address[1]
        dns["push.service.test"] = ["127.0.0.1"]
        browser = Browser()
        endpoint = f"http://push.service.test:{port}/push/device-1"
        services.push_subscription_save(
            user=alice, endpoint=endpoint, p256dh=browser.p256dh, auth=b64url(browser.auth)
        )
        note = turn_note(alice, bob, carol)
        assert services.send_push(note.pk) == 1
        headers, body = service.received[0]
        assert headers["host"] == f"push.service.test:{port}"
        assert browser.decrypt(body)["body"] == "Your turn in Friday table."
    finally:
        service.server.shutdown()
        service.server.server_close()


class Dripping:
    """Takes the request, then sends its answer one byte every 0.2 s, forever."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.answered = 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.recv(65536)
            self.answered += 1
            try:
                conn.sendall(b"HTTP/1.1 201 Created\r\n")
                while not self.stop.is_set():
                    conn.sendall(b"X")
                    time.sleep(0.2)
            except OSError:
                pass
            finally:
                conn.close()

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


def test_a_slow_push_service_is_given_up_after_the_time_limit(
    vapid: None, settings: Any, alice: Any, bob: Any, carol: Any
) -> None:
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True
    settings.WEB_PUSH_TIMEOUT = 1.0
    slow, fine = Dripping(), PushService()
    try:
        for endpoint in [f"http://127.0.0.1:{slow.port}/push", fine.url]:
            browser = Browser()
            services.push_subscription_save(
                user=alice, endpoint=endpoint, p256dh=browser.p256dh, auth=b64url(browser.auth)
            )
        note = turn_note(alice, bob, carol)
        started = time.monotonic()
        assert services.send_push(note.pk) == 1  # the slow one failed, the other went
        assert time.monotonic() - started < 6  # 1 s limit; without one it never ends
        assert slow.answered == 1
        assert len(fine.received) == 1
    finally:
        slow.close()
        fine.server.shutdown()
        fine.server.server_close()


# --------------------------------------------------------------------------- TLS when pinned


def _certificates(tmp_path: Path, name: str) -> tuple[Path, Path, Path]:
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test push CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    ca_file, cert_file, key_file = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return ca_file, cert_file, key_file


def test_a_pinned_https_push_still_checks_the_certificate_against_the_host_name(
    tmp_path: Path, settings: Any, dns: FakeDNS
) -> None:
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True  # the service is on loopback
    ca_file, cert_file, key_file = _certificates(tmp_path, "push.service.test")
    service = PushService()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    service.server.socket = context.wrap_socket(service.server.socket, server_side=True)
    port = service.server.server_address[1]
    dns["push.service.test"] = ["127.0.0.1"]
    dns["other.service.test"] = ["127.0.0.1"]
    try:
        url = f"https://push.service.test:{port}/push/device-1"
        with push_endpoints.pinned_session(url) as session:
            session.verify = str(ca_file)
            assert session.post(url, data=b"hello", timeout=5).status_code == 201
        assert service.received[0][1] == b"hello"

        wrong = f"https://other.service.test:{port}/push/device-1"
        with push_endpoints.pinned_session(wrong) as session:
            session.verify = str(ca_file)
            with pytest.raises(requests.exceptions.SSLError):
                session.post(wrong, data=b"hello", timeout=5)
        assert len(service.received) == 1
    finally:
        service.server.shutdown()
        service.server.server_close()


def test_a_pinned_session_only_goes_to_the_checked_url(settings: Any, dns: FakeDNS) -> None:
    settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS = True
    service = PushService()
    try:
        with (
            push_endpoints.pinned_session(service.url) as session,
            pytest.raises(push_endpoints.EndpointRefused),
        ):
            session.post("http://127.0.0.2:6390/", data=b"x")
        assert service.received == []
    finally:
        service.server.shutdown()
        service.server.server_close()
