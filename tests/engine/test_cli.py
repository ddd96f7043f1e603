"""`python -m games.engine replay` and `bench`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .helpers import full_deal, record

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


HAND = record(full_deal({}, "AS"), 0, [{"seat": x, "type": "pass"} for x in (1, 2, 0) * 2])
GAME = {"format": "euchre3-game/1", "target": 5, "rules": {}, "first_dealer": 0, "hands": [HAND]}
BAD = record(full_deal({}, "AS"), 0, [{"seat": 2, "type": "pass"}])


def test_replay_json_and_jsonl_files_mixed(tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(HAND, indent=2))
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(json.dumps(r) for r in (GAME, BAD, HAND)) + "\n\n")
    p = run("replay", str(one), str(many))
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 4
    assert lines[0]["thrown_in"] is True
    assert lines[1] == {"scores": [0, 0, 0], "hands": 1, "over": False, "winner": None,
                        "next_dealer": 1}  # fmt: skip
    assert lines[2]["error"]["index"] == 0
    assert lines[3] == lines[0]


def test_replay_stdin_and_bad_lines() -> None:
    p = run("replay", "-", stdin=json.dumps(HAND) + "\nnot json\n" + json.dumps([1]) + "\n")
    assert p.returncode == 0
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["complete"] is True
    assert lines[1]["error"]["index"] is None and lines[2]["error"]["index"] is None


def test_replay_unreadable_file_exits_2(tmp_path: Path) -> None:
    ok = tmp_path / "ok.jsonl"
    ok.write_text(json.dumps(HAND) + "\n")
    p = run("replay", str(tmp_path / "missing.jsonl"), str(ok))
    assert p.returncode == 2
    assert len(p.stdout.splitlines()) == 1 and "missing" in p.stderr


def test_bench_prints_rate_last() -> None:
    p = run("bench", "--seconds", "0.2")
    assert p.returncode == 0, p.stderr
    last = p.stdout.strip().splitlines()[-1]
    assert last.startswith("random_hands_per_sec: ") and int(last.split()[-1]) > 0
