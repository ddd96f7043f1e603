"""The bots of another git revision, for the duel tool (`--b git:<rev>`).

A change to a bot is measured against the bot as it was: `git archive`
exports that revision's `games/` to a temporary folder and a child process
runs its bots there (its engine, its search), answering one decision per
line: the current engine's view in, the revision's action out. Each deal's
seat keeps its own random generator in the child, seeded by the same key as
the duel's in-process bots, so the figures follow the seed as before. No
forked bot is kept in the tree.
"""

from __future__ import annotations

import atexit
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from games.engine import HandView

PREFIX = "git:"

_SERVER = """
import json, math, random, sys
from games import bots
from games.bots import hard
hard.CAP_MS = hard.EXPERT_CAP_MS = math.inf
rngs = {}
for line in sys.stdin:
    q = json.loads(line)
    if len(rngs) > 64:
        rngs.clear()
    rng = rngs.get(q["key"])
    if rng is None:
        rng = rngs[q["key"]] = random.Random(q["key"])
    a = bots.choose_action(q["level"], q["view"], rng)
    # An engine Action since issue 23, a dict before.
    print(json.dumps(a.to_dict() if hasattr(a, "to_dict") else dict(a)), flush=True)
"""


def parse(spec: str) -> tuple[str, str] | None:
    """(revision, level) of a "git:<rev>[:<level>]" bot (level hard by default), else None."""
    if not spec.startswith(PREFIX):
        return None
    rev, _, level = spec[len(PREFIX) :].partition(":")
    return rev, level or "hard"


def _export(rev: str) -> Path:
    """That revision's `games/` package, in a new temporary folder."""
    root = Path(__file__).resolve().parents[2]
    tar = subprocess.run(
        ["git", "archive", "--format=tar", rev, "games"], cwd=root, check=True, capture_output=True
    ).stdout
    tmp = Path(tempfile.mkdtemp(prefix=f"bots-{rev}-"))
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(tmp, filter="data")
    return tmp


class RevisionBot:
    """A child process running a git revision's bots."""

    def __init__(self, rev: str, level: str) -> None:
        self.level = level
        self.folder = _export(rev)
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER],
            cwd=self.folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        atexit.register(self.close)

    def choose(self, key: str, view: HandView) -> object:
        """The revision's action for this view, with the generator of `key`:
        the child's JSON, for `Action.from_dict` to check."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"key": key, "level": self.level, "view": view}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bots of {self.folder} stopped")
        got: object = json.loads(line)
        return got

    def close(self) -> None:
        """End the child and remove its copy of the revision."""
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


_BOTS: dict[str, RevisionBot] = {}


def bot(spec: str) -> RevisionBot:
    """The (one per process) child for a "git:<rev>[:<level>]" spec."""
    got = _BOTS.get(spec)
    if got is None:
        parsed = parse(spec)
        assert parsed is not None
        got = _BOTS[spec] = RevisionBot(*parsed)
    return got
