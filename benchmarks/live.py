"""Live load benchmark (not a test): N tables of three bots against `make run`.

    make run                                   # in another terminal
    .venv/bin/python -m benchmarks.live --tables 50 --seconds 300
    .venv/bin/python -m benchmarks.live --sweep 25,50,75,100 --seconds 60

The scaled-out mode (PostgreSQL, two web processes, two workers):

    make run-scaled                            # in another terminal
    DATABASE_URL=postgres://euchre@127.0.0.1:5440/euchre .venv/bin/python -m benchmarks.live \
        --url http://127.0.0.1:8000,http://127.0.0.1:8001 --tables 100 --seconds 300

For each table it creates three players and one spectator (`load-<run>-...`),
seats the players (the third join starts the game), signs a websocket
listener in on every seat and one spectator, and only then hands the three
seats to bots (`--level`), so no version is missed. From then on the Celery
worker of `make run` plays every move at its default pace: BOT_MOVE_DELAY,
BOT_TRICK_PAUSE after a move that completed a trick, BOT_HAND_PAUSE after a
move that ended a hand (the tables are live).

Measured, after the set-up and a short warm-up:

- moves per second: version increments stored in the database in the window;
- the bots' pace: seconds per move per table, against the pauses the bots
  were due to make before those moves (from the stored hands: a trick's last
  card, a hand's last move), and each move's lag behind its due pause;
- latency: from a move's commit (`data-moved-at` of the frame, epoch ms set
  just before the commit) to each listener receiving its frame, for moves
  committed in the window; the snapshot a socket gets on connect is not counted;
- errors: failed connections, unexpected closes (the listener reconnects, as
  the browser does), unreadable frames, failures of the tool's own set-up calls;
- lost updates: for every listener and game, versions between the first it saw
  (its connect snapshot, or 0 for a rematch) and the game's version in the
  database at the end of the window that it never received.

Progress goes to stderr every 10 s (with the CPU of daphne, the worker, beat,
Redis and this client, and the Celery queue); the summary goes to stdout.
At the end the games are stopped (marked finished, so queued bot moves do
nothing) and the load users and tables are deleted, unless `--keep`.
The tool runs on the same settings as the site (DJANGO_SETTINGS_MODULE).

With `--chat` a seated player of each table (in turn) also sends a chat
message every `--chat-every` seconds (30 by default; each table starts at a
random moment of its first period) over that seat's table socket, as the
page's chat form does (`--chat-via http`: posted to the chat's view
instead, the path without JavaScript). Then measured too: chat latency
(from the message's commit, `data-at` of its frame, to each listener
receiving it), chat frames per message per listener (at most one:
duplicates are counted), and chat messages lost (a listener of the table
that never got one stored in the window).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import re
import sys
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FRAME_RE = re.compile(r'data-game="(\d+)" data-version="(\d+)" data-moved-at="(\d*)"')
CHAT_FRAME = '<ol id="chat-log" hx-swap-oob="beforeend">'
CHAT_RE = re.compile(r'<li id="chat-(\d+)"[^>]*data-at="(\d+)"')
CHAT_CSRF = "loadcsrf" * 4  # any 32 letters: the cookie and the header carry the same
COOKIE_NAME = "sessionid"
P99_TARGET_MS = 100.0
PROGRESS_EVERY = 10.0
REMATCH_POLL = 2.0


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def now_ms() -> float:
    return time.time() * 1000.0


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (nan when empty)."""
    if not sorted_values:
        return math.nan
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


# --------------------------------------------------------------------------- Django side


def django_setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    import warnings

    import django

    # Rendering the tables outside a request (the set-up's broadcasts) warns about csrf_token.
    warnings.filterwarnings("ignore", message=r"A \{% csrf_token %\} was used")

    django.setup()


@dataclass
class TableSetup:
    index: int
    table_id: int
    game_id: int
    user_ids: list[int]  # seats 0, 1, 2
    spectator_id: int
    cookies: list[str]  # seats 0, 1, 2, then the spectator


def session_cookie(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def start_table(prefix: str, name: str, target: int = 25) -> tuple[Any, Any, list[Any], Any]:
    """A live public table to `target` with three players (users `<prefix>-0..2`)
    whose third join starts the game (version 1), and a spectator
    (`<prefix>-x`): (table, game, players, spectator)."""
    from django.contrib.auth import get_user_model

    from games import services

    User = get_user_model()
    # No password: create_user then stores an unusable one, without hashing.
    users = [User.objects.create_user(username=f"{prefix}-{s}") for s in range(3)]
    spectator = User.objects.create_user(username=f"{prefix}-x")
    table = services.table_create(
        owner=users[0],
        name=name,
        rules={},
        target=target,
        mode="live",
        move_seconds=None,
        visibility="public",
    )
    services.table_join(table=table, user=users[1], position=1)
    game = services.table_join(table=table, user=users[2], position=2)
    assert game is not None, "the third join did not start the game"
    return table, game, users, spectator


def create_tables(run: str, n: int) -> list[TableSetup]:
    """Players seated and the game started (version 1); nobody moves yet."""
    out = []
    for t in range(n):
        table, game, users, spectator = start_table(f"load-{run}-{t}", f"Load {run} #{t}")
        cookies = [session_cookie(u) for u in [*users, spectator]]
        out.append(TableSetup(t, table.pk, game.pk, [u.pk for u in users], spectator.pk, cookies))
    return out


def hand_to_bots(setups: list[TableSetup], level: str) -> None:
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Table

    User = get_user_model()
    for s in setups:
        table = Table.objects.get(pk=s.table_id)
        for uid in s.user_ids:
            services.seat_set_autopilot(table=table, user=User.objects.get(pk=uid), level=level)


def game_versions(table_ids: list[int]) -> dict[int, tuple[int, int, str]]:
    """game id -> (table id, version, status) for every game of these tables."""
    from games.models import Game

    return {
        g["id"]: (g["table_id"], g["version"], g["status"])
        for g in Game.objects.filter(table_id__in=table_ids).values(
            "id", "table_id", "version", "status"
        )
    }


def pauses_after_moves(game_ids: list[int]) -> dict[tuple[int, int], float]:
    """(game id, version) -> the seconds the bots pause after the move that made
    that version, where it is not BOT_MOVE_DELAY: BOT_HAND_PAUSE after a hand's
    last move, BOT_TRICK_PAUSE after the last card of a trick (as
    games.services.bot_countdown chooses them in a live game). The hand records
    and the game's version are read in one query, so they agree: after the
    seat changes of the set-up, each live step of a hand is one version (the
    record writes the maker's two, use the dummy and keep five, as one action)."""
    from django.conf import settings

    from games import engine
    from games.models import Hand

    records: dict[int, tuple[int, list[dict[str, Any]]]] = {}
    for game_id, version, record in (
        Hand.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("game_id", "game__version", "record")
    ):
        records.setdefault(game_id, (version, []))[1].append(record)
    out: dict[tuple[int, int], float] = {}
    for game_id, (version, hands) in records.items():
        steps = [
            [2 if a["type"] == "dummy" and "keep" in a else 1 for a in r["actions"]] for r in hands
        ]
        v = version - sum(map(sum, steps))  # the version before the game's first move
        for record, hand_steps in zip(hands, steps, strict=True):
            state = engine.hand_from_record(record, pending_keep=True)
            ends, cards = set(), 0  # the number of cards played when each trick was complete
            for trick in engine.view(state, None)["tricks"]:
                cards += len(trick["cards"])
                ends.add(cards)
            played = 0
            for n, (action, step) in enumerate(zip(record["actions"], hand_steps, strict=True)):
                v += step
                played += action["type"] == "play"
                if state.over and n == len(hand_steps) - 1:
                    out[(game_id, v)] = settings.BOT_HAND_PAUSE
                elif action["type"] == "play" and played in ends:
                    out[(game_id, v)] = settings.BOT_TRICK_PAUSE
    return out


def rematch_finished(setups: list[TableSetup]) -> tuple[int, list[str]]:
    """Start a rematch at every table whose latest game is over."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import Game, Table

    User = get_user_model()
    started, errors = 0, []
    by_table = {s.table_id: s for s in setups}
    latest: dict[int, tuple[int, str]] = {}
    for g in Game.objects.filter(table_id__in=list(by_table)).values(
        "table_id", "number", "status"
    ):
        if g["table_id"] not in latest or g["number"] > latest[g["table_id"]][0]:
            latest[g["table_id"]] = (g["number"], g["status"])
    for table_id, (_, status) in latest.items():
        if status != Game.Status.FINISHED:
            continue
        try:
            services.game_rematch(
                table=Table.objects.get(pk=table_id),
                user=User.objects.get(pk=by_table[table_id].user_ids[0]),
            )
            started += 1
        except Exception as exc:
            errors.append(f"rematch table {table_id}: {exc}")
    return started, errors


def stop_and_clean(run: str, setups: list[TableSetup], keep: bool) -> None:
    """Stop the games (queued bot moves become no-ops); delete everything unless `keep`."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.base import SessionBase
    from django.db import IntegrityError
    from django.utils.module_loading import import_string

    from games.models import Game, Table

    table_ids = [s.table_id for s in setups]
    Game.objects.filter(table_id__in=table_ids).update(status=Game.Status.FINISHED)
    Table.objects.filter(pk__in=table_ids).update(status=Table.Status.FINISHED)
    if keep:
        return
    for attempt in range(5):
        try:
            Table.objects.filter(pk__in=table_ids).delete()
            break
        except IntegrityError:  # a worker still storing a stopped game's statistics
            if attempt == 4:
                raise
            time.sleep(2)
    get_user_model().objects.filter(username__startswith=f"load-{run}-").delete()
    store: type[SessionBase] = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    for s in setups:
        for key in s.cookies:
            store(session_key=key).delete()


def chat_messages(table_ids: list[int]) -> list[tuple[int, int, float]]:
    """(message id, table id, epoch ms of its commit) of every chat message at these tables."""
    from chat.models import Message

    return [
        (pk, table_id, created.timestamp() * 1000.0)
        for pk, table_id, created in Message.objects.filter(table_id__in=table_ids).values_list(
            "pk", "table_id", "created"
        )
    ]


def post_chat(base: str, table_id: int, cookie: str, text: str) -> int:
    """Post a chat message as the page's htmx form does; the HTTP status."""
    import urllib.error
    import urllib.parse
    import urllib.request

    request = urllib.request.Request(
        f"{base}/tables/{table_id}/chat/",
        data=urllib.parse.urlencode({"text": text}).encode(),
        method="POST",
        headers={
            "Cookie": f"{COOKIE_NAME}={cookie}; csrftoken={CHAT_CSRF}",
            "X-CSRFToken": CHAT_CSRF,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


async def chat_poster(
    stats: Stats,
    bases: list[str],
    setups: list[TableSetup],
    listeners: list[Listener],
    every: float,
    via: str,
) -> None:
    """One message per table every `every` seconds, each table from a random
    moment of the first period, each time by the next seated player: over
    that seat's socket (`via` "socket"), or posted to the chat's view ("http")."""
    import heapq
    import json
    import random

    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(8, thread_name_prefix="load-chat")
    start = time.monotonic()
    due = [(start + random.uniform(0, every), i) for i in range(len(setups))]
    heapq.heapify(due)  # (when, table index): the next message due first
    sent = [0] * len(setups)
    pending: set[asyncio.Task[None]] = set()

    async def one(i: int) -> None:
        s = setups[i]
        seat = sent[i] % 3
        sent[i] += 1
        text = f"load message {sent[i]} from seat {seat + 1}"
        if via == "socket":
            ws = listeners[i * 4 + seat].ws  # the listeners: 4 a table, seats 0-2 first
            try:
                await ws.send(json.dumps({"chat": "send", "text": text}))
                stats.chat_posted += 1
            except Exception as exc:
                stats.error(f"chat send: {type(exc).__name__}")
            return
        base = bases[(i * 4 + seat) % len(bases)]  # the web process of that seat's page
        status = await loop.run_in_executor(
            pool, post_chat, base, s.table_id, s.cookies[seat], text
        )
        if status == 200:
            stats.chat_posted += 1
        else:
            stats.error(f"chat post HTTP {status}")

    try:
        while True:
            when, i = heapq.heappop(due)
            await asyncio.sleep(max(0.0, when - time.monotonic()))
            task = asyncio.create_task(one(i))
            pending.add(task)
            task.add_done_callback(pending.discard)
            heapq.heappush(due, (when + every, i))
    finally:
        for task in list(pending):
            task.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def close_db() -> None:
    from django.db import connections

    connections.close_all()


# --------------------------------------------------------------------------- CPU (Linux /proc)


class CpuSampler:
    """CPU per process of the `make run` being measured (honcho's descendants)
    and of this client, read from /proc; empty where /proc is missing."""

    def __init__(self, base_dir: Path) -> None:
        self.base_dir = str(base_dir.resolve())
        self.hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self.last: dict[int, tuple[str, int]] = {}
        self.last_time = time.monotonic()
        self.last_total = self._system()
        self.sample()

    @staticmethod
    def _read(path: str) -> str:
        try:
            with open(path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def _system(self) -> tuple[int, int]:
        line = self._read("/proc/stat").split("\n", 1)[0].split()
        if not line:
            return (0, 0)
        vals = [int(v) for v in line[1:]]
        idle = vals[3] + (vals[4] if len(vals) > 4 else 0)
        return (sum(vals), idle)

    def _processes(self) -> dict[int, str]:
        if not os.path.isdir("/proc"):
            return {}
        parent: dict[int, int] = {}
        cmd: dict[int, str] = {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            pid = int(name)
            stat = self._read(f"/proc/{pid}/stat")
            if not stat:
                continue
            parent[pid] = int(stat.rsplit(")", 1)[1].split()[1])
            cmd[pid] = self._read(f"/proc/{pid}/cmdline").replace("\0", " ")
        roots = []
        for pid, c in cmd.items():
            if "honcho" in c and " start" in c:
                try:
                    if os.readlink(f"/proc/{pid}/cwd") == self.base_dir:
                        roots.append(pid)
                except OSError:
                    pass
        found = {os.getpid(): "client"}
        children: dict[int, list[int]] = {}
        for pid, ppid in parent.items():
            children.setdefault(ppid, []).append(pid)
        stack = list(roots)
        while stack:
            pid = stack.pop()
            stack.extend(children.get(pid, []))
            c = cmd.get(pid, "")
            if "daphne" in c:
                found[pid] = "daphne"
            elif "celery" in c and " worker" in c:
                found[pid] = "worker"
            elif "celery" in c and " beat" in c:
                found[pid] = "beat"
            elif "redis-server" in c or "embedded_redis" in c:
                found[pid] = "redis"
            elif "postgres" in c:
                found[pid] = "postgres"
        return found

    def _ticks(self, pid: int) -> int | None:
        stat = self._read(f"/proc/{pid}/stat")
        if not stat:
            return None
        fields = stat.rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def sample(self) -> dict[str, float]:
        """CPU % per label since the previous call (100 = one core), and `system` busy %."""
        t = time.monotonic()
        dt = max(t - self.last_time, 1e-6)
        out: dict[str, float] = {}
        current: dict[int, tuple[str, int]] = {}
        for pid, label in self._processes().items():
            ticks = self._ticks(pid)
            if ticks is None:
                continue
            current[pid] = (label, ticks)
            prev = self.last.get(pid)
            if prev is not None:
                out[label] = out.get(label, 0.0) + (ticks - prev[1]) / self.hz / dt * 100
        total, idle = self._system()
        d_total = total - self.last_total[0]
        if d_total > 0:
            out["system"] = (
                100.0 * (1 - (idle - self.last_total[1]) / d_total) * (os.cpu_count() or 1)
            )
        self.last, self.last_time, self.last_total = current, t, (total, idle)
        return out


def cpu_text(cpu: dict[str, float]) -> str:
    order = ["daphne", "worker", "beat", "redis", "postgres", "client", "system"]
    return " ".join(f"{k}={cpu[k]:.0f}%" for k in order if k in cpu)


# --------------------------------------------------------------------------- the run


@dataclass
class Stats:
    t0: float = math.inf  # window, epoch ms: moves committed in [t0, t1] are measured
    t1: float = math.inf
    latencies: list[float] = field(default_factory=list)
    frames: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    window_versions: set[tuple[int, int]] = field(default_factory=set)
    # Spectators: (game, version, ms after the previous version's commit) of each
    # move; set against the pause due after that previous move once the window is over.
    gaps: list[tuple[int, int, float]] = field(default_factory=list)
    last_moved: dict[int, tuple[int, float]] = field(default_factory=dict)
    chat_latencies: list[float] = field(default_factory=list)
    chat_frames: int = 0
    chat_duplicates: int = 0
    chat_posted: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] += 1


class Listener:
    def __init__(
        self, stats: Stats, base: str, setup: TableSetup, seat: int | None, cookie: str
    ) -> None:
        self.stats = stats
        self.origin = base  # the page's own web process, as a browser's would be
        self.url = "ws" + base[len("http") :] + f"/ws/tables/{setup.table_id}/"
        self.setup = setup
        self.seat = seat
        self.cookie = cookie
        self.first_game = setup.game_id
        self.baseline = 1  # version of the connect snapshot of the first game
        self.seen: dict[int, set[int]] = {}
        self.chat_seen: set[int] = set()  # chat message ids received one by one
        self.last: tuple[int, int] = (0, 0)
        self.ready = asyncio.Event()
        self.stopping = False
        self.connected_once = False
        self.ws: Any = None

    def max_seen(self, game_id: int) -> int:
        return max(self.seen.get(game_id, {0}))

    def on_frame(self, text: str, received: float, snapshot: bool) -> None:
        st = self.stats
        if text.startswith(CHAT_FRAME):
            self.on_chat(text, received)
            return
        st.frames += 1
        m = FRAME_RE.search(text[:400])
        if m is None:
            st.error("unreadable frame" if "closed" not in text[:400] else "table closed")
            return
        game, version = int(m.group(1)), int(m.group(2))
        moved_at = float(m.group(3)) if m.group(3) else math.nan
        if snapshot and not self.connected_once and game == self.first_game:
            self.baseline = version
        seen = self.seen.setdefault(game, set())
        if version in seen:
            st.duplicates += 1
            return
        seen.add(version)
        if (game, version) < self.last:
            st.out_of_order += 1
        self.last = max(self.last, (game, version))
        in_window = st.t0 <= moved_at <= st.t1
        if in_window and not snapshot:
            st.latencies.append(received - moved_at)
        if self.seat is None:  # the spectator counts moves and the bots' pace
            prev = st.last_moved.get(game)
            if in_window:
                st.window_versions.add((game, version))
                if prev is not None and prev[0] == version - 1 and prev[1] >= st.t0:
                    st.gaps.append((game, version, moved_at - prev[1]))
            if not math.isnan(moved_at):
                st.last_moved[game] = (version, moved_at)

    def on_chat(self, text: str, received: float) -> None:
        """A chat message's own frame (snapshots carry the log too: not counted)."""
        st = self.stats
        st.chat_frames += 1
        m = CHAT_RE.search(text[:300])
        if m is None:
            st.error("unreadable chat frame")
            return
        message_id, at = int(m.group(1)), float(m.group(2))
        if message_id in self.chat_seen:
            st.chat_duplicates += 1
            return
        self.chat_seen.add(message_id)
        if st.t0 <= at <= st.t1:
            st.chat_latencies.append(received - at)

    async def run(self, connect_sem: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        while not self.stopping:
            try:
                async with connect_sem:
                    ws = await connect(
                        self.url,
                        origin=self.origin,  # type: ignore[arg-type]
                        additional_headers={"Cookie": f"{COOKIE_NAME}={self.cookie}"},
                        open_timeout=60,
                        ping_interval=None,  # like a browser: no client pings
                        max_size=None,
                        max_queue=None,
                    )
                    self.ws = ws
                    first = await asyncio.wait_for(ws.recv(), timeout=60)
                    self.on_frame(str(first), now_ms(), snapshot=True)
                self.connected_once = True
                self.ready.set()
                async for message in ws:
                    received = now_ms()
                    text = message if isinstance(message, str) else message.decode()
                    snapshot = False
                    self.on_frame(text, received, snapshot)
                if self.stopping:
                    return
                self.stats.error(f"socket closed by server ({ws.close_code})")
            except ConnectionClosed as exc:
                if self.stopping:
                    return
                self.stats.error(
                    f"socket closed ({exc.rcvd.code if exc.rcvd else 'no close frame'})"
                )
            except Exception as exc:
                if self.stopping:
                    return
                self.stats.error(f"connect/receive: {type(exc).__name__}: {str(exc)[:80]}")
            self.ready.set()  # a failed first connect must not hang the set-up
            await asyncio.sleep(1.0)  # then reconnect, as htmx-ext-ws does

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), timeout=5)


@dataclass
class Result:
    tables: int
    seconds: float
    moves: int
    moves_per_sec: float
    p50: float
    p99: float
    max: float
    frames: int
    errors: int
    lost: int
    listeners: int
    rematches: int
    duplicates: int
    out_of_order: int
    bot_pace: float
    lag_p50: float
    lag_p99: float
    pace_limit: float
    cpu: dict[str, float]
    error_kinds: Counter[str]
    table_wait: tuple[float, float]  # the tables' mean seconds per move: median, largest
    chat: dict[str, float] | None = None  # with --chat: its figures

    def cpu_ms_per_move(self, label: str) -> float:
        """Milliseconds of CPU of `label`'s processes (all of them: a worker's
        pool and its parent) per move stored in the window."""
        if not self.moves or label not in self.cpu:
            return math.nan
        return self.cpu[label] / 100 * self.seconds * 1000 / self.moves

    @property
    def fair(self) -> bool:
        """No table waits more than twice the median table's wait for a move."""
        median, largest = self.table_wait
        return bool(median) and largest <= 2 * median

    @property
    def holds(self) -> bool:
        """p99 under target, nothing lost, no errors (chat included)."""
        chat_ok = self.chat is None or (self.chat["lost"] == 0 and self.chat["duplicates"] == 0)
        return (
            self.p99 < P99_TARGET_MS
            and self.lost == 0
            and self.errors == 0
            and self.moves > 0
            and chat_ok
        )

    @property
    def at_pace(self) -> bool:
        """The bots kept (close to) their default pace: the worker kept up."""
        return self.bot_pace <= self.pace_limit

    def block(self) -> str:
        lines = [
            f"tables: {self.tables}",
            f"seconds: {self.seconds:.0f}",
            f"listeners: {self.listeners}",
            f"moves: {self.moves}",
            f"moves_per_sec: {self.moves_per_sec:.1f}",
            f"bot_pace_s: {self.bot_pace:.2f}",
            f"bot_lag_ms_p50: {self.lag_p50:.0f}",
            f"bot_lag_ms_p99: {self.lag_p99:.0f}",
            f"latency_ms_p50: {self.p50:.1f}",
            f"latency_ms_p99: {self.p99:.1f}",
            f"latency_ms_max: {self.max:.1f}",
            f"frames: {self.frames}",
            f"errors: {self.errors}",
            f"lost_updates: {self.lost}",
            f"duplicates: {self.duplicates}",
            f"out_of_order: {self.out_of_order}",
            f"rematches: {self.rematches}",
            f"cpu_pct: {cpu_text(self.cpu) or 'n/a'}",
            *(
                f"{label}_cpu_ms_per_move: {self.cpu_ms_per_move(label):.1f}"
                for label in ("worker", "daphne", "redis", "postgres")
                if label in self.cpu
            ),
            f"table_wait_s_median: {self.table_wait[0]:.2f}",
            f"table_wait_s_max: {self.table_wait[1]:.2f}",
            f"fair_max_within_2x_median: {'yes' if self.fair else 'no'}",
            f"holds_p99_under_{P99_TARGET_MS:.0f}ms: {'yes' if self.holds else 'no'}",
            f"bots_at_default_pace: {'yes' if self.at_pace else 'no'}"
            f" (pace <= {self.pace_limit:.2f}s)",
        ]
        if self.chat is not None:
            lines += [f"chat_{k}: {v:.1f}" for k, v in self.chat.items()]
        return "\n".join(lines)

    def line(self) -> str:
        return (
            f"tables={self.tables} seconds={self.seconds:.0f} moves={self.moves} "
            f"moves_per_sec={self.moves_per_sec:.1f} bot_pace_s={self.bot_pace:.2f} "
            f"bot_lag_p50_ms={self.lag_p50:.0f} bot_lag_p99_ms={self.lag_p99:.0f} "
            f"p50_ms={self.p50:.1f} p99_ms={self.p99:.1f} max_ms={self.max:.1f} "
            f"frames={self.frames} errors={self.errors} lost={self.lost} "
            f"cpu[{cpu_text(self.cpu)}] "
            f"worker_cpu_ms_per_move={self.cpu_ms_per_move('worker'):.1f} "
            f"daphne_cpu_ms_per_move={self.cpu_ms_per_move('daphne'):.1f} "
            f"table_wait_s={self.table_wait[0]:.2f}/{self.table_wait[1]:.2f} "
            f"fair={'yes' if self.fair else 'no'} "
            f"holds={'yes' if self.holds else 'no'} "
            f"at_pace={'yes' if self.at_pace else 'no'}"
            + (
                " chat[" + " ".join(f"{k}={v:.1f}" for k, v in self.chat.items()) + "]"
                if self.chat is not None
                else ""
            )
        )


def queue_depth() -> str:
    """Tasks waiting in the Celery queue and held unacknowledged (ETA) by the worker."""
    try:
        import redis

        from euchre_site.celery import app

        r = redis.Redis.from_url(app.conf.broker_url, socket_timeout=2)
        return f"queue={r.llen('celery')} unacked={r.hlen('unacked')}"
    except Exception as exc:
        return f"queue=? ({type(exc).__name__})"


async def run_one(args: argparse.Namespace, n: int, seconds: float) -> Result:
    bases = site_urls(args.url)
    run = uuid.uuid4().hex[:6]
    loop = asyncio.get_running_loop()
    db = ThreadPoolExecutor(1, thread_name_prefix="load-db")  # every ORM call, one connection

    async def orm(fn: Any, *a: Any) -> Any:
        return await loop.run_in_executor(db, fn, *a)

    from django.conf import settings

    stats = Stats()
    setups: list[TableSetup] = []
    listeners: list[Listener] = []
    tasks: list[asyncio.Task[None]] = []
    rematches = 0
    try:
        t = time.monotonic()
        setups = await orm(create_tables, run, n)
        log(f"[{n} tables] run {run}: {n} tables started in {time.monotonic() - t:.1f}s")
        sem = asyncio.Semaphore(args.connect_concurrency)
        for s in setups:
            for seat, cookie in enumerate(s.cookies):
                # Pages spread over the web processes: a table's seats on different ones.
                base = bases[len(listeners) % len(bases)]
                listeners.append(Listener(stats, base, s, seat if seat < 3 else None, cookie))
        t = time.monotonic()
        tasks = [asyncio.create_task(lsn.run(sem)) for lsn in listeners]
        await asyncio.gather(*(lsn.ready.wait() for lsn in listeners))
        log(
            f"[{n} tables] {len(listeners)} listeners connected in {time.monotonic() - t:.1f}s"
            f" ({sum(stats.errors.values())} errors)"
        )
        t = time.monotonic()
        await orm(hand_to_bots, setups, args.level)
        log(f"[{n} tables] seats handed to {args.level} bots in {time.monotonic() - t:.1f}s")
        if args.chat:
            tasks.append(
                asyncio.create_task(
                    chat_poster(stats, bases, setups, listeners, args.chat_every, args.chat_via)
                )
            )
            log(
                f"[{n} tables] chat: one message per table every {args.chat_every:.0f}s"
                f" over {args.chat_via}"
            )
        await asyncio.sleep(args.warmup)

        table_ids = [s.table_id for s in setups]
        cpu = CpuSampler(Path(__file__).resolve().parents[1])  # every 10 s
        cpu_window = CpuSampler(Path(__file__).resolve().parents[1])  # the whole window
        at_start = await orm(game_versions, table_ids)
        stats.t0 = now_ms()
        start = time.monotonic()
        window_errors = sum(stats.errors.values())
        errors_before = window_errors
        next_progress = start + PROGRESS_EVERY
        last_latency_count = 0
        while (elapsed := time.monotonic() - start) < seconds:
            await asyncio.sleep(min(REMATCH_POLL, max(0.0, seconds - elapsed)))
            started, errs = await orm(rematch_finished, setups)
            rematches += started
            for e in errs:
                stats.error(e.split(":")[0])
                log(e)
            if time.monotonic() >= next_progress:
                next_progress += PROGRESS_EVERY
                c = cpu.sample()
                lat = sorted(stats.latencies)
                recent = sorted(stats.latencies[last_latency_count:])
                last_latency_count = len(stats.latencies)
                el = time.monotonic() - start
                depth = await loop.run_in_executor(None, queue_depth)
                log(
                    f"[{n} tables] {el:5.0f}s moves={len(stats.window_versions)}"
                    f" ({len(stats.window_versions) / el:.1f}/s) p99={percentile(lat, 0.99):.0f}ms"
                    f" p99_last10s={percentile(recent, 0.99):.0f}ms"
                    f" max={lat[-1] if lat else math.nan:.0f}ms frames={stats.frames}"
                    f" errors={sum(stats.errors.values()) - errors_before} {depth} cpu[{cpu_text(c)}]"
                )
        window = time.monotonic() - start
        stats.t1 = now_ms()
        cpu_avg = cpu_window.sample()
        at_end = await orm(game_versions, table_ids)

        # Moves stored in the window (a rematch's version 1 is its start, not a move).
        moves = 0
        for gid, (_, version, _) in at_end.items():
            if gid in at_start:
                moves += version - at_start[gid][1]
            else:
                moves += max(0, version - 1)

        # Let the listeners catch up with the versions stored by the end of the window.
        deadline = time.monotonic() + args.catch_up
        while time.monotonic() < deadline:
            behind = sum(
                1
                for lsn in listeners
                for gid, (tid, version, _) in at_end.items()
                if tid == lsn.setup.table_id
                and gid >= lsn.first_game
                and lsn.max_seen(gid) < version
            )
            if not behind:
                break
            await asyncio.sleep(0.1)

        lost = 0
        for lsn in listeners:
            for gid, (tid, version, _) in at_end.items():
                if tid != lsn.setup.table_id or gid < lsn.first_game:
                    continue
                low = lsn.baseline if gid == lsn.first_game else 0
                seen = lsn.seen.get(gid, set())
                lost += sum(1 for v in range(low + 1, version + 1) if v not in seen)

        chat = None
        if args.chat:
            chat = {"posted": float(stats.chat_posted)}
            listeners_of: dict[int, list[Listener]] = {}
            for lsn in listeners:
                listeners_of.setdefault(lsn.setup.table_id, []).append(lsn)
            in_window = [
                (pk, tid)
                for pk, tid, at in await orm(chat_messages, table_ids)
                if stats.t0 <= at <= stats.t1
            ]

            def chat_missing() -> int:
                return sum(
                    1
                    for pk, tid in in_window
                    for lsn in listeners_of.get(tid, [])
                    if pk not in lsn.chat_seen
                )

            deadline = time.monotonic() + args.catch_up  # late frames of the window's end
            while chat_missing() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            chat_lat = sorted(stats.chat_latencies)
            chat.update(
                messages_in_window=float(len(in_window)),
                per_second=len(in_window) / window,
                frames=float(stats.chat_frames),
                duplicates=float(stats.chat_duplicates),
                lost=float(chat_missing()),
                latency_ms_p50=percentile(chat_lat, 0.50),
                latency_ms_p99=percentile(chat_lat, 0.99),
                latency_ms_max=chat_lat[-1] if chat_lat else math.nan,
            )

        # The pause due before each move: after a trick or a hand the bots wait longer.
        pauses = await orm(pauses_after_moves, list(at_end))

        def due(game: int, version: int) -> float:
            """Seconds the bots were due to pause after `version` of `game`."""
            return pauses.get((game, version), settings.BOT_MOVE_DELAY)

        lags = sorted(gap - due(g, v - 1) * 1000 for g, v, gap in stats.gaps)
        paced = [due(g, v - 1) for g, v in stats.window_versions]
        due_pace = sum(paced) / len(paced) if paced else settings.BOT_MOVE_DELAY
        lat = sorted(stats.latencies)
        per_table: dict[int, list[float]] = {}
        for g, _, gap in stats.gaps:
            per_table.setdefault(g, []).append(gap / 1000)
        waits = sorted(sum(gs) / len(gs) for gs in per_table.values())
        return Result(
            tables=n,
            seconds=window,
            moves=moves,
            moves_per_sec=moves / window,
            p50=percentile(lat, 0.50),
            p99=percentile(lat, 0.99),
            max=lat[-1] if lat else math.nan,
            frames=stats.frames,
            errors=sum(stats.errors.values()),
            lost=lost,
            listeners=len(listeners),
            rematches=rematches,
            duplicates=stats.duplicates,
            out_of_order=stats.out_of_order,
            bot_pace=(n * window / moves) if moves else math.nan,
            lag_p50=percentile(lags, 0.50),
            lag_p99=percentile(lags, 0.99),
            pace_limit=due_pace * args.pace_factor,
            cpu=cpu_avg,
            error_kinds=stats.errors,
            table_wait=(percentile(waits, 0.50), waits[-1]) if waits else (math.nan, math.nan),
            chat=chat,
        )
    finally:
        cleaned = False
        if setups:
            try:
                await orm(stop_and_clean, run, setups, args.keep)
                cleaned = True
            except Exception as exc:
                log(f"clean-up failed: {exc}")
        await asyncio.gather(*(lsn.close() for lsn in listeners), return_exceptions=True)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await orm(close_db)
        db.shutdown(wait=True)
        if stats.errors:
            log(f"[{n} tables] errors by kind: {dict(stats.errors.most_common(10))}")
        if cleaned:
            log(f"[{n} tables] games stopped; tables {'kept' if args.keep else 'deleted'}")


def site_urls(arg: str) -> list[str]:
    return [u.strip().rstrip("/") for u in arg.split(",") if u.strip()]


def check_site(url: str) -> None:
    import urllib.request

    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=5) as r:
            if r.status != 200:
                raise RuntimeError(f"HTTP {r.status}")
    except Exception as exc:
        sys.exit(f"the site does not answer at {url}/healthz ({exc}): start it with `make run`")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.live",
        description="Live load benchmark against the processes of `make run`.",
    )
    p.add_argument("--tables", type=int, default=10, help="concurrent tables (default 10)")
    p.add_argument("--seconds", type=float, default=60, help="measured seconds (default 60)")
    p.add_argument(
        "--sweep", default="", help="comma-separated table counts, run in turn, e.g. 25,50,75,100"
    )
    p.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    p.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help="the site's web process(es), comma-separated; the pages are spread over them"
        " (make run-scaled: http://127.0.0.1:8000,http://127.0.0.1:8001)",
    )
    p.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    p.add_argument(
        "--catch-up", type=float, default=3.0, help="seconds to wait for late frames at the end"
    )
    p.add_argument("--connect-concurrency", type=int, default=20)
    p.add_argument(
        "--pace-factor",
        type=float,
        default=1.25,
        help="bots count as at their default pace while seconds per move per table"
        " <= the mean pause due before those moves (BOT_MOVE_DELAY, BOT_TRICK_PAUSE"
        " after a trick, BOT_HAND_PAUSE after a hand) x this (default 1.25)",
    )
    p.add_argument("--pause", type=float, default=5.0, help="seconds between sweep steps")
    p.add_argument(
        "--chat",
        action="store_true",
        help="chat too: a seated player of each table posts a message every --chat-every seconds",
    )
    p.add_argument(
        "--chat-every", type=float, default=30.0, help="seconds between a table's messages (30)"
    )
    p.add_argument(
        "--chat-via",
        choices=["socket", "http"],
        default="socket",
        help="send over the seat's table socket, as the page does (default), or post to the"
        " chat's view, as a page without JavaScript does",
    )
    p.add_argument(
        "--keep", action="store_true", help="keep the load users and tables (games still stopped)"
    )
    args = p.parse_args(argv)

    global COOKIE_NAME
    for url in site_urls(args.url):
        check_site(url)
    django_setup()
    from django.conf import settings

    COOKIE_NAME = settings.SESSION_COOKIE_NAME

    if not args.sweep:
        result = asyncio.run(run_one(args, args.tables, args.seconds))
        print(result.block(), flush=True)
        return 0 if result.holds and result.at_pace else 1

    counts = [int(x) for x in args.sweep.split(",") if x.strip()]
    results = []
    for i, n in enumerate(counts):
        if i:
            time.sleep(args.pause)
        result = asyncio.run(run_one(args, n, args.seconds))
        results.append(result)
        print(result.line(), flush=True)
    holding = [r.tables for r in results if r.holds]
    paced = [r.tables for r in results if r.holds and r.at_pace]
    print(
        f"largest_tables_p99_under_{P99_TARGET_MS:.0f}ms_no_loss: {max(holding) if holding else 'none'}",
        flush=True,
    )
    print(
        f"largest_tables_also_at_default_pace: {max(paced) if paced else 'none'}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
