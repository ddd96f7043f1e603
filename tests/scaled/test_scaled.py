"""The scaled-out mode: PostgreSQL, Redis, two daphne processes, two Celery
workers and beat, as separate processes in production settings."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

from games import engine

from .client import LiveTable, LoopThread, Player, legal_actions, open_live_table
from .stack import WEBS, WORKERS, Stack

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("show_logs_on_failure")]

# Seats 0, 1, 2 and the spectator: each page's preferred web process first.
SPREAD = [["web1", "web2"], ["web2", "web1"], ["web1", "web2"], ["web2", "web1"]]


def assert_every_page_saw_every_move(live: LiveTable, final: int) -> None:
    for i, w in enumerate(live.watchers):
        w.wait_until(live.game, final, timeout=30)
        seen = w.versions(live.game)
        assert seen == list(range(seen[0], final + 1)), f"page {i} saw {seen}"


def assert_record_replays(stack: Stack, live: LiveTable, web: str = "web1") -> dict[str, Any]:
    """The finished game's record, downloaded from the site, replays cleanly."""
    player = Player(stack.url(web), live.table, live.cookies[0])
    response = player.http.get(f"{player.base}/games/{live.game}/record.json", timeout=10)
    assert response.status_code == 200, response.text[:300]
    result = engine.replay_game(response.json())
    assert "error" not in result, result
    return dict(result)


def test_a_game_across_two_web_processes_and_two_workers(stack: Stack, loop: LoopThread) -> None:
    runs_before = {w: stack.task_runs(w) for w in WORKERS}
    live = open_live_table(stack, loop, spread=SPREAD)
    for w, names in zip(live.watchers, SPREAD, strict=True):
        assert w.connections == [stack.url(names[0])]
    assert {w.connections[0] for w in live.watchers} == {stack.url(n) for n in WEBS}
    stack.cli("autopilot", str(live.table))  # the bots play every seat from here

    final = live.final_version(stack, timeout=180)
    assert_every_page_saw_every_move(live, final)
    assert_record_replays(stack, live)
    runs = {w: stack.task_runs(w) - runs_before[w] for w in WORKERS}
    assert all(n > 0 for n in runs.values()), f"bot moves per worker: {runs}"
    assert sum(runs.values()) >= final - 5
    live.close(loop)


def test_twenty_simultaneous_submissions_of_one_move_apply_it_once(
    stack: Stack, loop: LoopThread
) -> None:
    """On PostgreSQL (row locks) and across both web processes: the same move
    at the same version 20 times, and a move by a seat whose turn it is not."""
    live = open_live_table(stack, loop, spread=SPREAD)
    to_act = int(stack.cli("game", str(live.game))["to_act"])
    other = (to_act + 1) % 3
    players = [Player(stack.url(WEBS[i % 2]), live.table, live.cookies[to_act]) for i in range(20)]
    headers = [p.headers() for p in players]  # each its own CSRF cookie and token
    action = legal_actions(live.watchers[to_act].latest_html)[0]
    intruder = Player(stack.url("web2"), live.table, live.cookies[other])
    intruder_headers = intruder.headers()
    gate = threading.Barrier(21)
    answers: list[Any] = [None] * 21

    def submit(i: int) -> None:
        gate.wait()
        if i == 20:
            answers[i] = intruder.act(action, 1, intruder_headers)
        else:
            answers[i] = players[i].act(action, 1, headers[i])

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(21)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    # One applies it; the others learn the table moved on (409, with the table).
    codes = sorted(a.status_code for a in answers if a is not None)
    assert codes == [200] + [409] * 20, codes
    state = stack.cli("game", str(live.game))
    assert state["version"] == 2
    stale = "The table changed before your move arrived"
    assert sum(stale in a.text for a in answers[:20]) == 19
    for w in live.watchers:
        w.wait_until(live.game, 2, timeout=15)
        assert w.versions(live.game) == [1, 2]
    refusals = re.findall(r'<p class="message error" role="alert">(.*?)</p>', answers[20].text)
    assert refusals in (
        ["The table changed before your move arrived; here it is as it stands now."],
        ["It is not your turn."],
    ), refusals
    live.close(loop)
