"""Who has a table page open right now (their websocket is connected).

Used to hold back e-mail and push while a player is looking at the table, and
for the live tables' disconnect grace period. Counts open sockets per
(table, user) in the shared cache (Redis), so every web process sees them; a
count expires on its own if a process dies without saying goodbye.
"""

from __future__ import annotations

from django.core.cache import cache

TTL_SECONDS = 6 * 3600


def _key(table_id: int, user_id: int) -> str:
    return f"presence:{table_id}:{user_id}"


def joined(table_id: int, user_id: int) -> None:
    key = _key(table_id, user_id)
    cache.add(key, 0, TTL_SECONDS)
    cache.incr(key)
    cache.touch(key, TTL_SECONDS)


def left(table_id: int, user_id: int) -> None:
    key = _key(table_id, user_id)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # already expired or never counted
        pass


def is_on_table_page(table_id: int, user_id: int) -> bool:
    """True while at least one of the user's sockets to this table is open."""
    return bool(cache.get(_key(table_id, user_id), 0))
