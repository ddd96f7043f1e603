"""A throw-away PostgreSQL cluster on loopback, from Debian's `postgresql`.

Used by the scaled-out mode (`make run-scaled`, the `postgres` process of
Procfile.scaled) and by the scaled-out tests. The cluster lives in a folder of
the project's git-ignored `var/`; `initdb` makes it on first use with a
trust-authenticated superuser `euchre` who can only connect over loopback.

PostgreSQL refuses to run as root: when we are root, its programs run as the
`postgres` system user (Debian's package creates it), who then owns the folder.

    python -m euchre_site.embedded_postgres            # foreground server (honcho)
    python -m euchre_site.embedded_postgres --url      # the DATABASE_URL to use
    python -m euchre_site.embedded_postgres --prepare  # initdb, database, migrate
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from euchre_site.embedded_redis import wait_until_listening

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "var" / "postgres"
DEFAULT_PORT = 5440
SUPERUSER = "euchre"


def bin_dir() -> Path:
    """The newest Debian PostgreSQL's programs, or those on PATH."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    raise RuntimeError(
        "PostgreSQL is not installed: `make postgresql` installs Debian's package "
        "(make test and make run-scaled do so when it is missing)."
    )


def _as_owner(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", *args]
    return args


@dataclass
class Cluster:
    data_dir: Path = DEFAULT_DIR
    port: int = DEFAULT_PORT

    def __post_init__(self) -> None:
        self.data_dir = self.data_dir.resolve()  # the server runs in another directory

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "data"

    @property
    def socket_dir(self) -> Path:
        return self.data_dir / "run"

    def url(self, database: str = "euchre") -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run(_as_owner(list(args)), check=True, stdout=subprocess.DEVNULL)

    def ensure(self) -> None:
        """Create the cluster's folder and run initdb, unless done before."""
        if (self.pgdata / "PG_VERSION").exists():
            return
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.data_dir, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self._run(
            str(bin_dir() / "initdb"),
            "-D",
            str(self.pgdata),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )

    def server_args(self, *extra: str) -> list[str]:
        """Command line of the server: loopback only, sockets in the cluster's folder."""
        return _as_owner(
            [
                str(bin_dir() / "postgres"),
                "-D",
                str(self.pgdata),
                "-p",
                str(self.port),
                "-k",
                str(self.socket_dir),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=200",
                *extra,
            ]
        )

    def start(self, *extra: str) -> subprocess.Popen[bytes]:
        """Start the server in the background (tests); returns once it accepts connections."""
        self.ensure()
        log = open(self.data_dir / "server.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            self.server_args(*extra), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            self.wait_ready()
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        return proc

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Until the server accepts connections (it rejects them while starting up)."""
        deadline = time.monotonic() + timeout
        wait_until_listening(self.port, timeout=timeout)
        check = [str(bin_dir() / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]
        while subprocess.run(check).returncode != 0:
            if time.monotonic() > deadline:
                raise TimeoutError(f"PostgreSQL on port {self.port} did not become ready")
            time.sleep(0.1)

    def create_database(self, name: str = "euchre") -> None:
        """Create the database if it does not exist yet."""
        psql = [str(bin_dir().parent / "bin" / "psql")]
        if not Path(psql[0]).exists():
            psql = ["psql"]
        base = [*psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", "postgres"]
        found = subprocess.run(
            [*base, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        if found != "1":
            subprocess.run(
                [*base, "-c", f'CREATE DATABASE "{name}"'], check=True, stdout=subprocess.DEVNULL
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("EMBEDDED_POSTGRES_PORT", DEFAULT_PORT))
    )
    parser.add_argument("--url", action="store_true", help="print the DATABASE_URL and exit")
    parser.add_argument(
        "--prepare", action="store_true", help="create the cluster and database, migrate, stop"
    )
    args = parser.parse_args()
    cluster = Cluster(args.dir, args.port)
    if args.url:
        print(cluster.url())
        return
    cluster.ensure()
    if args.prepare:
        proc = cluster.start()
        try:
            cluster.create_database()
            subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput"],
                env={**os.environ, "DATABASE_URL": cluster.url()},
                check=True,
            )
        finally:
            proc.terminate()
            proc.wait(timeout=60)
        return
    print(f"embedded postgres on {cluster.url()} (data in {cluster.pgdata})", flush=True)
    sys.stdout.flush()
    server = cluster.server_args()
    os.execvp(server[0], server)


if __name__ == "__main__":
    main()
