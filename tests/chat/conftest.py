"""The chat tests' cast: alice (the owner, seat 0), bob and carol seated at a
live public table with a game under way, and oscar watching."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.games.conftest import full_table, game, open_table, players  # noqa: F401


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def say(
    client: Client,
    table_id: int,
    fields: dict[str, str] | None = None,
    *,
    htmx: bool = True,
    **more: str,
) -> Any:
    """Post to the table's chat as the chat's forms do (htmx unless told)."""
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/tables/{table_id}/chat/", {**(fields or {}), **more}, headers=headers)
