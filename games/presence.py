"""Who has a table page open right now (their websocket is connected).

Used to hold back e-mail and push while a player is looking at the table, and
for the live tables' disconnect grace period. Counts open sockets per
(table, user) in the shared cache (Redis), so every web process sees them; a
count expires on its own if a process dies without saying goodbye.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def ttl() -> int:
    """A count not renewed by a heartbeat for this long is gone (its web process died)."""
    return int(max(60.0, 4 * settings.SOCKET_HEARTBEAT_SECONDS))


def _key(table_id: int | str, user_id: int | str) -> str:
    return f"presence:{table_id}:{user_id}"


def joined(table_id: int | str, user_id: int) -> None:
    """One more socket of this user on this table (and on the table at all).
    The table's total first, and in `left` last: a push reading both between the
    two steps must never see the total at or below the seated counts, or it
    would take the spectators for gone and skip their frame."""
    for key in (_key(table_id, "all"), _key(table_id, user_id)):
        cache.add(key, 0, ttl())
        cache.incr(key)
        cache.touch(key, ttl())


def left(table_id: int | str, user_id: int) -> None:
    for key in (_key(table_id, user_id), _key(table_id, "all")):
        try:
            if cache.decr(key) <= 0:
                cache.delete(key)
        except ValueError:  # already expired or never counted
            pass


def still_here(table_id: int | str, user_id: int) -> None:
    """A socket's heartbeat: its counts live on. If its user's count is gone
    (Redis lost its data, or the count expired) the socket counts itself again,
    in the table's total too, so spectators are seen again as well."""
    if cache.touch(_key(table_id, user_id), ttl()):
        cache.touch(_key(table_id, "all"), ttl())
    else:
        joined(table_id, user_id)


def watching(table_id: int, seated_user_ids: list[int]) -> tuple[set[int], bool]:
    """Which seated users have the table open, and whether anyone else (a
    spectator) does: a push is rendered only for viewers who are there.

    A socket counts itself before it reads its snapshot, so a move committed
    after that read always finds it here.
    """
    keys = {_key(table_id, u): u for u in seated_user_ids}
    counts = cache.get_many([*keys, _key(table_id, "all")])
    present = {u for k, u in keys.items() if counts.get(k, 0) > 0}
    seated = sum(counts.get(k, 0) for k in keys)
    return present, counts.get(_key(table_id, "all"), 0) > seated


def is_on_table_page(table_id: int, user_id: int) -> bool:
    """True while at least one of the user's sockets to this table is open."""
    return bool(cache.get(_key(table_id, user_id), 0))


# Every page of a signed-in player keeps the notifications socket open; it
# counts the player as on the site under this pseudo table id.
SITE = "site"


def online(user_ids: set[int]) -> set[int]:
    """Which of these players have a page of the site open now."""
    keys = {_key(SITE, u): u for u in user_ids}
    counts = cache.get_many(list(keys))
    return {u for k, u in keys.items() if counts.get(k, 0) > 0}
