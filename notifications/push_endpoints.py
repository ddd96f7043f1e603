"""Where the site may send a web push: public push services only (the SSRF guard).

A browser's push subscription names the URL that the worker will POST to, so
whoever registers one chooses a request made from inside the site's network.
Two doors:

- `check_endpoint(url)` at registration: an `https://` URL of at most
  `MAX_ENDPOINT_LENGTH` characters, without user-info, on port 443, whose host
  is a DNS name (at least two labels, the last starting with a letter; not
  `localhost`) or an IP literal, every address of which is public (`is_global`
  and none of loopback, private, link-local, multicast, reserved, unspecified,
  nor an IPv6 form that carries an IPv4 address: mapped, compatible, 6to4,
  Teredo, NAT64). Raises `EndpointRefused` whose message is for the user.
- `pinned_session(url)` at send time: the same checks on a fresh DNS answer,
  then a `requests` session (pywebpush's `requests_session`) that connects only
  to the addresses just checked (no second look-up, so a name cannot change
  between check and connection), verifies TLS against the host name, never
  follows a redirect (a 3xx is answered to pywebpush as it came: a failure),
  ignores proxy environment variables, reads at most `MAX_RESPONSE_BYTES` of
  the answer and gives up `settings.WEB_PUSH_TIMEOUT` seconds after it started,
  connection, TLS, request and answer together (a watchdog shuts the socket).

Only 443: every browser's push service (FCM, Mozilla, Apple, WNS) is there, and
it keeps the worker off other services of a public host.
`settings.WEB_PUSH_ALLOW_PRIVATE_HOSTS` (default False) lifts the address, port
and https rules, for a push service on this machine in tests; never in production.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.util import parse_url

MAX_ENDPOINT_LENGTH = 1000  # PushSubscription.endpoint's column
MAX_RESPONSE_BYTES = 64 * 1024  # a push service answers with a few bytes

# The refusals, for the user: lazy, so str() speaks the language active then.
NOT_A_URL = _("The push endpoint is not a valid URL.")
NOT_HTTPS = _("The push endpoint must be an https:// URL.")
USER_INFO = _("The push endpoint must not contain a user name or password.")
NOT_443 = _("The push endpoint must use the standard https port (443).")
NOT_PUBLIC = _("The push endpoint's host is not a public Internet address.")
NO_ADDRESS = _("The push endpoint's host name could not be looked up.")


def _too_long() -> str:
    return gettext("The push endpoint is too long (at most %(count)d characters).") % {
        "count": MAX_ENDPOINT_LENGTH
    }


TOO_LONG = lazy(_too_long, str)()

# RFC 3986's characters only: no spaces, backslashes, quotes or non-ASCII that
# one URL parser reads differently from another.
_URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_PUBLIC_NAME = re.compile(rf"(?:{_LABEL}\.)+[a-z](?:[a-z0-9-]{{0,61}}[a-z0-9])?")
_ANY_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_DEFAULT_PORTS = {"https": 443, "http": 80}
_EMBEDS_IPV4 = [
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (deprecated)
    ipaddress.IPv6Network("64:ff9b::/96"),  # NAT64 well-known prefix
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # NAT64 local-use
]

# (socket family, sockaddr) as socket.getaddrinfo gives them (typeshed's sockaddr).
SockAddr = tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes]
Address = tuple[int, SockAddr]


class EndpointRefused(ValueError):
    """Not a push endpoint the site sends to; str() is a sentence for the user.

    `permanent` is False when only the DNS look-up failed (it may work later).
    """

    def __init__(self, message: str | Promise, *, permanent: bool = True) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str
    host: str  # lower case, IPv6 without brackets
    port: int
    addresses: tuple[Address, ...]  # every one checked


def allow_private_hosts() -> bool:
    return bool(getattr(settings, "WEB_PUSH_ALLOW_PRIVATE_HOSTS", False))


def is_public_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.scope_id or ip.ipv4_mapped or ip.sixtofour or ip.teredo or ip.is_site_local:
            return False
        if any(ip in net for net in _EMBEDS_IPV4):
            return False
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def check_endpoint(url: object) -> Endpoint:
    """The endpoint with its checked addresses, or EndpointRefused (see the module)."""
    scheme, host, port = _check_url(url)
    assert isinstance(url, str)
    return Endpoint(url, scheme, host, port, _checked_addresses(host, port))


def _check_url(url: object) -> tuple[str, str, int]:
    if not isinstance(url, str) or not url:
        raise EndpointRefused(NOT_A_URL)
    if len(url) > MAX_ENDPOINT_LENGTH:
        raise EndpointRefused(TOO_LONG)
    if not _URL_CHARS.fullmatch(url):
        raise EndpointRefused(NOT_A_URL)
    try:
        parts = urlsplit(url)
        explicit_port = parts.port
    except ValueError:
        raise EndpointRefused(NOT_A_URL) from None
    allow_private = allow_private_hosts()
    scheme = parts.scheme.lower()
    if scheme != "https" and not (allow_private and scheme == "http"):
        raise EndpointRefused(NOT_HTTPS)
    if "@" in parts.netloc:
        raise EndpointRefused(USER_INFO)
    host = (parts.hostname or "").lower()
    if not host:
        raise EndpointRefused(NOT_A_URL)
    port = explicit_port if explicit_port is not None else _DEFAULT_PORTS[scheme]
    if port != 443 and not allow_private:
        raise EndpointRefused(NOT_443)
    ip = _ip_literal(host)
    if ip is None:
        if parts.netloc.startswith("["):
            raise EndpointRefused(NOT_A_URL)
        if len(host) > 253 or not _ANY_NAME.fullmatch(host):
            raise EndpointRefused(NOT_A_URL)
        # One label ("localhost", "redis", "0x7f000001"), an all-numeric last
        # label ("127.1", "2130706433.") or *.localhost: never a public name.
        public_name = _PUBLIC_NAME.fullmatch(host) and not (
            host == "localhost" or host.endswith(".localhost")
        )
        if not public_name and not allow_private:
            raise EndpointRefused(NOT_PUBLIC)
    elif not allow_private and not is_public_address(ip):
        raise EndpointRefused(NOT_PUBLIC)
    return scheme, host, port


def _ip_literal(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)  # strict: "0x7f000001" or "127.1" are not
    except ValueError:
        return None


def resolve(host: str, port: int) -> list[Address]:
    """Every TCP address of `host` (an IP literal is not looked up)."""
    flags = socket.AI_NUMERICHOST if _ip_literal(host) is not None else 0
    infos = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=flags
    )
    return [
        (family, sockaddr)
        for family, _, _, _, sockaddr in infos
        if family in (socket.AF_INET, socket.AF_INET6)
    ]


def _checked_addresses(host: str, port: int) -> tuple[Address, ...]:
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError):
        raise EndpointRefused(NO_ADDRESS, permanent=False) from None
    if not addresses:
        raise EndpointRefused(NO_ADDRESS, permanent=False)
    if not allow_private_hosts():
        for _, sockaddr in addresses:
            ip = _ip_literal(str(sockaddr[0]))
            if ip is None or not is_public_address(ip):
                raise EndpointRefused(NOT_PUBLIC)
    unique: dict[Address, None] = dict.fromkeys(addresses)
    return tuple(unique)


# --------------------------------------------------------------------------- sending


@contextmanager
def pinned_session(url: str) -> Iterator[requests.Session]:
    """A session for one push to `url`, checked now (raises EndpointRefused); see the module."""
    endpoint = check_endpoint(url)
    session = _PushSession(endpoint, float(getattr(settings, "WEB_PUSH_TIMEOUT", 10.0)))
    try:
        yield session
    finally:
        session.close()


class _Deadline:
    """Shuts the request's sockets down when its time is up, wherever it waits."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._end = 0.0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []  # duplicates, closed by finish()
        self._timer: threading.Timer | None = None

    def start(self) -> None:
        self._end = time.monotonic() + self.seconds
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        left = self._end - time.monotonic()
        if left <= 0 or self.expired:
            raise requests.Timeout(f"no answer within {self.seconds:g} s")
        return left

    def watch(self, sock: socket.socket) -> None:
        # A duplicate descriptor of the same connection: shutting it down wakes a
        # read blocked on the original, even after TLS has wrapped (detached) it.
        with self._lock:
            self._sockets.append(sock.dup())

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def finish(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


def _connect(conn: HTTPConnection, endpoint: Endpoint, deadline: _Deadline) -> socket.socket:
    """Open the TCP connection to one of the checked addresses: no DNS here."""
    error: OSError | None = None
    for family, sockaddr in endpoint.addresses:
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            for option in conn.socket_options or ():
                sock.setsockopt(*option)
            sock.settimeout(min(deadline.remaining(), 5.0))
            sock.connect(sockaddr)
        except OSError as exc:
            sock.close()
            error = exc
            continue
        deadline.watch(sock)
        return sock
    raise NewConnectionError(conn, f"Failed to establish a new connection: {error}")


def _pool_classes(endpoint: Endpoint, deadline: _Deadline) -> dict[str, type[HTTPConnectionPool]]:
    class PinnedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _connect(self, endpoint, deadline)

    class PinnedHTTPSConnection(HTTPSConnection):
        # TLS still checks the certificate against the URL's host name.
        def _new_conn(self) -> socket.socket:
            return _connect(self, endpoint, deadline)

    class PinnedHTTPConnectionPool(HTTPConnectionPool):
        ConnectionCls = PinnedHTTPConnection

    class PinnedHTTPSConnectionPool(HTTPSConnectionPool):
        ConnectionCls = PinnedHTTPSConnection

    return {"http": PinnedHTTPConnectionPool, "https": PinnedHTTPSConnectionPool}


class _PinnedAdapter(HTTPAdapter):
    def __init__(self, endpoint: Endpoint, deadline: _Deadline) -> None:
        self._endpoint = endpoint
        self._deadline = deadline
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = _pool_classes(self._endpoint, self._deadline)

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: dict[str, str] | None = None,
    ) -> requests.Response:
        target = parse_url(request.url or "")
        scheme = (target.scheme or "").lower()
        where = (scheme, (target.host or "").strip("[]").lower(), target.port)
        expected = (self._endpoint.scheme, self._endpoint.host, self._endpoint.port)
        if where[2] is None:
            where = (where[0], where[1], _DEFAULT_PORTS.get(scheme))
        if where != expected:
            raise EndpointRefused(NOT_PUBLIC)  # only the URL that was checked
        deadline = self._deadline
        deadline.start()
        try:
            left = deadline.remaining()
            response = super().send(
                request,
                stream=True,
                timeout=(min(left, 5.0), left),
                verify=verify,
                cert=cert,
                proxies={},
            )
            try:
                body = _read_capped(response, deadline)
            finally:
                response.close()
            if deadline.expired:
                raise requests.Timeout(f"no answer within {deadline.seconds:g} s")
            # What `response.content` would have read, up to the cap.
            response._content = body
            response._content_consumed = True
            return response
        except requests.RequestException:
            if deadline.expired:
                raise requests.Timeout(f"no answer within {deadline.seconds:g} s") from None
            raise
        finally:
            deadline.finish()


def _read_capped(response: requests.Response, deadline: _Deadline) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.raw.stream(8192, decode_content=False):
        chunks.append(chunk[: MAX_RESPONSE_BYTES - size])
        size += len(chunks[-1])
        if size >= MAX_RESPONSE_BYTES or deadline.expired:
            break
    return b"".join(chunks)


class _PushSession(requests.Session):
    """One push: pinned addresses, no redirects, no proxies from the environment."""

    def __init__(self, endpoint: Endpoint, seconds: float) -> None:
        super().__init__()
        self.trust_env = False
        adapter = _PinnedAdapter(endpoint, _Deadline(seconds))
        self.adapters.clear()
        self.mount("https://", adapter)
        self.mount("http://", adapter)

    def get_redirect_target(self, resp: requests.Response) -> None:
        return None  # a redirect is never followed, whatever the caller asks

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().send(request, **kwargs)
