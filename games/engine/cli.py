"""The engine's command line: replay records, benchmark random hands."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TextIO

from .game import Replayed, replay_game
from .hand import apply, legal_actions, new_hand
from .records import HandReplayError, replay_hand
from .rules import Rules


def replay_any(record: object) -> Replayed:
    """Replay a hand or a game record, as its `format` says."""
    if isinstance(record, dict) and "format" not in record and "record" in record:
        # A line of the spec's example files: {"record": ..., "expect": ...}.
        record = record["record"]
    if isinstance(record, dict) and record.get("format") == "euchre3-game/1":
        return replay_game(record)
    return replay_hand(record)


def _not_json(reason: str) -> HandReplayError:
    return {"error": {"index": None, "action": None, "reason": f"not JSON: {reason}"}}


def _records(text: str, whole_first: bool) -> Iterator[object]:
    """Records of a .json file (one value, or a list of them) or of JSON lines."""
    if whole_first:
        try:
            value = json.loads(text)
        except ValueError:
            pass
        else:
            if isinstance(value, list):
                yield from value
            else:
                yield value
            return
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError as e:
            yield _NotJson(str(e))


class _NotJson:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def replay_files(paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Answer every record of every file with one JSON line; 2 if a file cannot be read."""
    status = 0
    for path in paths:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print(f"cannot read {path}: {e}", file=err)
            status = 2
            continue
        whole = not path.endswith(".jsonl")
        for rec in _records(text, whole):
            res = _not_json(rec.reason) if isinstance(rec, _NotJson) else replay_any(rec)
            out.write(json.dumps(res) + "\n")
        out.flush()
    return status


def bench_engine(seconds: float, seed: int = 1, deck: str = "24") -> float:
    """Random full hands per second through the public API (bidding included)."""
    rng = random.Random(seed)
    rules = Rules(deck=deck)
    rand = rng.random
    hands = 0
    dealer = 0
    # CPU time of this process: the rate on one core, even when the machine is busy.
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            s = new_hand(rules, dealer, rng)
            while not s.over:
                acts = legal_actions(s)
                # Uniform pick; int(random() * n) is cheaper than rng.choice.
                s = apply(s, acts[int(rand() * len(acts))])
            hands += 1
            dealer = (dealer + 1) % 3
        now = time.process_time()
        if now >= deadline:
            return hands / (now - start)


def bench_openspiel(seconds: float, seed: int = 1) -> float | None:
    """OpenSpiel's (four-handed) euchre with random legal actions: deals per second."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    # CPU time of this process: the rate on one core, even when the machine is busy.
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            st = game.new_initial_state()
            while not st.is_terminal():
                if st.is_chance_node():
                    outcomes = st.chance_outcomes()
                    st.apply_action(choice(outcomes)[0])
                else:
                    st.apply_action(choice(st.legal_actions()))
            deals += 1
        now = time.process_time()
        if now >= deadline:
            return deals / (now - start)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m games.engine`."""
    p = argparse.ArgumentParser(prog="python -m games.engine")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("replay", help="replay hand/game records, one JSON result a line")
    r.add_argument("files", nargs="+", help=".json, .jsonl, or - for stdin")
    b = sub.add_parser("bench", help="random full hands per second")
    b.add_argument("--seconds", type=float, default=5.0)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--deck", choices=("24", "32", "25"), default="24")
    b.add_argument("--compare-openspiel", action="store_true")
    a = p.parse_args(argv)
    if a.cmd == "replay":
        return replay_files(a.files, sys.stdout, sys.stderr)
    if a.compare_openspiel:
        os_rate = bench_openspiel(a.seconds, a.seed)
        if os_rate is None:
            print("openspiel: pyspiel is not importable; skipped")
        else:
            print(f"openspiel_random_deals_per_sec: {os_rate:.0f}")
    rate = bench_engine(a.seconds, a.seed, a.deck)
    print(f"random_hands_per_sec: {rate:.0f}", flush=True)
    return 0
