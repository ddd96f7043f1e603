"""Pushes to a user's own sockets: group `user.<id>.notifications` on every page."""

from __future__ import annotations

from euchre_site.push import send, user_group

__all__ = ["send_to_user", "user_group"]


def send_to_user(user_id: int, html: str) -> None:
    """Best effort: the badge is sent whole again on the next change and on reconnect."""
    send([(user_group(user_id), {"type": "html.frame", "html": html})])
