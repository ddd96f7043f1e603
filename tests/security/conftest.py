"""A real daphne started exactly as the Procfile's `web` line starts it (so a
daphne flag such as --proxy-headers is under test too), on the test database
and Redis, with a small per-user socket limit that the in-process tests share."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from euchre_site import embedded_redis
from tests.conftest import ROOT, service_env, stop
from tests.django_plugin import start_listening

SOCKET_LIMIT = 2  # WEBSOCKETS_PER_USER of the daphne below; tests set the same in-process


def procfile_daphne(procfile: str, process: str, port: int) -> list[str]:
    """The daphne command of `process` in `procfile`, on `port`."""
    for line in (ROOT / procfile).read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            args = shlex.split(command.replace("${WEB_PORT:-8000}", "8000"))
            assert args[0] == "daphne", line
            args[args.index("-p") + 1] = str(port)
            return [sys.executable, "-m", "daphne", *args[1:]]
    raise AssertionError(f"no {process} in {procfile}")


@dataclass
class Daphne:
    url: str
    port: int


@pytest.fixture(scope="session")
def procfile_web(django_db_setup: None, redis_url: str) -> Iterator[Daphne]:
    port = embedded_redis.free_port()
    env = {k: v for k, v in service_env(redis_url).items() if k != "TRUSTED_PROXIES"}
    env.update(WEBSOCKETS_PER_USER=str(SOCKET_LIMIT))
    log = open(ROOT / "var" / "test-security-daphne.log", "wb")  # noqa: SIM115
    proc = start_listening(procfile_daphne("Procfile", "web", port), port, env, log)
    yield Daphne(f"http://127.0.0.1:{port}", port)
    stop(proc)
    log.close()
