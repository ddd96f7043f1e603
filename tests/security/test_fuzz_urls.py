"""Every URL of the site, fuzzed: hostile path values, query strings and bodies.

The URL patterns are walked from `get_resolver()` (the site's, allauth's and
the admin's), so a new view is fuzzed without touching this file. Each path
parameter is filled with values of its converter's kind (huge and real ids for
`<int:...>`; unicode, long strings, `..` and raw percent-escapes for the
others), each request signed in as a player seated at a game in progress, as a
staff member, or as nobody, with CSRF checks off (the test client's default),
so the views themselves are reached. Query parameter and form field names are
the ones the code reads (`GET.get(...)`, `POST.get(...)`, `FILES.get(...)`,
the forms' fields), found in the source when the tests load.

Two promises are checked for every request:

1. no 5xx answer: an exception out of a view (the test client re-raises it)
   and a 5xx status both count;
2. no change to the stored games: the fixture's `Game` rows (id, version,
   scores, status) and `Hand` rows (id, record, result) are the same after the
   request, except for the two requests that legitimately change them (a legal
   move, and handing one's seat to a bot or taking it back: `legit_change`).

Every request runs in a savepoint that is rolled back, so all examples start
from the same stored state, and the cache (rate-limit counters) is cleared
between the Hypothesis examples so that the rate limits do not hide the views.

The tests: a deterministic sweep (every pattern with each kind of path value,
and for the site's own views every hostile value class in every parameter and
every hostile JSON body, so each known class of bug is always tried); then
Hypothesis, for each pattern in turn, and for the move endpoint and the record
import (the real move and the real record, spoiled); derandomized, without
shrinking, so a run is reproducible and as quick failing as passing.

`KNOWN_500` lists the 5xx answers that are already known and whose fix belongs
to code this file's author could not change; the fuzz tolerates exactly those
inputs, and `test_known_500_still_fails` shows each one (strict xfail): when a
fix lands it XPASSes, and its entry must go. Some fail on PostgreSQL only (a
NUL in a query): run the file with DATABASE_URL=postgres://... to fuzz there.
"""

from __future__ import annotations

import base64
import copy
import functools
import inspect
import json
import math
import re
import socket
import time
import traceback
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django import forms
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import URLResolver, get_resolver, resolve
from django.urls.resolvers import RegexPattern, RoutePattern
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

ROOT = Path(__file__).resolve().parents[2]
SITE_PACKAGES = ("accounts", "chat", "daily", "euchre_site", "games", "notifications", "stats")
User = get_user_model()

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- hostile values


class Long(str):
    """A long hostile string that prints short in Hypothesis's reports."""

    def __repr__(self) -> str:
        text = str.__str__(self)
        return f"Long({text[:16]!r}…{text[-8:]!r}, {len(text)} chars)"


class Raw(str):
    """A path segment or query fragment sent as it is (already percent-encoded)."""

    def __repr__(self) -> str:
        return f"Raw({str.__str__(self)!r})"


MB = 1_000_000
DEEP = 100_000
BIG = Long("x" * MB)
BIG_UNICODE = Long("é²٣🂡" * (MB // 4))

# Values for query parameters, form fields and str-like path segments (decoded text).
HOSTILE_TEXT: list[str] = [
    "²",
    "٣",
    "١",
    "99999999999999999999999",
    "9223372036854775808",
    "-1",
    "0",
    "1",
    "-0",
    "+1",
    "1_0",
    " 7 ",
    "0x10",
    "1.5",
    "NaN",
    "nan",
    "-Infinity",
    "Infinity",
    "1e309",
    "[]",
    "{}",
    "\x00",
    "a\x00b",
    "",
    " ",
    "null",
    "true",
    "..",
    "../../../etc/passwd",
    "%00",
    "%2e%2e%2f",
    "%ff",
    "<script>alert(1)</script>",
    "' OR '1'='1",
    "\u202e",
    "\ufeff",
    "🂡",
    "é",
    "\r\nSet-Cookie: x=1",
    "javascript:alert(1)",
    "//evil.example",
    "https://evil.example/",
    Long("9" * 4301),
    Long("a" * 10_000),
    BIG,
    BIG_UNICODE,
]
# Values for <int:...> segments (the converter only matches ASCII digits; the
# others must be refused by the resolver, a 404).
HOSTILE_INTS: list[str] = [
    "0",
    "1",
    "2",
    "00",
    "007",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    Long("9" * 4301),
    "-1",
    "²",
    "٣",
]
# Segments sent as they are: percent-escapes the client decodes to bytes.
RAW_SEGMENTS = [
    Raw(s) for s in ("%ff", "%2e%2e", "..", ".", "%00", "%C0%AF", "%25", "%", "%zz", "%E2%80%AE")
]
RAW_QUERIES = [
    Raw(s)
    for s in (
        "%ff=%ff",
        "a=%",
        "&&&",
        "=x",
        "game=%C2%B2",
        "step=%00",
        ";;",
        "page=%ff%fe",
        "%00=1",
    )
]

NAN, INF = math.nan, math.inf
# Hostile JSON values, for records and moves.
HOSTILE_JSON: list[Any] = [
    NAN,
    INF,
    -INF,
    10**23,
    2**63,
    -1,
    0,
    3,
    1.5,
    "²",
    "٣",
    "",
    "NaN",
    [],
    {},
    None,
    True,
    False,
    [[[[[[[[[[[[]]]]]]]]]]]],
    Long("x" * 10_000),
    {"seat": 0, "type": "play"},
    "\ud800",  # half of a surrogate pair: json.loads accepts "\ud800"
    "a\x00b",
]
DELETE = object()  # a record mutation that removes the key or item

# Raw JSON texts: deep nesting, NaN and Infinity literals, wrong types, missing
# fields, huge strings and numbers.
P256DH = base64.urlsafe_b64encode(b"\x04" + b"\x01" * 64).rstrip(b"=").decode()
AUTH = base64.urlsafe_b64encode(b"\x02" * 16).rstrip(b"=").decode()
JSON_TEXTS: list[str] = [
    Long("[" * DEEP),
    Long('{"a":' * DEEP),
    Long("[" * DEEP + "]" * DEEP),
    Long('{"a":' * DEEP + "0" + "}" * DEEP),
    Long('{"endpoint": "https://push.example.com/x", "keys": ' + "[" * DEEP + "]" * DEEP + "}"),
    "[" * 300 + "]" * 300,
    "NaN",
    "-Infinity",
    "[NaN]",
    '{"x": Infinity}',
    "1e309",
    Long("1" + "0" * 5000),
    "[]",
    "{}",
    '""',
    "null",
    "true",
    "0",
    '"\\ud800"',
    '{"a": "\\u0000"}',
    "{",
    "[1,]",
    "\x00",
    "",
    Long(json.dumps("x" * MB)),
    '{"endpoint": NaN}',
    '{"endpoint": -Infinity, "keys": {}}',
    '{"endpoint": "https://push.example.com/x", "keys": {"p256dh": NaN, "auth": -Infinity}}',
    '{"endpoint": [], "keys": "x"}',
    '{"endpoint": {}, "delete": "yes"}',
    '{"endpoint": "https://push.example.com/x", "delete": true}',
    '{"endpoint": "https://push.example.com/x", "keys": {}}',
    '{"endpoint": "\\ud800", "keys": {"p256dh": "\\ud800", "auth": "\\u0000"}}',
    json.dumps(
        {"endpoint": "https://push.example.com/x", "keys": {"p256dh": P256DH, "auth": AUTH}}
    ),
    json.dumps({"endpoint": "https://127.0.0.1/x", "keys": {"p256dh": P256DH, "auth": AUTH}}),
    json.dumps({"endpoint": "https://[::1]:8443/x", "keys": {"p256dh": P256DH, "auth": AUTH}}),
    json.dumps({"endpoint": "http://user:pw@10.0.0.1/", "keys": {"p256dh": P256DH, "auth": AUTH}}),
    json.dumps({"endpoint": "https://" + "a" * 2000, "keys": {"p256dh": P256DH, "auth": AUTH}}),
    Long(json.dumps({"endpoint": "https://e.example/" + "a" * MB, "keys": {"p256dh": "x"}})),
    '{"format": "euchre3-game/1"}',
    '{"format": "euchre3-game/1", "hands": NaN}',
    '{"format": "euchre3-game/1", "target": NaN, "first_dealer": -Infinity, "rules": {}, "hands": []}',
    '{"format": "euchre3-game/1", "target": 99999999999999999999999, "first_dealer": 99999999999999999999999, "rules": [], "hands": [{}]}',
    '{"format": "euchre3-game/1", "target": 10, "first_dealer": 0, "rules": {}, "hands": [[]]}',
    '{"format": "euchre3-game/1", "target": 10, "first_dealer": 0, "rules": {}, "hands": "x"}',
    '{"format": "euchre3-hand/1"}',
    '{"type": "play", "card": NaN}',
    '{"type": "pass", "seat": 2}',
    '{"type": "\\ud800"}',
    '{"endpoint": "\\ud800", "delete": true}',
    '{"endpoint": "https://push.example.com/\\u0000", "delete": true}',
]

ACTION_TYPES = ["pass", "order", "pickup", "leave", "name", "joker_suit", "dummy", "alone", "play"]
CARDS = ["9C", "TC", "JC", "QC", "KC", "AC", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "JK", "XX"]
SUITS = ["C", "D", "H", "S", "X", "c", "♣"]
BOT_LEVELS = ["easy", "medium", "hard"]
NO_SURROGATES = st.characters(exclude_categories=["Cs"])


# --------------------------------------------------------------------------- the URL patterns


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # int, str, slug, uuid, path, or regex (a named group of a regex pattern)
    regex: str


@dataclass(frozen=True)
class Endpoint:
    name: str  # "namespace:name", else the view's dotted path
    view: str
    route: str  # as ResolverMatch.route gives it
    parts: tuple[str | Param, ...]

    @property
    def params(self) -> list[Param]:
        return [p for p in self.parts if isinstance(p, Param)]

    @property
    def ours(self) -> bool:
        return self.view.split(".")[0] in SITE_PACKAGES

    def __repr__(self) -> str:
        return f"<{self.name} /{self.route}>"


_ROUTE_PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<parameter>[^>]+)>")
_KINDS = {
    "IntConverter": "int",
    "StringConverter": "str",
    "SlugConverter": "slug",
    "UUIDConverter": "uuid",
    "PathConverter": "path",
}


def _route_parts(pattern: RoutePattern) -> list[str | Param]:
    route = str(pattern)
    out: list[str | Param] = []
    pos = 0
    for m in _ROUTE_PARAM.finditer(route):
        out.append(route[pos : m.start()])
        name = m["parameter"]
        conv = pattern.converters[name]
        out.append(Param(name, _KINDS.get(type(conv).__name__, "str"), conv.regex))
        pos = m.end()
    out.append(route[pos:])
    return out


def _regex_parts(pattern: RegexPattern) -> list[str | Param]:
    """A regex pattern as literal text and its named groups (the site's and
    Django's patterns have no other regex syntax outside their groups)."""
    regex = str(pattern).removeprefix("^").removesuffix("$").removesuffix(r"\Z")
    out: list[str | Param] = []
    lit: list[str] = []
    i = 0
    while i < len(regex):
        if regex.startswith("(?P<", i):
            name_end = regex.index(">", i)
            depth, j = 1, name_end + 1
            while depth:
                if regex[j] == "\\":
                    j += 2
                    continue
                depth += {"(": 1, ")": -1}.get(regex[j], 0)
                j += 1
            out += [
                "".join(lit),
                Param(regex[i + 4 : name_end], "regex", regex[name_end + 1 : j - 1]),
            ]
            lit, i = [], j
        elif regex[i] == "\\":
            lit.append(regex[i + 1])
            i += 2
        else:
            lit.append(regex[i])
            i += 1
    out.append("".join(lit))
    return out


def _join(route: str, more: str) -> str:
    """As ResolverMatch.route joins the patterns (a nested regex loses its `^`)."""
    return route + (more.removeprefix("^") if route else more)


def walk(
    resolver: URLResolver | None = None,
    parts: tuple[str | Param, ...] = (),
    route: str = "",
    ns: tuple[str, ...] = (),
) -> Iterator[Endpoint]:
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        pat = p.pattern
        here = parts + tuple(
            _route_parts(pat) if isinstance(pat, RoutePattern) else _regex_parts(pat)  # type: ignore[arg-type]
        )
        if isinstance(p, URLResolver):
            yield from walk(
                p, here, _join(route, str(pat)), (*ns, p.namespace) if p.namespace else ns
            )
        else:
            merged: list[str | Param] = []
            for part in here:
                if isinstance(part, str) and merged and isinstance(merged[-1], str):
                    merged[-1] += part
                elif part != "":
                    merged.append(part)
            name = ":".join((*ns, p.name)) if p.name else p.lookup_str
            yield Endpoint(name, p.lookup_str, _join(route, str(pat)), tuple(merged))


ENDPOINTS = list(walk())
OURS = [e for e in ENDPOINTS if e.ours]


def build_path(endpoint: Endpoint, values: dict[str, str]) -> str:
    out = ["/"]
    for part in endpoint.parts:
        if isinstance(part, str):
            out.append(part)
        else:
            value = values[part.name]
            out.append(value if isinstance(value, Raw) else urllib.parse.quote(value, safe=""))
    return "".join(out)


def _plain_value(param: Param) -> str:
    """A value that routes to the pattern (for the walk's own test)."""
    for candidate in ("1", "x", "abc-1", *param.regex.split("|")):
        if re.fullmatch(param.regex, candidate):
            return candidate
    raise AssertionError(f"no plain value for {param}")


# --------------------------------------------------------------------------- names the code reads


def _module_paths() -> Iterator[Path]:
    for package in SITE_PACKAGES:
        yield from (ROOT / package).rglob("*.py")


def _names_read(attr: str) -> set[str]:
    # request.POST.get("x") and a helper's post.get("x") alike.
    rx = re.compile(rf"\b(?:{attr}|{attr.lower()})\.get(?:list)?\(\s*[\"']([^\"']+)[\"']")
    return {name for path in _module_paths() for name in rx.findall(path.read_text())}


def _form_fields(*modules: ModuleType) -> set[str]:
    names: set[str] = set()
    for module in modules:
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, forms.BaseForm):
                names.update(getattr(obj, "base_fields", {}))
    return names


def _post_names() -> set[str]:
    import allauth.account.forms
    import django.contrib.auth.forms

    import games.forms
    import notifications.forms

    return (
        _names_read("POST")
        | _form_fields(
            games.forms, notifications.forms, allauth.account.forms, django.contrib.auth.forms
        )
        # allauth's forms that add their fields in __init__.
        | {"login", "password", "remember", "email", "username", "password1", "password2"}
        | {"oldpassword", "code", "key", "action_add", "action_remove", "action_primary"}
        | {"action_send", "next"}
        # The admin's changelist actions and deletions.
        | {"action", "_selected_action", "select_across", "index", "post", "_save", "_continue"}
    )


# The history filters are read in a loop (stats.views.history), the rest by
# allauth and the admin.
GET_NAMES = sorted(
    _names_read("GET")
    | {"maker", "euchred", "alone", "game", "page", "step", "partial", "next"}
    | {"q", "o", "p", "e", "all", "_popup", "_to_field", "_changelist_filters"}
    | {"term", "app_label", "model_name", "field_name"}
)
POST_NAMES = sorted(_post_names())
FILE_NAMES = sorted(_names_read("FILES") | {"file"})


@functools.cache
def view_names(endpoint: Endpoint) -> tuple[str, ...]:
    """Name-like string literals of the endpoint's view (the parameters it
    reads, also those read in a loop, as the history's filters are)."""
    path = build_path(endpoint, {p.name: _plain_value(p) for p in endpoint.params})
    func = resolve(path).func
    func = getattr(func, "view_class", None) or inspect.unwrap(func)
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        return ()
    return tuple(sorted(set(re.findall(r"[\"']([a-z_][a-z0-9_]{0,30})[\"']", source))))


# --------------------------------------------------------------------------- the stored world


@functools.cache
def _client() -> Client:
    return Client()  # raises a view's exception, as a 500 would be


def shared_client() -> Client:
    """One test client for the whole file, without cookies: a new one would
    load the middleware again, and whitenoise scans the static files each time."""
    client = _client()
    client.cookies.clear()
    return client


@dataclass
class World:
    users: dict[str, Any]
    playing: Any  # alice's game in progress, her turn
    finished: Any  # a finished game of alice's, with hands and their facts
    game_ids: list[int]
    ints: list[str]  # real ids and numbers
    strs: list[str]  # real names and tokens
    record: dict[str, Any]  # the finished game's record (euchre3-game/1)
    record_paths: list[tuple[Any, ...]]
    legal: list[dict[str, Any]]  # alice's legal moves now, without the seat
    extra: dict[str, Any] = field(default_factory=dict)
    client: Client = field(default_factory=lambda: shared_client())
    sessions: dict[str, str] = field(default_factory=dict)

    def snapshot(self) -> tuple[list[Any], list[Any]]:
        """The fixture's games and their hands, as stored (raw SQL: no JSON
        decoding, it runs twice per example)."""
        from games.models import Game, Hand

        def rows(model: Any, columns: list[str], where: str) -> list[Any]:
            cols = ", ".join(model._meta.get_field(c).column for c in columns)
            marks = ", ".join(["%s"] * len(self.game_ids))
            sql = f"SELECT {cols} FROM {model._meta.db_table} WHERE {where} IN ({marks}) ORDER BY 1"
            with connection.cursor() as cursor:
                cursor.execute(sql, self.game_ids)
                return cursor.fetchall()

        return (
            rows(Game, ["id", "version", "scores", "status"], "id"),
            rows(Hand, ["id", "record", "result"], Hand._meta.get_field("game").column),
        )

    def client_as(self, who: str) -> Client:
        """The one test client (a new one would load the middleware again, and
        whitenoise scans the static files each time), with `who`'s session:
        made once, and again only if a request ended it for good."""
        client = self.client
        client.cookies.clear()
        if who == "anon":
            return client
        key = self.sessions.get(who)
        store = import_module(django_settings.SESSION_ENGINE).SessionStore
        if key is None or not store().exists(key):
            client.force_login(self.users[who])
            self.sessions[who] = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        client.cookies[django_settings.SESSION_COOKIE_NAME] = self.sessions[who]
        return client

    def act_path(self) -> str:
        return f"/tables/{self.playing.table_id}/act/"


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _move(client: Client, table_id: int, action: dict[str, Any], version: int) -> None:
    response = client.post(
        f"/tables/{table_id}/act/", {"action": json.dumps(action), "version": str(version)}
    )
    assert response.status_code < 400, response.content[:500]


@pytest.fixture
def world(db: Any, alice: Any, bob: Any, carol: Any, outsider: Any) -> World:
    """Alice seated at a live game in progress (her turn, after a few moves), a
    finished game of hers with its hand records and facts, another finished
    game she did not play, an open table of hers, imported records,
    notifications, a push subscription, an e-mail address to confirm and a
    password-reset key."""
    from allauth.account.forms import default_token_generator
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC
    from allauth.account.utils import user_pk_to_url_str

    from games import engine
    from games import services as game_services
    from games.models import Game
    from notifications.models import Notification, PushSubscription
    from notifications.services import preferences_for
    from stats import services as stats_services
    from stats.services import import_game_record
    from tests.stats.helpers import build_game

    staff = User.objects.create_superuser("fuzzstaff", "staff@example.com", "pw-staff-123")
    options: dict[str, Any] = dict(rules={}, target=5, mode="live", move_seconds=None)
    table = game_services.table_create(
        owner=alice, name="Fuzz table", visibility="private", **options
    )
    game_services.table_join(table=table, user=bob, position=1)
    game_services.table_join(table=table, user=carol, position=2)
    open_table = game_services.table_create(
        owner=alice, name="Open", visibility="public", **options
    )
    playing = Game.objects.get(table=table)
    by_seat = {0: alice, 1: bob, 2: carol}
    moves = 0
    while True:
        playing.refresh_from_db()
        state = game_services.game_state(playing)
        assert state.current is not None and state.current.to_act is not None
        seat = state.current.to_act
        legal = [
            {k: v for k, v in a.items() if k != "seat"}
            for a in engine.game_view(state, seat)["legal_actions"]
        ]
        if seat == 0 and moves >= 2:
            break
        move = next(a for a in legal if a["type"] != "dummy")
        client = shared_client()
        client.force_login(by_seat[seat])
        _move(client, table.pk, move, playing.version)
        moves += 1
        assert moves < 50

    finished = build_game([alice, bob, carol])
    stats_services.after_game(game_id=finished.pk)
    others = build_game([bob, carol, outsider], name="Not alice's")
    record = engine.game_to_record(game_services.game_state(finished))
    imported = import_game_record(owner=alice, raw=json.dumps(record), name="Mine")
    bobs_import = import_game_record(owner=bob, raw=json.dumps(record), name="Bob's")
    notes = [
        Notification.objects.create(
            user=alice, kind="turn", game=playing, text="Your turn", url=f"/tables/{table.pk}/"
        ),
        Notification.objects.create(
            user=alice, kind="game_ended", game=finished, text="Over", url="https://evil.example/"
        ),
        Notification.objects.create(user=bob, kind="turn", game=playing, text="Bob", url="/"),
    ]
    push = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.com/alice", p256dh=P256DH, auth=AUTH
    )
    prefs = preferences_for(alice)
    address = EmailAddress.objects.create(
        user=alice, email=alice.email, primary=True, verified=False
    )
    confirm_key = EmailConfirmationHMAC(address).key
    reset_key = default_token_generator.make_token(alice)
    games = [playing, finished, others]
    hand_ids = [h.pk for g in games for h in g.hands.all()]
    ints = {
        str(x)
        for x in (
            *(u.pk for u in (alice, bob, carol, outsider, staff)),
            *(t.pk for t in (table, open_table, finished.table, others.table)),
            *(g.pk for g in games),
            *hand_ids,
            *(n.pk for n in notes),
            imported.pk,
            bobs_import.pk,
            push.pk,
            prefs.pk,
            address.pk,
            playing.version,
            *range(7),
        )
    }
    strs = [
        "alice",
        "bob",
        "oscar",
        "fuzzstaff",
        "AnonymousUser",
        table.invite_token,
        open_table.invite_token,
        finished.table.invite_token,
        prefs.unsubscribe_token,
        confirm_key,
        reset_key,
        user_pk_to_url_str(alice),
        "auth",
        "accounts",
        "stats",
        "notifications",
    ]
    return World(
        users={"alice": alice, "staff": staff},
        playing=playing,
        finished=finished,
        game_ids=[g.pk for g in games],
        ints=sorted(ints, key=int),
        strs=strs,
        record=dict(record),
        record_paths=list(_paths(record)),
        legal=legal,
        extra={"table": table, "open_table": open_table, "imported": imported},
    )


@pytest.fixture(autouse=True)
def _no_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Push endpoints are looked up in DNS: answer every name lookup at once
    with 'not found' (IP literals are still resolved), so no example waits on
    the network or depends on it."""
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in (None, "localhost") or _is_ip(host):
            return real(host, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _is_ip(host: Any) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(host.decode() if isinstance(host, bytes) else str(host))
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------- a request and its checks


@dataclass
class Req:
    endpoint: str
    method: str
    path: str
    query: str = ""
    who: str = "alice"  # alice, staff or anon
    content_type: str = ""
    body: bytes = b""
    fields: tuple[tuple[str, str], ...] = ()  # the form fields, decoded
    htmx: bool = False

    def field(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.fields if k == name), default)

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def __repr__(self) -> str:
        def short(s: str | bytes) -> str:
            return repr(s if len(s) <= 160 else s[:120]) + f"…({len(s)} chars)"

        bits = [f"{self.method} {short(self.path)}"]
        if self.query:
            bits.append(f"query={short(self.query)}")
        if self.body:
            bits.append(f"{self.content_type.split(';')[0]} body={short(self.body)}")
        return f"Req({self.endpoint}, {', '.join(bits)}, who={self.who}, htmx={self.htmx})"


FORM = "application/x-www-form-urlencoded"
JSON = "application/json"


def form_body(pairs: list[tuple[str, str]]) -> bytes:
    return urllib.parse.urlencode(pairs).encode()


def send(client: Client, req: Req) -> Any:
    headers = {"HX-Request": "true"} if req.htmx else {}
    url = req.path + (f"?{req.query}" if req.query else "")
    if req.method == "GET":
        return client.generic("GET", url, headers=headers)
    return client.generic(
        req.method,
        url,
        data=req.body,
        content_type=req.content_type or "application/octet-stream",
        headers=headers,
    )


def _json_of(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def legit_change(world: World, req: Req) -> bool:
    """The requests that may change the fixture's games: a legal move by alice
    on the current version, and alice handing her seat to a bot or taking it
    back (both move the game's version on)."""
    if req.who != "alice" or req.method != "POST":
        return False
    table_id = world.playing.table_id
    if req.endpoint == "games:autopilot" and req.path == f"/tables/{table_id}/autopilot/":
        return req.field("level")[:10] in ("", *BOT_LEVELS)
    if req.endpoint == "games:act" and req.path == world.act_path():
        action = _json_of(req.field("action"))
        return (
            isinstance(action, dict)
            and req.field("version").strip() == str(world.playing.version)
            and action.get("type") in {a["type"] for a in world.legal}
        )
    return False


@dataclass(frozen=True)
class Known:
    """A 5xx known today whose fix is for another file's owner (see the module doc)."""

    key: str  # the test id
    endpoint: str
    inputs: str  # which requests fail, for the owners
    owner: str  # where the fix goes
    matches: Callable[[Req], bool]
    example: Callable[[World], Req]  # one failing request, for test_known_500_still_fails
    vendors: tuple[str, ...] = ("sqlite", "postgresql")  # the databases it fails on


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _has_surrogate(value: Any) -> bool:
    return any(any("\ud800" <= c <= "\udfff" for c in s) for s in _strings(value))


def _has_nul(value: Any) -> bool:
    return any("\x00" in s for s in _strings(value))


def _push_endpoint(req: Req) -> Any:
    data = _json_of(req.text())
    return data.get("endpoint") if isinstance(data, dict) else None


def _nul_in_path(req: Req) -> bool:
    return "\x00" in urllib.parse.unquote(req.path, errors="replace")


# Empty it as the fixes land (test_known_500_still_fails says which entries can go).
# Each entry names exactly the inputs that fail today; the fuzz tolerates those only.
KNOWN_500: list[Known] = []  # emptied: each entry's fix landed (see the commit log)


def known_500(req: Req) -> Known | None:
    return next(
        (
            k
            for k in KNOWN_500
            if k.endpoint == req.endpoint and connection.vendor in k.vendors and k.matches(req)
        ),
        None,
    )


@dataclass
class Outcome:
    status: int | None
    error: str | None
    changed: bool
    diff: str = ""


def exercise(world: World, req: Req) -> Outcome:
    """Send `req` as its user in a savepoint that is rolled back; report the
    status, any exception out of the view, and whether the games changed."""
    client = world.client_as(req.who)
    with transaction.atomic():
        before = world.snapshot()
        status, error = None, None
        try:
            with transaction.atomic():
                status = send(client, req).status_code
        except Exception:
            error = traceback.format_exc(limit=-8)
        after = world.snapshot() if error is None else before
        transaction.set_rollback(True)
    diff = "" if before == after else f"before: {_short(before)}\nafter: {_short(after)}"
    return Outcome(status, error, before != after, diff)


def _short(snapshot: Any) -> str:
    text = repr(snapshot)
    return text if len(text) < 2000 else text[:2000] + "…"


def check(world: World, req: Req) -> Outcome:
    """The two promises for one request (see the module doc)."""
    out = exercise(world, req)
    failed = out.error is not None or (out.status or 0) >= 500
    if failed:
        known = known_500(req)
        if known is None:
            raise AssertionError(
                f"{req!r} answered {out.status or 'an exception'}\n{out.error or ''}"
            )
        if currently_in_test_context():  # a Hypothesis example: say so in its report
            note(f"known 5xx ({known.owner}): {known.inputs}")
    elif out.changed and not legit_change(world, req):
        raise AssertionError(f"{req!r} answered {out.status} and changed a game\n{out.diff}")
    return out


# --------------------------------------------------------------------------- strategies


def segment_values(world: World, param: Param) -> st.SearchStrategy[str]:
    if param.kind == "int":
        return st.one_of(
            st.sampled_from(HOSTILE_INTS + world.ints),
            st.sampled_from(world.ints),
            st.integers(0, 10**25).map(str),
        )
    # Hostile text that can route to the pattern, the real names, raw escapes,
    # and anything the pattern's regex matches.
    texts = [v for v in HOSTILE_TEXT + world.strs if re.fullmatch(param.regex, v, re.DOTALL)]
    return st.one_of(
        st.sampled_from(texts),
        st.sampled_from([v for v in world.strs + world.ints if re.fullmatch(param.regex, v)]),
        st.sampled_from(RAW_SEGMENTS),
        st.from_regex(param.regex, fullmatch=True, alphabet=NO_SURROGATES).filter(
            lambda v: len(v) < 300
        ),
    )


def move_texts(world: World) -> st.SearchStrategy[str]:
    """`action` field values: alice's real moves, hostile variations of their
    shape (NaN, Infinity, wrong types, a seat, unknown keys), and junk."""
    values = st.one_of(
        st.sampled_from(HOSTILE_JSON),
        st.sampled_from(CARDS + SUITS),
        st.lists(st.sampled_from(CARDS), max_size=6),
    )
    shaped = st.builds(
        lambda t, extra: {"type": t, **extra},
        st.one_of(st.sampled_from(ACTION_TYPES), st.sampled_from(HOSTILE_JSON[:12])),
        st.dictionaries(
            st.sampled_from(["card", "suit", "discard", "keep", "seat", "auto", "x"]),
            values,
            max_size=3,
        ),
    )
    real = st.sampled_from(world.legal)
    tweaked = st.builds(
        lambda a, k, v: {**a, k: v},
        real,
        st.sampled_from(["type", "card", "suit", "discard", "keep", "seat"]),
        values,
    )
    moves = st.one_of(tweaked, tweaked, real, shaped)  # mostly the real shape, spoiled
    return st.one_of(
        moves.map(lambda a: json.dumps(a, allow_nan=True)),
        moves.map(lambda a: json.dumps(a, allow_nan=True)),
        st.sampled_from([t for t in JSON_TEXTS if len(t) <= 400]),
        st.sampled_from(HOSTILE_TEXT),
    )


def record_texts(world: World) -> st.SearchStrategy[str]:
    """`record` field and upload values: the real game record with one or two
    values replaced by hostile ones (or removed), and the raw JSON texts."""

    def mutate(changes: list[tuple[tuple[Any, ...], Any]]) -> str:
        rec: Any = copy.deepcopy(world.record)
        for path, value in changes:
            if not path:
                rec = value if value is not DELETE else {}
                continue
            parent = rec
            try:
                for key in path[:-1]:
                    parent = parent[key]
                if value is DELETE:
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                pass  # an earlier change removed the place
        text = json.dumps(rec, allow_nan=True)
        return Long(text) if len(text) > 200 else text

    change = st.tuples(
        st.sampled_from(world.record_paths), st.sampled_from([*HOSTILE_JSON, DELETE])
    )
    return st.one_of(
        st.lists(change, min_size=1, max_size=2).map(mutate),
        st.sampled_from(JSON_TEXTS),
    )


def field_values(world: World, name: str) -> st.SearchStrategy[str]:
    hostile = st.one_of(
        st.sampled_from(SWEEP_VALUES), st.sampled_from(HOSTILE_TEXT + world.strs + world.ints)
    )
    some_text = st.text(NO_SURROGATES, max_size=30)
    special: dict[str, st.SearchStrategy[str]] = {
        "record": record_texts(world),
        "action": move_texts(world),
        "version": st.sampled_from([str(world.playing.version), *HOSTILE_INTS[:6]]),
        "keep": st.sampled_from(CARDS),
        "position": st.sampled_from(["0", "1", "2", "3", "-1", "١", " 1", "1_0", "²"]),
        "level": st.sampled_from([*BOT_LEVELS, "", "EASY", "easy\x00", "impossible", "hardest"]),
    }
    return st.one_of(special.get(name, hostile), hostile, some_text)


@st.composite
def pairs(
    draw: Any, world: World, names: list[str], first: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """Name=value pairs: names the view itself names (`first`) half the time."""
    name = st.sampled_from([*names, "", "x", "a[b]"])
    if first:
        name = st.one_of(st.sampled_from(first), name)
    pair = name.flatmap(lambda n: st.tuples(st.just(n), field_values(world, n)))
    out = draw(st.lists(pair, max_size=5))
    if first and draw(st.booleans()):  # every name the view names, at once
        out += [(n, draw(field_values(world, n))) for n in first[:8]]
    repeat = draw(st.sampled_from([1, 1, 1, 1, 2, 1001]))  # 1001: over Django's field limit
    if repeat > 1 and out:  # a short value repeated (a 1 MB one 1001 times is 1 GB)
        name, value = out[-1]
        out = out[:-1] + [(name, value if len(value) < 1000 else "²")] * repeat
    return out


@st.composite
def requests_for(draw: Any, world: World, endpoint: Endpoint) -> Req:
    values = {p.name: draw(segment_values(world, p), label=p.name) for p in endpoint.params}
    path = build_path(endpoint, values)
    query_pairs = draw(pairs(world, GET_NAMES, view_names(endpoint)), label="query")
    query = urllib.parse.urlencode(query_pairs)
    if draw(st.integers(0, 5)) == 0:
        query += "&" + draw(st.sampled_from(RAW_QUERIES))
    who = draw(st.sampled_from(["alice", "alice", "alice", "anon", "staff"]))
    htmx = draw(st.booleans())
    method = draw(st.sampled_from(["GET", "POST", "POST"]))
    req = Req(endpoint.name, method, path, query, who, htmx=htmx)
    if method == "GET":
        return req
    kind = draw(st.sampled_from(["form", "form", "json", "multipart", "bytes", "none"]))
    if kind == "form":
        fields = draw(pairs(world, POST_NAMES, view_names(endpoint)), label="form")
        req.fields, req.body = tuple(fields), form_body(fields)
        req.content_type = "application/x-www-form-urlencoded"
    elif kind == "json":
        text = draw(st.one_of(st.sampled_from(JSON_TEXTS), record_texts(world), move_texts(world)))
        req.body, req.content_type = text.encode(), "application/json"
    elif kind == "multipart":
        fields = draw(pairs(world, POST_NAMES), label="form")
        content = draw(
            st.one_of(
                record_texts(world).map(str.encode),
                st.sampled_from([b"", b"\xff\xfe\x00", b"\x00" * 100, b"x" * (3 * MB)]),
            )
        )
        filename = draw(st.sampled_from(["g.json", "../../etc/passwd", "é²٣.json", "a" * 300, ""]))
        data: dict[str, Any] = {}
        for k, v in fields:
            data.setdefault(k, []).append(v)
        from django.core.files.uploadedfile import SimpleUploadedFile

        data[draw(st.sampled_from(FILE_NAMES))] = SimpleUploadedFile(filename or "f", content)
        req.fields = tuple(fields)
        req.body, req.content_type = encode_multipart(BOUNDARY, data), MULTIPART_CONTENT
    elif kind == "bytes":
        req.body = draw(
            st.sampled_from(
                [
                    b"\xff\xfe%ff=\x00",
                    b"a=%ff&b=%",
                    b"--x\r\nnonsense",
                    b"&" * 5000,
                    b"x" * (3 * MB),
                ]
            )
        )
        req.content_type = draw(
            st.sampled_from(
                [
                    "application/x-www-form-urlencoded",
                    "application/x-www-form-urlencoded; charset=utf-16",
                    "application/x-www-form-urlencoded; charset=nonsense",
                    "multipart/form-data",
                    "multipart/form-data; boundary=x",
                    "application/json",
                    "text/plain",
                ]
            )
        )
    return req


def _fuzz_settings(n: int) -> settings:
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        # No shrinking: a failing request is reported as drawn (they are short
        # already), and a failing run stays as quick as a passing one.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,  # `world` is the same for every example
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


# --------------------------------------------------------------------------- the tests


def test_the_walk_finds_every_pattern_and_builds_urls_that_reach_it() -> None:
    names = {e.name for e in ENDPOINTS}
    # The site's own views, allauth's and the admin's are all there.
    assert {
        "stats:history",
        "stats:import",
        "games:act",
        "notifications:push_subscription",
    } <= names
    assert {"account_login", "account_confirm_email", "account_reset_password_from_key"} <= names
    assert {"admin:index", "admin:login", "admin:accounts_user_change"} <= names
    assert len(OURS) >= 35 and len(ENDPOINTS) >= 100
    for endpoint in ENDPOINTS:
        path = build_path(endpoint, {p.name: _plain_value(p) for p in endpoint.params})
        assert resolve(path).route == endpoint.route, (endpoint, path)
    # The names the views read were found in the source.
    assert {"game", "step", "page", "partial"} <= set(GET_NAMES)
    assert {"action", "version", "record", "position", "level", "login", "password"} <= set(
        POST_NAMES
    )
    assert "file" in FILE_NAMES


# The sweep's value classes: each is sent in every query parameter and form
# field at once, and each JSON body, to every view of the site.
SWEEP_VALUES = ["²", "٣", "99999999999999999999999", "-1", "NaN", "-Infinity", "\x00", BIG]
SWEEP_BODIES = [
    Long("[" * DEEP),
    Long('{"a":' * DEEP),
    Long('{"endpoint": "https://push.example.com/x", "keys": ' + "[" * DEEP + "]" * DEEP + "}"),
    '{"endpoint": NaN, "keys": {"p256dh": NaN, "auth": NaN}, "record": NaN, "action": NaN}',
    "-Infinity",
    Long(json.dumps({"endpoint": "https://push.example.com/" + "x" * MB})),
    '{"endpoint": "\\ud800", "delete": true, "record": "\\ud800", "action": "\\udfff"}',
    '{"endpoint": "https://push.example.com/\\u0000", "delete": true, "record": "\\u0000"}',
]


def _fills(world: World, endpoint: Endpoint) -> list[dict[str, str]]:
    """Values for the path parameters: huge, zero and real ids; unicode, long,
    `..`, real names and raw percent-escapes (as many as the regex allows)."""
    fills: list[dict[str, str]] = [{}]
    for p in endpoint.params:
        if p.kind == "int":
            choices = ["99999999999999999999999", "0", world.ints[-1], str(world.playing.pk)]
        else:
            texts = ("²٣é🂡", "a" * 10_000, "..", "a\x00b", "alice", world.strs[5], "x")
            choices = [v for v in texts if re.fullmatch(p.regex, v)] + [Raw("%ff%2e%2e")]
        fills = [{**f, p.name: c} for f in fills for c in choices[: max(2, 6 // len(fills))]]
    return fills


def _sweep_requests(world: World) -> Iterator[Req]:
    """Every pattern with each of its path values, by GET and by POST (a
    hostile form), signed in or not; then for the site's own views every
    SWEEP_VALUES class in every query parameter and every form field, and
    every SWEEP_BODIES JSON body, signed in as alice."""
    short = [v for v in HOSTILE_TEXT if not isinstance(v, Long)]
    form = [(name, short[i % len(short)]) for i, name in enumerate(POST_NAMES)]
    query = urllib.parse.urlencode([(n, short[i % len(short)]) for i, n in enumerate(GET_NAMES)])
    for n, endpoint in enumerate(ENDPOINTS):
        fills = _fills(world, endpoint)
        if not endpoint.ours:  # allauth's and the admin's: fewer
            fills = fills[:: max(1, len(fills) // 2)]
        for i, values in enumerate(fills):
            path = build_path(endpoint, values)
            who = "alice" if endpoint.ours else ("alice", "anon", "staff")[(n + i) % 3]
            yield Req(endpoint.name, "GET", path, query, who, htmx=bool(i % 2))
            yield Req(endpoint.name, "POST", path, "", who, FORM, form_body(form), tuple(form))
            if not endpoint.ours and i == 0:
                yield Req(
                    endpoint.name, "POST", path, "", "anon", JSON, SWEEP_BODIES[n % 2].encode()
                )
        if not endpoint.ours:
            continue
        path = build_path(endpoint, fills[-1])  # a real id or name where there is one
        for value in SWEEP_VALUES:
            get_names = GET_NAMES if value is not BIG else view_names(endpoint)[:3] or ["game"]
            q = urllib.parse.urlencode([(name, value) for name in get_names])
            yield Req(endpoint.name, "GET", path, q, "alice")
            post_names = POST_NAMES if value is not BIG else view_names(endpoint)[:3] or ["record"]
            fields = tuple((name, value) for name in post_names)
            yield Req(
                endpoint.name, "POST", path, "", "alice", FORM, form_body(list(fields)), fields
            )
        for body in SWEEP_BODIES:
            yield Req(endpoint.name, "POST", path, "", "alice", JSON, body.encode())


def test_every_url_pattern_survives_hostile_values(world: World) -> None:
    """Deterministic: every pattern is reached, whatever Hypothesis draws."""
    failures = []
    started = time.monotonic()
    took: list[tuple[float, str]] = []
    for req in _sweep_requests(world):
        t0 = time.monotonic()
        try:
            check(world, req)
        except AssertionError as exc:
            failures.append(str(exc))
        took.append((time.monotonic() - t0, repr(req)[:150]))
    print(f"{len(took)} requests in {time.monotonic() - started:.1f}s; slowest:")
    for seconds, what in sorted(took, reverse=True)[:15]:
        print(f"  {seconds:.2f}s {what}")
    assert not failures, f"{len(failures)} failures:\n\n" + "\n\n".join(failures[:20])


def test_fuzz_every_url(world: World) -> None:
    """Hypothesis, for each pattern in turn (so each is reached): the site's
    views FUZZ_OURS examples each, allauth's and the admin's FUZZ_THEIRS."""
    failures = []
    for endpoint in ENDPOINTS:
        try:
            _fuzzer(world, endpoint)()
        except AssertionError as exc:
            failures.append("".join(traceback.format_exception_only(exc)))
    assert not failures, f"{len(failures)} patterns fail:\n\n" + "\n\n".join(failures)


def _fuzzer(world: World, endpoint: Endpoint) -> Callable[[], None]:
    @_fuzz_settings(FUZZ_OURS if endpoint.ours else FUZZ_THEIRS)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        cache.clear()  # rate-limit counters: a 429 is fine, but must not hide the views
        check(world, data.draw(requests_for(world, endpoint), label="request"))

    return fuzz


FUZZ_OURS, FUZZ_THEIRS = 8, 1


def _move_request(world: World, action: str, version: str, who: str = "alice", **kw: Any) -> Req:
    fields = (("action", action), ("version", version), *kw.pop("extra", ()))
    return Req(
        "games:act", "POST", world.act_path(), "", who, FORM, form_body(list(fields)), fields, **kw
    )


def test_the_real_moves_spoiled_never_change_a_game(world: World) -> None:
    """Deterministic: alice's first two legal moves, on the current version,
    with each of its fields (and an unknown one) set to NaN, Infinity, a huge
    number, an object, a list, null, or a seat; no 5xx, the game unchanged."""
    version = str(world.playing.version)
    failures = []
    for move in world.legal[:2]:
        for key in ("type", "card", "suit", "discard", "keep", "seat", "x"):
            values: tuple[Any, ...] = (NAN, INF, -INF, 10**23, {}, [], None, 0, "\ud800", "\x00")
            for value in values:
                req = _move_request(world, json.dumps({**move, key: value}), version)
                try:
                    check(world, req)
                except AssertionError as exc:
                    failures.append(str(exc))
    assert not failures, f"{len(failures)} failures:\n\n" + "\n\n".join(failures[:10])


@_fuzz_settings(120)
@given(data=st.data())
def test_fuzz_moves_never_change_a_game(world: World, data: st.DataObject) -> None:
    """POSTs to the move endpoint of alice's game: fields `action` (JSON),
    `version` (mostly the current one) and `keep`, as alice (whose turn it is)
    and as others."""
    cache.clear()
    current = st.just(str(world.playing.version))
    fields = [
        ("action", data.draw(move_texts(world), label="action")),
        ("version", data.draw(st.one_of(current, current, field_values(world, "version")))),
    ]
    fields += [("keep", k) for k in data.draw(st.lists(st.sampled_from(CARDS), max_size=6))]
    who = data.draw(st.sampled_from(["alice", "alice", "alice", "staff", "anon"]))
    req = Req(
        "games:act",
        "POST",
        world.act_path(),
        who=who,
        content_type="application/x-www-form-urlencoded",
        body=form_body(fields),
        fields=tuple(fields),
        htmx=data.draw(st.booleans()),
    )
    check(world, req)


@_fuzz_settings(80)
@given(data=st.data())
def test_fuzz_record_import(world: World, data: st.DataObject) -> None:
    """The record import: mutated real records and hostile JSON, as a form
    field and as an upload."""
    cache.clear()
    text = data.draw(record_texts(world), label="record")
    fields: tuple[tuple[str, str], ...]
    if data.draw(st.booleans(), label="upload"):
        from django.core.files.uploadedfile import SimpleUploadedFile

        payload = {"file": SimpleUploadedFile("g.json", text.encode()), "name": "²"}
        body, ctype, fields = encode_multipart(BOUNDARY, payload), MULTIPART_CONTENT, ()
    else:
        fields = (("record", text), ("name", data.draw(st.sampled_from(HOSTILE_TEXT))))
        body, ctype = form_body(list(fields)), "application/x-www-form-urlencoded"
    check(world, Req("stats:import", "POST", "/stats/import/", "", "alice", ctype, body, fields))


@pytest.mark.parametrize(
    "known",
    [pytest.param(k, id=k.key) for k in KNOWN_500]
    or [pytest.param(None, marks=pytest.mark.skip(reason="KNOWN_500 is empty"))],
)
def test_known_500_still_fails(world: World, known: Known | None, request: Any) -> None:
    """Each KNOWN_500 entry's request, expected to fail (strict): an XPASS
    means its fix landed, so the entry must be removed from KNOWN_500."""
    assert known is not None
    if connection.vendor not in known.vendors:
        pytest.skip(f"fails on {', '.join(known.vendors)} only, this is {connection.vendor}")
    request.node.add_marker(
        pytest.mark.xfail(strict=True, reason=f"known 5xx, fix in {known.owner}: {known.inputs}")
    )
    req = known.example(world)
    assert known.matches(req)
    out = exercise(world, req)
    assert out.error is None and (out.status or 0) < 500, out.error or out.status
    assert not out.changed or legit_change(world, req)


# --------------------------------------------------------------------------- the stats fixes, exactly


@pytest.fixture
def as_alice(alice: Any) -> Client:
    client = shared_client()
    client.force_login(alice)
    return client


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("game=%C2%B2", 400, "The game filter takes a game number, such as 12."),
        ("game=99999999999999999999999", 400, "There is no game with that number."),
        ("game=9223372036854775808", 400, "There is no game with that number."),
        ("game=NaN", 400, "The game filter takes a game number, such as 12."),
        ("game=0", 400, "There is no game with that number."),
        ("game=%D9%A3&maker=1", 200, "Hand history"),  # Arabic-Indic 3: a number
    ],
)
def test_a_history_filter_that_is_no_game_number_is_a_400_that_says_so(
    as_alice: Client, query: str, status: int, says: str
) -> None:
    response = as_alice.get(f"/stats/hands/?{query}")
    assert response.status_code == status
    assert says in response.content.decode()


@pytest.mark.parametrize(
    ("record", "status", "says"),
    [
        ("[" * DEEP, 400, "The JSON is nested too deeply (at most 32 levels)."),
        ('{"a":' * DEEP, 400, "The JSON is nested too deeply (at most 32 levels)."),
        ('{"format": "euchre3-game/1", "target": NaN}', 400, "NaN or Infinity"),
        ('{"format": "euchre3-game/1", "target": -Infinity}', 400, "NaN or Infinity"),
        ('{"format": "euchre3-game/1", "x": "\\ud800"}', 400, "half of a surrogate pair"),
        ('{"format": "euchre3-game/1", "x": "\\u0000"}', 400, "NUL character"),
        (json.dumps("x" * 1_000_001), 413, "That record is too large (at most 1,000,000 bytes)."),
    ],
)
@pytest.mark.parametrize("upload", [False, True])
def test_a_bad_record_import_is_a_4xx_that_says_why_and_stores_nothing(
    as_alice: Client, record: str, status: int, says: str, upload: bool
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils.html import escape

    from stats.models import ImportedGame

    before = ImportedGame.objects.count()
    data: Any = (
        {"file": SimpleUploadedFile("g.json", record.encode())} if upload else {"record": record}
    )
    response = as_alice.post("/stats/import/", data)
    assert response.status_code == status
    assert escape(says) in response.content.decode()
    assert ImportedGame.objects.count() == before


def test_a_player_name_with_a_nul_is_not_found(as_alice: Client) -> None:
    assert as_alice.get("/stats/players/a%00b/").status_code == 404
