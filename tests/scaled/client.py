"""Clients of the scaled-out stack, as a browser page would be one.

`Watcher`: a table page's websocket. It connects to the first web process of
its list that answers and, like htmx-ext-ws, reconnects when the socket closes
(to the next web process when one is gone). It records every (game, version)
it is sent, and which web process each connection went to.

`Player`: the page's forms, posted over HTTP as htmx posts them.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

import requests

FRAME_RE = re.compile(r'data-game="(\d+)" data-version="(\d+)"')
ACTION_RE = re.compile(r'name="action" value=(["\'])(.*?)\1')
CSRF_RE = re.compile(r'"X-CSRFToken": "([^"]+)"')
COOKIE = "sessionid"


class LoopThread:
    """An asyncio loop in a daemon thread, for the watchers of a sync test."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 60) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        asyncio.run_coroutine_threadsafe(coro, self.loop)


class Watcher:
    def __init__(self, urls: list[str], table_id: int, cookie: str) -> None:
        self.urls = urls  # http://host:port of the web processes, preferred first
        self.table_id = table_id
        self.cookie = cookie
        self.seen: dict[int, list[int]] = {}  # game -> versions in the order received
        self.latest_html = ""
        self.connections: list[str] = []  # the web process of each connection
        self.stopping = False
        self.ws: Any = None
        self.changed = threading.Condition()

    def versions(self, game: int) -> list[int]:
        with self.changed:
            return list(self.seen.get(game, []))

    def wait_until(self, game: int, version: int, timeout: float) -> None:
        """Block (test thread) until the page shows `version` of `game` or later."""
        with self.changed:
            ok = self.changed.wait_for(
                lambda: max(self.seen.get(game, [0])) >= version, timeout=timeout
            )
        if not ok:
            raise TimeoutError(
                f"watcher of table {self.table_id} saw {self.seen.get(game)} "
                f"but not version {version} of game {game} within {timeout:.0f}s"
            )

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        attempt = 0
        while not self.stopping:
            base = self.urls[attempt % len(self.urls)]
            try:
                async with connect(
                    "ws" + base[len("http") :] + f"/ws/tables/{self.table_id}/",
                    origin=base,  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"{COOKIE}={self.cookie}"},
                    open_timeout=10,
                    ping_interval=None,
                    max_size=None,
                ) as ws:
                    self.ws = ws
                    self.connections.append(base)
                    async for message in ws:
                        self.on_frame(message if isinstance(message, str) else message.decode())
            except Exception:
                attempt += 1  # that web process is gone or refused: try the next
            if not self.stopping:
                await asyncio.sleep(0.3)

    def on_frame(self, text: str) -> None:
        m = FRAME_RE.search(text[:600])
        if m is None:
            return
        with self.changed:
            self.seen.setdefault(int(m.group(1)), []).append(int(m.group(2)))
            self.latest_html = text
            self.changed.notify_all()

    async def close(self) -> None:
        self.stopping = True
        if self.ws is not None:
            await self.ws.close()


class Player:
    """One seated person's HTTP side, on one web process."""

    def __init__(self, base: str, table_id: int, cookie: str) -> None:
        self.base = base
        self.table_id = table_id
        self.http = requests.Session()
        self.http.cookies.set(COOKIE, cookie)

    def page(self) -> str:
        r = self.http.get(f"{self.base}/tables/{self.table_id}/", timeout=10)
        r.raise_for_status()
        return r.text

    def headers(self) -> dict[str, str]:
        """What htmx sends: the CSRF token of the page, the origin, HX-Request."""
        match = CSRF_RE.search(self.page())
        assert match, "no CSRF token on the table page"
        # Production cookies are Secure; over the test's plain HTTP send it anyway.
        tokens = [c.value for c in self.http.cookies if c.name == "csrftoken"]
        assert tokens, "no CSRF cookie"
        self.http.cookies.set("csrftoken", None)  # drops every cookie of that name
        self.http.cookies.set("csrftoken", tokens[-1])
        return {"X-CSRFToken": match.group(1), "Origin": self.base, "HX-Request": "true"}

    def act(
        self, action: dict[str, Any], version: int, headers: dict[str, str] | None = None
    ) -> requests.Response:
        return self.http.post(
            f"{self.base}/tables/{self.table_id}/act/",
            data={"action": json.dumps(action), "version": str(version)},
            headers=headers or self.headers(),
            timeout=30,
        )


def legal_actions(table_html: str) -> list[dict[str, Any]]:
    """The moves the page offers (its action buttons)."""
    return [json.loads(html.unescape(m.group(2))) for m in ACTION_RE.finditer(table_html)]


def version_of(table_html: str) -> tuple[int, int]:
    m = FRAME_RE.search(table_html)
    assert m, table_html[:300]
    return int(m.group(1)), int(m.group(2))


@dataclass
class LiveTable:
    """A table started on the stack with a watcher on every seat and a spectator."""

    table: int
    game: int
    cookies: list[str]  # seats 0, 1, 2 (people only), then the spectator
    watchers: list[Watcher]

    def final_version(self, stack: Any, timeout: float) -> int:
        """Wait (polling the database) until the game is over; its last version."""
        deadline = time.monotonic() + timeout
        while True:
            state = stack.cli("game", str(self.game))
            if state["status"] == "finished":
                return int(state["version"])
            if time.monotonic() > deadline:
                raise TimeoutError(f"game {self.game} not over after {timeout:.0f}s: {state}")
            time.sleep(0.5)

    def close(self, loop: LoopThread) -> None:
        for w in self.watchers:
            loop.run(w.close())


def open_live_table(stack: Any, loop: LoopThread, spread: list[list[str]]) -> LiveTable:
    """Three people seated (tests/scaled/cli.py `table`); watcher i of the
    seated people, then the spectator, prefers the web processes `spread[i]`."""
    info = stack.cli("table")
    cookies = [p["cookie"] for p in info["players"]] + [info["spectator"]]
    watchers = []
    for cookie, names in zip(cookies, spread, strict=True):
        w = Watcher([stack.url(n) for n in names], int(info["table"]), cookie)
        loop.spawn(w.run())
        watchers.append(w)
    live = LiveTable(int(info["table"]), int(info["game"]), cookies, watchers)
    for w in watchers:
        w.wait_until(live.game, 1, timeout=30)
    return live
