"""Hints cannot slow anybody down (issue 21): the search runs in the Celery
worker, never in the web process; its answer comes over the table's socket
to the asking seat only, never as a stale hint; it is cached by position
(not by the game's version, which autopilot moves); and each player has one
hint on its way at a time and HINT_RATE asks.

The worker tests use the real worker process and Redis (the `celery_worker`
fixture); the limits are checked with the queued tasks recorded instead."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from euchre_site import push
from games import bots, groups, hints, services
from games.models import Game, Table

from .conftest import open_table, play_one, players, to_act
from .test_views import HTMX, logged_in
from .wsclient import acommunicator

pytestmark = pytest.mark.django_db

INBOX = re.compile(r'<template id="hint-inbox" hx-swap-oob="true" data-for="(\d+)-(\d+)">')


def hint_table(alice: Any, bob: Any, carol: Any, name: str = "Learners") -> Table:
    table = open_table(alice, name=name, hints=True)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    return table


@pytest.fixture
def hint_game(alice: Any, bob: Any, carol: Any) -> Game:
    return hint_table(alice, bob, carol).games.select_related("table").get()


def ask(client: Client, game: Game, version: int) -> Any:
    return client.post(
        reverse("games:hint", args=[game.table_id]), {"version": str(version)}, headers=HTMX
    )


def the_asker(game: Game) -> Any:
    return players(game.table)[to_act(game)]


@pytest.fixture
def no_search_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search, in this (the web) process, fails the test: only the worker may run it."""

    def searched(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the hint search ran in the web process")

    monkeypatch.setattr(bots, "analyse", searched)
    monkeypatch.setattr(hints, "compute", searched)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The hint tasks queued, recorded instead of sent (no worker)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(hints.compute_hint, "delay", lambda *args: calls.append(args))
    return calls


def version_of(html: str) -> int:
    match = re.search(r'data-version="(\d+)"', html)
    assert match, html[:200]
    return int(match.group(1))


# --- through the real worker -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_web_process_only_queues_and_the_hint_comes_to_the_asking_seat_alone(
    hint_game: Game, outsider: Any, celery_worker: Any, no_search_here: None
) -> None:
    game = hint_game
    asker = the_asker(game)
    seated = players(game.table)
    others = [u for u in seated.values() if u != asker] + [outsider]  # two seats, a spectator
    url = f"/ws/tables/{game.table_id}/"

    async def run() -> None:
        mine = await acommunicator(url, asker)
        theirs = [await acommunicator(url, u) for u in others]
        for ws in [mine, *theirs]:
            assert (await ws.connect())[0]
            assert version_of(await ws.receive_from(timeout=5)) == 1
        response = await sync_to_async(lambda: ask(logged_in(asker), game, 1))()
        # Answered at once, without the search (no_search_here), with "Thinking…".
        assert response.status_code == 200
        html = response.content.decode()
        assert "Thinking…" in html and "hint-box" not in html
        # The worker's answer, over the asking player's socket.
        frame = await mine.receive_from(timeout=30)
        match = INBOX.search(frame)
        assert match and (int(match[1]), int(match[2])) == (game.pk, 1), frame[:300]
        assert 'class="hint-box"' in frame and "deals the bot imagined" in frame
        # Then a move of the version (another seat's autopilot): every other
        # socket's next frame is that table, no hint before it.
        bob_or_carol = next(u for u in others if u != outsider)
        table = await sync_to_async(Table.objects.get)(pk=game.table_id)
        await sync_to_async(services.seat_set_autopilot)(
            table=table, user=bob_or_carol, level="easy"
        )
        for ws in [mine, *theirs]:
            frame = await ws.receive_from(timeout=10)
            assert "hint-inbox" not in frame and version_of(frame) == 2
        for ws in [mine, *theirs]:
            await ws.disconnect()

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_the_hint_is_cached_by_position_across_an_autopilot_toggle(
    hint_game: Game, celery_worker: Any, no_search_here: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Autopilot on and off moves the game's version twice and the position not
    at all: asking again is answered from the cache, with nothing queued."""
    game = hint_game
    asker = the_asker(game)
    seat = to_act(game)

    async def first_hint() -> str:
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", asker)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        assert (await sync_to_async(lambda: ask(logged_in(asker), game, 1))()).status_code == 200
        frame = await ws.receive_from(timeout=30)
        await ws.disconnect()
        return frame

    frame = async_to_sync(first_hint)()
    pushed = re.search(r"<strong>(.*?)</strong>", frame)
    assert pushed, frame[:300]
    # In one transaction, so the bot move that "on" queues finds the game moved on.
    with transaction.atomic():
        services.seat_set_autopilot(table=game.table, user=asker, level="expert")
        services.seat_set_autopilot(table=game.table, user=asker, level="")
    game.refresh_from_db()
    assert game.version == 3 and to_act(game) == seat  # the same position

    def not_queued(*args: Any) -> None:
        raise AssertionError("a cached position was queued again")

    monkeypatch.setattr(hints.compute_hint, "delay", not_queued)
    response = ask(logged_in(asker), game, 3)
    assert response.status_code == 200
    box = re.search(
        r'<section class="hint-box" data-hint="(\d+)-(\d+)".*?</section>',
        response.content.decode(),
        re.S,
    )
    assert box is not None and box[2] == "3"
    assert f"<strong>{pushed[1]}</strong>" in box[0]


# --- the limits and stale hints (the queued tasks recorded, or run here) ----------------


def test_one_hint_on_its_way_per_player_even_across_tables(
    alice: Any, bob: Any, carol: Any, queued: list[tuple[Any, ...]]
) -> None:
    first = hint_table(alice, bob, carol).games.select_related("table").get()
    asker = the_asker(first)
    second = hint_table(alice, bob, carol, name="Second").games.select_related("table").get()
    rng = random.Random(3)
    while the_asker(second) != asker:
        play_one(second, rng, prefer="pass")
        second.refresh_from_db()
    assert ask(logged_in(asker), first, 1).status_code == 200
    assert len(queued) == 1
    # The same position again: still on its way, nothing more queued.
    again = ask(logged_in(asker), first, 1)
    assert again.status_code == 200 and "Thinking…" in again.content.decode()
    # Another position meanwhile (another table): refused, nothing queued.
    refused = ask(logged_in(asker), second, second.version)
    assert refused.status_code == 429
    assert "still being worked out" in refused.content.decode()
    assert len(queued) == 1
    # The worker's job done (run here), the next one may go.
    assert hints.compute_hint(*queued[0]) == "pushed"
    assert ask(logged_in(asker), second, second.version).status_code == 200
    assert len(queued) == 2 and queued[1][0] == second.pk


def test_over_the_hint_rate_a_clear_message_and_nothing_queued(
    hint_game: Game, queued: list[tuple[Any, ...]], settings: Any
) -> None:
    settings.HINT_RATE = "3/d"  # a day: a minute's window could turn over mid-test
    asker = the_asker(hint_game)
    client = logged_in(asker)
    for _ in range(3):
        assert ask(client, hint_game, 1).status_code == 200
    assert len(queued) == 1  # one queued, then on its way
    hints.compute_hint(*queued[0])
    over = ask(client, hint_game, 1)
    assert over.status_code == 429
    html = over.content.decode()
    assert "You have asked for many hints in a short time" in html
    assert "hint-box" not in html and len(queued) == 1  # not even the cached answer
    # Each player has their own count: another's ask gets past it (and is
    # then refused as not their turn).
    bob_or_carol = next(u for u in players(hint_game.table).values() if u != asker)
    assert ask(logged_in(bob_or_carol), hint_game, 1).status_code == 409


def test_a_hint_for_a_position_gone_is_neither_worked_out_nor_pushed(
    hint_game: Game, queued: list[tuple[Any, ...]], no_search_here: None
) -> None:
    asker = the_asker(hint_game)
    assert ask(logged_in(asker), hint_game, 1).status_code == 200
    play_one(hint_game, random.Random(1), prefer="pass")  # they moved before the worker began
    assert hints.compute_hint(*queued[0]) == "moved on"  # and no search (no_search_here)
    # Their next hint is free to go.
    hint_game.refresh_from_db()
    nxt = the_asker(hint_game)
    assert ask(logged_in(nxt), hint_game, hint_game.version).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_socket_forwards_a_hint_only_to_its_asker_and_never_behind_its_page(
    hint_game: Game,
) -> None:
    """The socket's own check, whatever reaches the seat's group: a hint of an
    older version, or for another user, is dropped; the page's own is sent."""
    game = hint_game
    asker = the_asker(game)
    seat = to_act(game)
    other = next(u for u in players(game.table).values() if u != asker)
    hint = {"action": {"type": "pass"}, "share": 1.0, "reasons": [], "dealer": 0, "up_suit": "H"}

    async def run() -> None:
        table = await sync_to_async(Table.objects.get)(pk=game.table_id)
        ws = await acommunicator(f"/ws/tables/{game.table_id}/", asker)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)
        await sync_to_async(services.seat_set_autopilot)(table=table, user=asker, level="")
        assert version_of(await ws.receive_from(timeout=5)) == 2
        group = groups.game_group(game.pk, seat)

        def event(game_id: int, version: int, user_id: int) -> dict[str, Any]:
            return {"type": "hint.ready", "game": game_id, "version": version,
                    "user": user_id, "hint": hint}  # fmt: skip

        # In one trip, in this order: had any of the first three come through,
        # it would come before the last.
        await sync_to_async(push.send)([
            (group, event(game.pk, 1, asker.pk)),  # behind the page (version 2)
            (group, event(game.pk, 2, other.pk)),  # somebody else's
            (group, event(game.pk + 1, 2, asker.pk)),  # another game's
            (group, event(game.pk, 2, asker.pk)),
        ])  # fmt: skip
        match = INBOX.search(await ws.receive_from(timeout=5))
        assert match and (int(match[1]), int(match[2])) == (game.pk, 2)
        await ws.disconnect()

    async_to_sync(run)()


def test_a_spectator_or_a_stranger_gets_no_hint(hint_game: Game, queued: list[Any]) -> None:
    stranger = get_user_model().objects.create_user("dave", "d@example.com", "pw-dave-123")
    assert ask(logged_in(stranger), hint_game, 1).status_code == 403
    assert not queued
