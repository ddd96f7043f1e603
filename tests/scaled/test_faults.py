"""Faults in the scaled-out mode, with real processes: a worker killed while it
holds a bot move, Redis restarted, a web process killed, PostgreSQL stopped.
Each test brings the stack back whole before it ends."""

from __future__ import annotations

import signal
import time

import pytest

from .client import LiveTable, LoopThread, Player, Watcher, legal_actions, open_live_table
from .stack import Stack, wait_for
from .test_scaled import SPREAD, assert_every_page_saw_every_move, assert_record_replays

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("show_logs_on_failure")]

# The outage itself: long enough for moves to be due while the service is away.
OUTAGE_SECONDS = 2.0


def wait_for_stall(watcher: Watcher, game: int, quiet: float, timeout: float) -> int:
    """The version at which the page stops changing for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        seen = watcher.versions(game)
        version = seen[-1] if seen else 0
        if version != last:
            last, since = version, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return version
        time.sleep(0.05)
    raise TimeoutError(f"game {game} never stalled")


def playing_past(live: LiveTable, version: int) -> None:
    live.watchers[-1].wait_until(live.game, version, timeout=60)


def sweeps_that_resumed_a_game(stack: Stack) -> int:
    return sum(
        1
        for name in ("worker1", "worker2")
        for line in stack.log(name).splitlines()
        if "sweep_stalled_games[" in line and "succeeded" in line and not line.endswith(": 0")
    )


def test_a_worker_killed_while_it_holds_a_bot_move(stack: Stack, loop: LoopThread) -> None:
    live = open_live_table(stack, loop, spread=SPREAD)
    stack.cli("autopilot", str(live.table))
    playing_past(live, 5)
    resumed_before = sweeps_that_resumed_a_game(stack)
    # Frozen, worker1 keeps whatever it took from the queue: soon the game's next
    # bot move, and the game stops there. Then it dies without a word.
    stack.send("worker1", signal.SIGSTOP)
    stalled = wait_for_stall(live.watchers[-1], live.game, quiet=1.0, timeout=30)
    stack.kill("worker1", signal.SIGKILL)
    # worker2 goes on once the sweeper has queued the held move again.
    playing_past(live, stalled + 1)
    stack.start_worker("worker1")  # its late-acknowledged message, if any, is a no-op now

    final = live.final_version(stack, timeout=180)
    assert_every_page_saw_every_move(live, final)
    assert_record_replays(stack, live)
    assert sweeps_that_resumed_a_game(stack) > resumed_before
    live.close(loop)


def test_redis_restarted_mid_game(stack: Stack, loop: LoopThread) -> None:
    """Redis comes back empty: queued bot moves, frames in flight and presence
    are gone. Stored moves are not; pages resync and the game goes on."""
    live = open_live_table(stack, loop, spread=SPREAD)
    stack.cli("autopilot", str(live.table))
    playing_past(live, 5)
    stack.kill("redis", signal.SIGKILL)
    time.sleep(OUTAGE_SECONDS)
    before = int(stack.cli("game", str(live.game))["version"])
    stack.start_redis()

    final = live.final_version(stack, timeout=180)
    assert final > before
    for i, w in enumerate(live.watchers):
        w.wait_until(live.game, final, timeout=30)
        seen = w.versions(live.game)
        assert seen == sorted(set(seen)), f"page {i} went back or twice: {seen}"
        # Live again, not just healed by heartbeats: every move of the end of the game.
        assert seen[-10:] == list(range(final - 9, final + 1)), f"page {i}: {seen}"
    assert_record_replays(stack, live)
    live.close(loop)


def test_a_web_process_killed_mid_game(stack: Stack, loop: LoopThread) -> None:
    live = open_live_table(stack, loop, spread=SPREAD)
    on_web1 = [w for w in live.watchers if w.connections[0] == stack.url("web1")]
    stack.cli("autopilot", str(live.table))
    playing_past(live, 5)
    stack.kill("web1", signal.SIGKILL)
    wait_for(
        lambda: all(w.connections[-1] == stack.url("web2") for w in on_web1),
        20,
        "the pages of web1 to reconnect to web2",
    )

    final = live.final_version(stack, timeout=180)
    for i, w in enumerate(live.watchers):
        w.wait_until(live.game, final, timeout=30)
        seen = w.versions(live.game)
        if w in on_web1:  # moves made while it reconnected come in its new snapshot
            assert seen == sorted(set(seen)), f"page {i}: {seen}"
        else:
            assert seen == list(range(seen[0], final + 1)), f"page {i}: {seen}"
    assert_record_replays(stack, live, web="web2")
    stack.start_web("web1")
    live.close(loop)


def test_postgresql_briefly_unavailable(stack: Stack, loop: LoopThread) -> None:
    live = open_live_table(stack, loop, spread=SPREAD)
    to_act = int(stack.cli("game", str(live.game))["to_act"])
    player = Player(stack.url("web1"), live.table, live.cookies[to_act])
    headers = player.headers()
    action = legal_actions(live.watchers[to_act].latest_html)[0]

    stack.kill("postgres", signal.SIGINT)  # fast shutdown: every session is cut
    try:
        response = player.act(action, 1, headers)
        assert response.status_code == 503
        assert "cannot reach its database" in response.text
        assert "your move was not made" in response.text
        page = player.http.get(f"{player.base}/tables/{live.table}/", timeout=10)
        assert page.status_code == 503 and "Back in a moment" in page.text
    finally:
        stack.start_postgres()

    assert stack.cli("game", str(live.game))["version"] == 1  # nothing half-written
    response = player.act(action, 1, headers)
    assert response.status_code == 200 and 'data-version="2"' in response.text
    for w in live.watchers:
        w.wait_until(live.game, 2, timeout=15)
        assert w.versions(live.game) == [1, 2]
    live.close(loop)
