"""The admin log-in is rate-limited per client address and per user name."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client

from euchre_site.admin_site import TOO_MANY_LOGINS

pytestmark = pytest.mark.django_db

PASSWORD = "admin-pw-correct-horse"


@pytest.fixture(autouse=True)
def _admin_settings(settings: Any) -> None:
    settings.ADMIN_LOGIN_RATE = "3/h"


@pytest.fixture
def root(db: Any) -> Any:
    return get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)


def admin_login(client: Client, username: str, password: str) -> Any:
    return client.post("/admin/login/", {"username": username, "password": password})


def logged_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def test_guesses_from_one_address_are_limited(root: Any) -> None:
    client = Client(REMOTE_ADDR="198.51.100.1")
    for n in range(3):
        response = admin_login(client, f"guess{n}", "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = admin_login(client, "root", PASSWORD)  # even the right password
    assert response.status_code == 429
    assert TOO_MANY_LOGINS in response.content.decode()
    assert int(response["Retry-After"]) == 3600
    assert not logged_in(client)
    # A forged X-Forwarded-For is not another address (no trusted proxy).
    response = client.post(
        "/admin/login/",
        {"username": "root", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert response.status_code == 429
    assert client.get("/admin/login/").status_code == 200  # the page itself still shows
    # Someone else, elsewhere, logs in.
    other = Client(REMOTE_ADDR="198.51.100.2")
    assert admin_login(other, "root", PASSWORD).status_code == 302
    assert logged_in(other)


def test_guesses_at_one_user_name_are_limited_from_every_address(root: Any) -> None:
    for n in range(3):
        response = admin_login(Client(REMOTE_ADDR=f"198.51.100.{10 + n}"), "ROOT ", "wrong")
        assert response.status_code == 200
    client = Client(REMOTE_ADDR="198.51.100.20")
    response = admin_login(client, "root", PASSWORD)
    assert response.status_code == 429
    assert TOO_MANY_LOGINS in response.content.decode()
    assert not logged_in(client)
