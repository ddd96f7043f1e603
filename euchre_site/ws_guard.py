"""Guards in front of the websocket consumers (ASGI middleware, see asgi.py).

``OriginValidator``: a socket is accepted only from a page of this site. The
handshake's Origin must equal the site's own origin as the request reached it
(scheme from ws/wss or a trusted proxy's X-Forwarded-Proto, host *and port*
from the Host header, which must be in ALLOWED_HOSTS), or match an entry of
CSRF_TRUSTED_ORIGINS (the same rule as Django's CSRF check). A missing or
"null" Origin is refused. channels' AllowedHostsOriginValidator compared host
names only, so a page on another port of the same host could open sockets.

``SocketLimitMiddleware``: at most ``settings.WEBSOCKETS_PER_USER`` sockets
open at once per signed-in user, across every web process. Each socket is a
member of a per-user sorted set in Redis scored by the Redis server's clock
when last seen; the socket renews its score every SOCKET_HEARTBEAT_SECONDS,
and members not renewed for three heartbeats (a web process that died without
closing its sockets) are pruned before counting. Reserving is one Lua script,
so two processes cannot both take the last place.

Both refuse in the handshake (the socket is closed before it is accepted,
daphne answers 403): the Origin check with close code 4403, the limit with
4429 (both codes are seen by ASGI test clients; a browser sees 1006, and the
htmx ws extension retries 1006 with a growing delay, so a tab over the limit
connects by itself once another tab of that user closes).
"""

from __future__ import annotations

import asyncio
import logging
import math
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypedDict
from urllib.parse import urlsplit

import redis
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain
from redis.commands.core import Script

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

log = logging.getLogger(__name__)

ORIGIN_REFUSED = 4403
TOO_MANY_SOCKETS = 4429
DEFAULT_PORTS = {"http": 80, "https": 443}


class Scope(TypedDict, total=False):
    """The keys of an ASGI scope these guards read: the server's, and the
    user channels' AuthMiddlewareStack adds (asgiref.typing's scopes lack it)."""

    type: str
    scheme: str
    headers: Iterable[tuple[bytes, bytes]]
    client: Sequence[object] | None  # (host, port); client_ip makes it [address, 0]
    peer_client: Sequence[object] | None  # the direct peer, when client_ip replaced it
    user: AbstractBaseUser | AnonymousUser


# An ASGI event (websocket.connect, websocket.close, ...): a mapping with its "type".
Event = Mapping[str, object]
Receive = Callable[[], Awaitable[Event]]
Send = Callable[[Event], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def _refuse(receive: Receive, send: Send, code: int) -> None:
    """Close before accepting: the handshake is refused."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": code})


# --------------------------------------------------------------------------- origin


def origin_tuple(origin: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin such as ``https://example.com:8443``,
    the default port filled in; None if it is not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return scheme, parts.hostname.lower().rstrip("."), port or DEFAULT_PORTS[scheme]


def allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # as Django's HttpRequest.get_host()
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def own_origin(scope: Scope) -> tuple[str, str, int] | None:
    """The site's origin as this handshake reached it; None if its Host is not
    one of ALLOWED_HOSTS (then nothing is accepted, as Django does for HTTP)."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, allowed_hosts()):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin_tuple(f"{scheme}://{domain}{':' + port if port else ''}")


def origin_allowed(scope: Scope) -> bool:
    origin = _header(scope, b"origin")
    if not origin:
        return False
    wanted = origin_tuple(origin)
    own = own_origin(scope)
    if wanted is None or own is None:
        return False
    if wanted == own:
        return True
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" not in trusted:
            if origin_tuple(trusted) == wanted:
                return True
            continue
        # "https://*.example.com" allows every subdomain (Django's CSRF rule).
        parts = urlsplit(trusted)
        netloc = urlsplit(origin.strip()).netloc.lower()
        if parts.scheme.lower() == wanted[0] and is_same_domain(netloc, parts.netloc[1:]):
            return True
    return False


class OriginValidator:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            log.warning(
                "websocket refused: origin %r for host %r (client %s)",
                _header(scope, b"origin"),
                _header(scope, b"host"),
                _client(scope),
            )
            return await _refuse(receive, send, ORIGIN_REFUSED)
        return await self.app(scope, receive, send)


# --------------------------------------------------------------------------- per-user limit

# KEYS[1]: the user's set; ARGV: socket id, limit, stale seconds, key TTL seconds.
_RESERVE = """
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  redis.call('EXPIRE', KEYS[1], ARGV[4])
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

# A heartbeat renews (or, if Redis lost it, re-adds) the socket.
_RENEW = """
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) + tonumber(t[2]) / 1000000, ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


@lru_cache(maxsize=4)
def _redis(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_timeout=5, socket_connect_timeout=3, health_check_interval=30
    )


@lru_cache(maxsize=8)
def _script(url: str, source: str) -> Script:
    return _redis(url).register_script(source)


def redis_client() -> redis.Redis:
    """The Redis of the cache and channel layer (settings.REDIS_URL)."""
    return _redis(str(settings.REDIS_URL))


def sockets_key(user_id: int | str) -> str:
    return f"euchre:ws-sockets:{user_id}"


def stale_after() -> float:
    """A socket not renewed for this long no longer counts (its process died)."""
    return 3 * float(settings.SOCKET_HEARTBEAT_SECONDS)


def _key_ttl() -> int:
    return math.ceil(2 * stale_after()) + 1


def reserve(user_id: int, socket_id: str) -> bool:
    limit = int(settings.WEBSOCKETS_PER_USER)
    taken = _script(str(settings.REDIS_URL), _RESERVE)(
        keys=[sockets_key(user_id)], args=[socket_id, limit, stale_after(), _key_ttl()]
    )
    return bool(taken)


def renew(user_id: int, socket_id: str) -> None:
    _script(str(settings.REDIS_URL), _RENEW)(
        keys=[sockets_key(user_id)], args=[socket_id, _key_ttl()]
    )


def release(user_id: int, socket_id: str) -> None:
    redis_client().zrem(sockets_key(user_id), socket_id)


def open_sockets(user_id: int) -> int:
    """How many sockets of this user count now (stale ones excluded)."""
    client = redis_client()
    seconds, micros = client.time()
    now = seconds + micros / 1_000_000
    return int(client.zcount(sockets_key(user_id), now - stale_after(), "+inf"))


class SocketLimitMiddleware:
    """Inside AuthMiddlewareStack (it needs ``scope["user"]``); anonymous
    sockets pass through (the consumers refuse them)."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = scope.get("user")
        if scope["type"] != "websocket" or user is None or not user.is_authenticated:
            return await self.app(scope, receive, send)
        first = await receive()
        pending = [first]

        async def receive_again() -> Event:
            return pending.pop() if pending else await receive()

        if first["type"] != "websocket.connect":  # gone before connecting
            return await self.app(scope, receive_again, send)
        user_id = user.pk
        socket_id = uuid.uuid4().hex
        try:
            allowed = await asyncio.to_thread(reserve, user_id, socket_id)
        except (redis.RedisError, OSError):
            # Redis away: let the socket in; its heartbeat counts it once Redis is back.
            log.warning("websocket limit not checked: Redis unavailable", exc_info=True)
            allowed = True
        if not allowed:
            log.warning(
                "websocket refused: user %s has %s sockets open (client %s)",
                user_id,
                settings.WEBSOCKETS_PER_USER,
                _client(scope),
            )
            await send({"type": "websocket.close", "code": TOO_MANY_SOCKETS})
            return None
        heartbeat = asyncio.create_task(self._heartbeat(user_id, socket_id))
        try:
            return await self.app(scope, receive_again, send)
        finally:
            heartbeat.cancel()
            try:
                await asyncio.to_thread(release, user_id, socket_id)
            except (redis.RedisError, OSError):
                log.warning("websocket slot not released (it expires)", exc_info=True)

    @staticmethod
    async def _heartbeat(user_id: int, socket_id: str) -> None:
        while True:
            await asyncio.sleep(float(settings.SOCKET_HEARTBEAT_SECONDS))
            try:
                await asyncio.to_thread(renew, user_id, socket_id)
            except (redis.RedisError, OSError):
                log.warning("websocket slot not renewed: Redis unavailable", exc_info=True)
