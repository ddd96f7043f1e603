"""The scaled-out mode as real processes, for the tests: a throw-away
PostgreSQL cluster, a Redis server, two daphne web processes on two ports,
two Celery workers and Celery beat, in production settings (DEBUG=0).

Every process gets its own log under the stack's folder (`var/scaled-<pid>/`),
which a failing test prints. Processes can be killed and started again one by
one, which is what the fault tests do.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from euchre_site import embedded_redis
from euchre_site.embedded_postgres import Cluster

ROOT = Path(__file__).resolve().parents[2]
WORKERS = ("worker1", "worker2")
WEBS = ("web1", "web2")


def wait_for(check: Callable[[], object], timeout: float, what: str, every: float = 0.1) -> object:
    """Poll `check` until it returns something truthy (and return that)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(every)


class Stack:
    def __init__(self, bot_move_delay: float = 0.05) -> None:
        for old in (ROOT / "var").glob("scaled-*"):  # earlier runs' logs, not a live run's
            pid = old.name.removeprefix("scaled-")
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                shutil.rmtree(old, ignore_errors=True)
        self.dir = ROOT / "var" / f"scaled-{os.getpid()}"
        self.dir.mkdir(parents=True)
        self.pg = Cluster(self.dir / "pg", embedded_redis.free_port())
        self.redis_port = embedded_redis.free_port()
        self.ports = {name: embedded_redis.free_port() for name in WEBS}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
        self.env.update(
            DJANGO_SETTINGS_MODULE="euchre_site.settings",
            # Its own collectstatic: another test process may be serving var/staticfiles.
            STATIC_ROOT=str(self.dir / "static"),
            DATABASE_URL=self.pg.url(),
            REDIS_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            DEBUG="0",
            SECRET_KEY="scaled-test-key-" + "x" * 40,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECURE_SSL_REDIRECT="0",  # behind a TLS proxy in production; plain HTTP here
            EMAIL_URL="dummymail://",
            BOT_MOVE_DELAY=str(bot_move_delay),
            BOT_TRICK_PAUSE=str(bot_move_delay),
            BOT_HAND_PAUSE=str(bot_move_delay),
            # Faults heal in seconds here, not in the production's half minute.
            GAME_STALL_SECONDS="2",
            SWEEP_EVERY_SECONDS="1",
            SOCKET_HEARTBEAT_SECONDS="1",
            CELERY_VISIBILITY_TIMEOUT="8",
            PYTHONUNBUFFERED="1",
            BOT_MOVE_LOG="1",  # the tests count the bot moves each worker ran
        )

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self.start_postgres()
        self.pg.create_database()
        self.start_redis()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        for name in WEBS:
            self.start_web(name)
        for name in WORKERS:
            self.start_worker(name)
        self.start_beat()

    def heal(self) -> list[str]:
        """Start again whatever is not running (a test that failed before it
        restarted what it killed), so the next test finds the whole stack.
        The names it started."""
        starts: dict[str, Callable[[], None]] = {
            "postgres": self.start_postgres,
            "redis": self.start_redis,
            **{name: partial(self.start_web, name) for name in WEBS},
            **{name: partial(self.start_worker, name) for name in WORKERS},
            "beat": self.start_beat,
        }
        down = [n for n in starts if n not in self.procs or self.procs[n].poll() is not None]
        for name in down:
            self.procs.pop(name, None)
            starts[name]()
        return down

    def stop(self) -> None:
        """Stop every process; the cluster's files go, the logs stay."""
        for name in list(self.procs):
            self.kill(name, signal.SIGINT if name == "postgres" else signal.SIGTERM)
        shutil.rmtree(self.pg.data_dir, ignore_errors=True)

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.procs[name] = proc
        return proc

    def send(self, name: str, sig: int) -> None:
        """Signal the process and everything it started (prefork children)."""
        os.killpg(self.procs[name].pid, sig)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Stop the process with `sig` and reap it. PostgreSQL gets the signal
        alone: its postmaster shuts the backends down as the signal asks."""
        proc = self.procs.pop(name)
        if proc.poll() is not None:
            return
        try:
            if name == "postgres":
                proc.send_signal(sig)
            else:
                os.killpg(proc.pid, sig)
                if sig != signal.SIGKILL:
                    os.killpg(proc.pid, signal.SIGCONT)  # a stopped process must see it
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            pass

    def log(self, name: str) -> str:
        path = self.dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(
            f"----- {p.name}\n{p.read_text(errors='replace')[-4000:]}"
            for p in sorted(self.dir.glob("*.log"))
        )

    # ------------------------------------------------------------ processes

    def start_postgres(self) -> None:
        # fsync off: a test cluster, thrown away; the scaled-out `make run-scaled` keeps it on.
        self.procs["postgres"] = self.pg.start("-c", "fsync=off", "-c", "full_page_writes=off")

    def start_redis(self) -> None:
        self._spawn("redis", embedded_redis.server_args(self.redis_port, None))
        embedded_redis.wait_until_listening(self.redis_port)

    def start_web(self, name: str) -> None:
        port = self.ports[name]
        self._spawn(name, [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                           "euchre_site.asgi:application"])  # fmt: skip
        embedded_redis.wait_until_listening(port, timeout=30)

    def start_worker(self, name: str) -> None:
        before = self.log(name).count(" ready.")
        self._spawn(name, [sys.executable, "-m", "celery", "-A", "euchre_site", "worker",
                           "--loglevel=INFO", "-n", f"{name}@%h", "--concurrency=1",
                           "--without-gossip", "--without-mingle"])  # fmt: skip
        wait_for(lambda: self.log(name).count(" ready.") > before, 60, f"{name} to be ready")

    def start_beat(self) -> None:
        self._spawn("beat", [sys.executable, "-m", "celery", "-A", "euchre_site", "beat",
                             "--loglevel=INFO", f"--schedule={self.dir / 'beat-schedule'}"])  # fmt: skip

    # ------------------------------------------------------------ helpers

    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip

    def cli(self, *args: str) -> dict[str, Any]:
        """tests/scaled/cli.py on the stack's database; its JSON answer."""
        out = subprocess.run(
            [sys.executable, "-m", "tests.scaled.cli", *args],
            cwd=ROOT, env=self.env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        return dict(json.loads(out.stdout.strip().splitlines()[-1]))

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.ports[name]}"

    def task_runs(self, name: str) -> int:
        """Bot moves this worker has run (its log's succeeded lines)."""
        return sum(
            1
            for line in self.log(name).splitlines()
            if "games.tasks.play_bot_turn[" in line and "succeeded" in line
        )
