"""The client's address, worked out in one place for HTTP and websockets.

The direct peer (REMOTE_ADDR, the ASGI scope's ``client``) is the client,
unless it is one of ``settings.TRUSTED_PROXIES`` (IP addresses or CIDR
networks). Only then is ``X-Forwarded-For`` read, from the right: each proxy
appends the address it received the request from, so the entries a client
wrote itself are on the left and cannot be trusted. Trusted proxies are
skipped; the right-most address that is not a trusted proxy is the client.

A malformed entry (not an IP address; a port is allowed, as some proxies add
one) ends the walk: the client is then the last trusted hop, i.e. the proxy
that passed the malformed entry on (or the peer itself). If every entry is a
trusted proxy, the left-most one is the client. ``Forwarded`` (RFC 7239) is
not read.

``ClientIPMiddleware`` (first in MIDDLEWARE) writes the result to
``request.META["REMOTE_ADDR"]``, so django-ratelimit's ``key="ip"``,
allauth's rate limits (its ALLAUTH_TRUSTED_PROXY_COUNT is 0, so it reads
REMOTE_ADDR) and logging all count the same address. ``ClientAddressMiddleware``
does the same for websockets (``scope["client"]``) and takes the scheme
(ws/wss) from a trusted proxy's ``X-Forwarded-Proto``. daphne must run
without ``--proxy-headers``, which believes the header's first entry.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponseBase

if TYPE_CHECKING:
    from .ws_guard import App, Receive, Scope, Send

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# The next handler of the middleware chain: sync, or async under ASGI.
GetResponse = Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    networks = []
    for entry in entries:
        entry = entry.strip()
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {entry!r} is not an IP address or network"
            ) from exc
    return tuple(networks)


def trusted_networks() -> tuple[Network, ...]:
    value = getattr(settings, "TRUSTED_PROXIES", ()) or ()
    if isinstance(value, str):
        value = value.split(",")
    return _networks(tuple(value))


def parse_address(text: str) -> Address | None:
    """An address as proxies write it: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1``,
    ``[::1]`` or ``[::1]:5678``. IPv4-mapped IPv6 is read as IPv4. None if malformed."""
    text = text.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        text = text[1:end]
    elif text.count(":") == 1:  # IPv4 with a port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted(address: Address | None, networks: Iterable[Network] | None = None) -> bool:
    if address is None:
        return False
    return any(address in net for net in (trusted_networks() if networks is None else networks))


def peer_is_trusted(peer: str | None) -> bool:
    return bool(peer) and is_trusted(parse_address(peer or ""))


def client_address(peer: str | None, forwarded_for: Iterable[str]) -> str | None:
    """The client's address given the direct peer and the X-Forwarded-For
    header values (in the order received; each may hold a comma-separated list)."""
    networks = trusted_networks()
    hop = parse_address(peer) if peer else None
    if hop is None or not is_trusted(hop, networks):
        return peer  # not a proxy of ours: whatever it says is ignored
    entries = [e for value in forwarded_for for e in value.split(",")]
    for entry in reversed(entries):
        if not entry.strip():
            continue
        address = parse_address(entry)
        if address is None:
            break  # garbage: the trusted hop that passed it on is the client
        hop = address
        if not is_trusted(address, networks):
            break
    return str(hop)


def forwarded_proto(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The first value of X-Forwarded-Proto (like Django's SECURE_PROXY_SSL_HEADER)."""
    for name, value in headers:
        if name.lower() == b"x-forwarded-proto":
            return value.decode("latin-1").split(",", 1)[0].strip().lower()
    return None


def set_client_address(request: HttpRequest) -> None:
    """REMOTE_ADDR becomes the client's address; the peer's stays in EUCHRE_PEER_ADDR."""
    peer = request.META.get("REMOTE_ADDR")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    address = client_address(peer, [forwarded] if forwarded else [])
    request.META["EUCHRE_PEER_ADDR"] = peer
    if address is not None:
        request.META["REMOTE_ADDR"] = address


class ClientIPMiddleware:
    """Django middleware, first in MIDDLEWARE (see the module's docstring)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self.__acall__(request)
        set_client_address(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        set_client_address(request)
        return await cast(Awaitable[HttpResponseBase], self.get_response(request))


class ClientAddressMiddleware:
    """ASGI middleware for websockets: ``scope["client"]`` becomes the client's
    address, and ``scope["scheme"]`` follows a trusted proxy's X-Forwarded-Proto
    (so the origin check knows the page's scheme); the peer stays in
    ``scope["peer_client"]``."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        peer = str(client[0]) if client else None
        if peer_is_trusted(peer):
            headers = scope.get("headers") or []
            forwarded = [v.decode("latin-1") for n, v in headers if n.lower() == b"x-forwarded-for"]
            address = client_address(peer, forwarded)
            scope = {**scope, "peer_client": client}
            if address != peer:
                scope["client"] = [address, 0]
            proto = forwarded_proto(headers)
            if proto in ("http", "https"):
                secure = proto == "https"
                if scope["type"] == "websocket":
                    scope["scheme"] = "wss" if secure else "ws"
                else:
                    scope["scheme"] = proto
        return await self.app(scope, receive, send)
