"""Where the running worker's CPU goes (not a test): py-spy on every process
of the Celery worker of a `make run` (its parent and its pool), while
something plays (`python -m benchmarks.live` in another terminal).

    make run                                        # terminal 1
    .venv/bin/python -m benchmarks.live --tables 60 --seconds 120   # terminal 2
    .venv/bin/python -m benchmarks.worker_profile --seconds 30      # terminal 3

For `make run-scaled` (two workers) every worker is sampled; set
DATABASE_URL as for the load tool, so the moves are counted in its database.

It runs `py-spy record --subprocesses --nonblocking` (100 samples a second,
idle samples left out, so a sample is time on a CPU or waiting for one) on
each worker's root process, counts the moves stored meanwhile (the games'
versions in the database) and reads the workers' CPU time from /proc. Each
sample is put in the first bucket (`BUCKETS`, in order) that one of its
frames matches; the table gives each bucket's share of the samples and, from
the CPU time per move, its milliseconds per move.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks.live import CpuSampler, django_setup

ROOT = Path(__file__).resolve().parent.parent

# (bucket, markers): a sample goes to the first bucket one of whose markers is
# in one of its frames (py-spy's "function (file.py:line)").
BUCKETS: list[tuple[str, tuple[str, ...]]] = [
    ("table context (presenters)", ("table_context (games/presenters.py",)),
    ("table template", ("render_to_string (django/template/loader.py", "render (games/felt.py")),
    ("push to the channel layer", ("euchre_site/push.py", "channels_redis/", "channels/layers")),
    ("bot decision", ("choose_action (games/bots/__init__.py",)),
    ("engine (state, views)", ("games/engine/",)),
    ("queue the next task", ("apply_async (celery/app/task.py",)),
    ("database", ("execute_sql (django/db/models/sql/compiler.py", "sqlite3", "psycopg")),
    ("cache (Redis)", ("django/core/cache/backends/redis.py",)),
    ("rest of the task", ("play_bot_turn (games/tasks.py", "__protected_call__")),
    ("logging", ("logging/__init__.py",)),
    ("celery in the pool process", ("Worker.workloop (billiard/pool.py",)),
    ("celery's parent (messages, timers, pool)", ("",)),
]


def worker_roots() -> dict[int, str]:
    """The root process of each worker of the `make run` (or run-scaled) of
    this checkout: those whose parent is not a worker too."""
    found = CpuSampler(ROOT)._processes()  # pid -> label
    workers = {pid for pid, label in found.items() if label == "worker"}
    roots = {}
    for pid in workers:
        stat = Path(f"/proc/{pid}/stat").read_text()
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent not in workers:
            roots[pid] = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    return roots


def stored_moves() -> int:
    from django.db.models import Sum

    from games.models import Game

    return int(Game.objects.aggregate(n=Sum("version"))["n"] or 0)


def bucket_of(stack: str) -> str:
    for name, markers in BUCKETS:
        if any(m in stack for m in markers):
            return name
    return BUCKETS[-1][0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--rate", type=int, default=100, help="samples a second (default 100)")
    p.add_argument("--raw", metavar="DIR", help="keep py-spy's raw stacks there")
    args = p.parse_args(argv)

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy is not installed (make install: it is a dev dependency)", file=sys.stderr)
        return 2
    roots = worker_roots()
    if not roots:
        print("no Celery worker of this checkout is running (make run)", file=sys.stderr)
        return 2
    django_setup()
    out_dir = Path(args.raw) if args.raw else Path(tempfile.mkdtemp(prefix="worker-profile-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    cpu = CpuSampler(ROOT)
    before = stored_moves()
    spies = [
        subprocess.Popen(
            [
                spy,
                "record",
                "--subprocesses",
                "--nonblocking",
                "-p",
                str(pid),
                "-d",
                str(int(args.seconds)),
                "-r",
                str(args.rate),
                "-f",
                "raw",
                "-o",
                str(out_dir / f"worker-{pid}.txt"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid in roots
    ]
    t0 = time.monotonic()
    for s in spies:
        s.wait()
    elapsed = time.monotonic() - t0
    used = cpu.sample()  # % of a core over the window, per label
    moves = stored_moves() - before

    samples: Counter[str] = Counter()
    for path in out_dir.glob("worker-*.txt"):
        for line in path.read_text(errors="replace").splitlines():
            stack, _, n = line.rpartition(" ")
            if n.isdigit():
                samples[bucket_of(stack)] += int(n)
    total = sum(samples.values())
    worker_cpu_s = used.get("worker", 0.0) / 100 * elapsed
    per_move = 1000 * worker_cpu_s / moves if moves else float("nan")
    print(f"workers: {len(roots)} ({', '.join(str(pid) for pid in roots)}); {elapsed:.0f} s")
    print(f"moves stored: {moves} ({moves / elapsed:.1f}/s)")
    print(f"worker CPU: {used.get('worker', 0.0):.0f}% of a core, {per_move:.1f} ms per move")
    print(f"samples: {total} (raw stacks in {out_dir})")
    print(f"{'':44} {'share':>6} {'ms/move':>8}")
    for name, _ in BUCKETS:
        share = samples[name] / total if total else 0.0
        print(f"{name:44} {share:6.1%} {share * per_move:8.2f}")
    if not args.raw:
        shutil.rmtree(out_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
