"""A small cast (alice, bob, carol), by-turns games waiting for one of them,
and Celery run in-process (eager) unless a test uses the real worker below."""

from __future__ import annotations

import contextlib
import email
import io
import ipaddress
import shutil
import socket
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from euchre_site.celery import app
from games import services as game_services
from games.models import Game, Table
from tests.conftest import ROOT, celery_conf, start_worker, stop

User = get_user_model()
WORKER_QUEUE = "notifications-test"
VOID_QUEUE = "notifications-test-void"  # games' own tasks go nowhere during these tests


@pytest.fixture(autouse=True)
def eager_celery(eager_celery: None) -> None:
    """Tasks queued by `notify` run inline (tests/django_plugin.py), so
    e-mails land in `mailoutbox`."""


@pytest.fixture(autouse=True)
def _notification_settings(settings: Any) -> None:
    settings.NOTIFY_EMAIL_DELAY = 0
    settings.SITE_URL = "http://testserver"
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_PRIVATE_KEY = ""


@pytest.fixture
def vapid(settings: Any) -> None:
    """The site's keys, made by the management command that the README names."""
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    keys = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.VAPID_PRIVATE_KEY = keys["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = keys["VAPID_PUBLIC_KEY"]
    settings.VAPID_CLAIMS_EMAIL = "admin@example.com"


class FakeDNS(dict[str, list[str]]):
    """Host name -> addresses, what `push_endpoints.resolve` answers in a test.

    A name not in it is not found (as with no network); an IP literal is
    resolved for real (numerically, no look-up)."""


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> FakeDNS:
    from notifications import push_endpoints

    names = FakeDNS()
    real = push_endpoints.resolve

    def resolve(host: str, port: int) -> list[tuple[int, Any]]:
        if host in names:
            return [
                (socket.AF_INET6, (ip, port, 0, 0)) if ":" in ip else (socket.AF_INET, (ip, port))
                for ip in names[host]
            ]
        try:
            ipaddress.ip_address(host)
        except ValueError:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        return real(host, port)

    monkeypatch.setattr(push_endpoints, "resolve", resolve)
    return names


def turns_game(players: list[Any], *, name: str = "Friday table") -> Game:
    """A by-turns game (one hour per move) with `players` in seats 0, 1, 2."""
    table = game_services.table_create(
        owner=players[0],
        name=name,
        rules={},
        target=5,
        mode=Table.Mode.TURNS,
        move_seconds=3600,
        visibility=Table.Visibility.PRIVATE,
    )
    game = None
    for position, user in enumerate(players[1:], start=1):
        game = game_services.table_join(table=table, user=user, position=position)
    assert game is not None
    return Game.objects.select_related("table").get(pk=game.pk)


def game_waiting_for(user: Any, players: list[Any], *, name: str = "Friday table") -> Game:
    """A by-turns game whose first move is `user`'s (deals are random: deal again)."""
    for _ in range(60):
        game = turns_game(players, name=name)
        assert game.to_act is not None
        if game.table.seats.get(position=game.to_act).user_id == user.pk:
            return game
        game.table.delete()
    raise AssertionError("no deal gave the first move to " + str(user))


def notify_turn(user: Any, game: Game) -> Any:
    from notifications.services import notify

    return notify(
        user=user,
        kind="turn",
        game=game,
        params={"table": game.table.name},
        url=game.get_absolute_url(),
        turn_key=f"{game.pk}:{game.version}",
    )


# --------------------------------------------------------------------------- a real worker


class MailDir:
    """The file e-mail backend's folder that the worker writes to."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def clear(self) -> None:
        for f in self.path.glob("*"):
            f.unlink()

    def messages(self) -> list[Message]:
        found = []
        for f in sorted(self.path.glob("*.log"), key=lambda f: f.stat().st_mtime_ns):
            for chunk in f.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    found.append(email.message_from_bytes(chunk))
        return found

    def wait_for(self, count: int, timeout: float = 20) -> list[Message]:
        """Poll until the worker has written `count` messages (the worker's
        real time, not the test's: nothing here depends on the clock)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = self.messages()
            if len(found) >= count:
                return found
            time.sleep(0.05)
        return self.messages()


@pytest.fixture(scope="session")
def notification_worker(
    django_db_setup: None, django_db_blocker: object, redis_url: str
) -> Iterator[MailDir]:
    """A real Celery worker on its own queue whose e-mail backend writes files
    (EMAIL_URL=filemail://...), so a test can read what the worker sent."""
    maildir = ROOT / "var" / "test-mail"
    shutil.rmtree(maildir, ignore_errors=True)
    maildir.mkdir(parents=True)
    proc = start_worker(
        redis_url,
        "notifications-test",
        "--concurrency=1",
        "--pool=solo",
        "-Q",
        WORKER_QUEUE,
        env={"EMAIL_URL": f"filemail:///{maildir}", "SITE_URL": "http://testserver"},
    )
    yield MailDir(maildir)
    stop(proc)


@contextlib.contextmanager
def on_the_worker(maildir: MailDir, *task_patterns: str) -> Iterator[MailDir]:
    """Tasks matching `task_patterns` go to the real worker (not eager), the
    games' own tasks nowhere, while inside; the mail folder starts empty."""
    celery_conf(task_always_eager=False)
    routes = app.conf.task_routes
    _set_routes(
        {
            **{pattern: {"queue": WORKER_QUEUE} for pattern in task_patterns},
            "games.tasks.*": {"queue": VOID_QUEUE},
        }
    )
    maildir.clear()
    try:
        yield maildir
    finally:
        _set_routes(routes)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_purge(VOID_QUEUE)


@pytest.fixture
def worker_mail(notification_worker: MailDir) -> Iterator[MailDir]:
    """Route this test's notification tasks to the real worker (not eager)."""
    with on_the_worker(notification_worker, "notifications.tasks.*") as maildir:
        yield maildir


def _set_routes(routes: Any) -> None:
    # The router is built once and cached; rebuild it from the new table.
    celery_conf(task_routes=routes)
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)
