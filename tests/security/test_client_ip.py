"""The client's address: X-Forwarded-For is believed only from TRUSTED_PROXIES,
read from the right, so a forged header does not dodge the IP rate limits."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
import requests
from asgiref.sync import async_to_sync
from django.test import Client

from euchre_site.client_ip import client_address
from tests.games.wsclient import communicator

from .conftest import ROOT, Daphne

LIMITED = "Too many failed login attempts"


def fail_login(client: Client, n: int, forwarded: str) -> str:
    """A wrong password for a user name not tried before (allauth also limits per name)."""
    response = client.post(
        "/accounts/login/",
        {"login": f"nobody{n}", "password": "not-the-password"},
        HTTP_X_FORWARDED_FOR=forwarded,
    )
    assert response.status_code == 200
    return response.content.decode()


# --------------------------------------------------------------------------- daphne as run


def test_no_procfile_lets_daphne_believe_x_forwarded_for() -> None:
    for name in ("Procfile", "Procfile.scaled", "tests/scaled/stack.py"):
        assert "--proxy-headers" not in (ROOT / name).read_text(), name


def test_a_forged_x_forwarded_for_does_not_dodge_a_rate_limit_on_the_procfile_daphne(
    procfile_web: Daphne,
) -> None:
    """allauth allows 20 password-reset requests a minute per address; every
    request below claims another address, yet the 21st is refused."""
    session = requests.Session()
    page = session.get(f"{procfile_web.url}/accounts/password/reset/", timeout=10)
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert match, page.text[:500]

    def reset(n: int, forwarded: str) -> requests.Response:
        return session.post(
            f"{procfile_web.url}/accounts/password/reset/",
            data={"email": f"nobody{n}@example.com", "csrfmiddlewaretoken": match.group(1)},
            headers={"X-Forwarded-For": forwarded},
            allow_redirects=False,
            timeout=10,
        )

    for n in range(20):
        assert reset(n, f"198.51.100.{n + 1}").status_code == 302
    assert reset(99, "203.0.113.99").status_code == 429


# --------------------------------------------------------------------------- HTTP, in process


@pytest.mark.django_db
def test_without_a_trusted_proxy_the_header_is_ignored(settings: Any) -> None:
    settings.TRUSTED_PROXIES = []
    client = Client(REMOTE_ADDR="203.0.113.5")
    for n in range(10):
        assert LIMITED not in fail_login(client, n, f"198.51.100.{n + 1}")
    assert LIMITED in fail_login(client, 10, "192.0.2.200")
    # Another peer is another client.
    assert LIMITED not in fail_login(Client(REMOTE_ADDR="203.0.113.6"), 11, "203.0.113.5")


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_right_most_untrusted_address_is_the_client(
    settings: Any,
) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    # Two trusted hops; what the client wrote itself (left of its address) changes each time.
    for n in range(10):
        page = fail_login(proxy, n, f"198.51.100.{n + 1}, 192.0.2.7, 10.0.0.9")
        assert LIMITED not in page
    assert LIMITED in fail_login(proxy, 10, "1.2.3.4, 5.6.7.8, 192.0.2.7, 10.0.0.9")
    # Another client behind the same proxies is not limited.
    assert LIMITED not in fail_login(proxy, 11, "192.0.2.8, 10.0.0.9")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded", "client"),
    [
        ([], "192.0.2.1", "198.51.100.1", "192.0.2.1"),
        (["10.0.0.1"], "10.0.0.1", "", "10.0.0.1"),
        (["10.0.0.1"], "10.0.0.1", "198.51.100.1, 198.51.100.2", "198.51.100.2"),
        (["10.0.0.1"], "10.0.0.2", "198.51.100.1", "10.0.0.2"),  # not the trusted one
        (["10.0.0.0/8", "::1"], "::1", "198.51.100.1,10.1.1.1 , 10.2.2.2", "198.51.100.1"),
        (["10.0.0.0/8"], "10.0.0.1", "10.0.0.3, 10.0.0.4", "10.0.0.3"),  # all trusted
        # Malformed: the walk stops, the trusted hop that passed it on is the client.
        (["10.0.0.1"], "10.0.0.1", "198.51.100.1, unknown", "10.0.0.1"),
        (["10.0.0.0/8"], "10.0.0.1", "198.51.100.1, bogus, 10.0.0.7", "10.0.0.7"),
        # Ports, brackets, IPv6 and IPv4-mapped IPv6.
        (["10.0.0.1"], "10.0.0.1", "198.51.100.4:5555", "198.51.100.4"),
        (["10.0.0.1"], "10.0.0.1", "[2001:db8::5]:443", "2001:db8::5"),
        (["10.0.0.1"], "::ffff:10.0.0.1", "2001:db8::6", "2001:db8::6"),
    ],
)
def test_the_address_every_view_sees(
    settings: Any, trusted: list[str], peer: str, forwarded: str, client: str
) -> None:
    settings.TRUSTED_PROXIES = trusted
    headers: dict[str, Any] = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    response = Client(REMOTE_ADDR=peer).get("/accounts/login/", **headers)
    assert response.wsgi_request.META["REMOTE_ADDR"] == client
    assert client_address(peer, [forwarded] if forwarded else []) == client


# --------------------------------------------------------------------------- websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("trusted", "client"), [([], "10.0.0.1"), (["10.0.0.1"], "198.51.100.20")])
def test_a_websocket_sees_the_same_client_address(
    settings: Any, caplog: Any, alice: Any, trusted: list[str], client: str
) -> None:
    """The guards log the client of a refused socket: a forged left entry never shows."""
    settings.TRUSTED_PROXIES = trusted
    ws = communicator("/ws/lobby/", alice, origin=b"http://127.0.0.1:9999")
    ws.scope["client"] = ["10.0.0.1", 40000]
    ws.scope["headers"].append((b"x-forwarded-for", b"6.6.6.6, 198.51.100.20"))

    async def run() -> None:
        connected, _ = await ws.connect()
        assert not connected
        await ws.disconnect()

    with caplog.at_level(logging.WARNING, logger="euchre_site.ws_guard"):
        async_to_sync(run)()
    assert f"(client {client})" in caplog.text
    assert "6.6.6.6" not in caplog.text
