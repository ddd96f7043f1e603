"""The pause before the site moves for a bot (or plays a player's only card):
in a live game longer after a completed trick (BOT_TRICK_PAUSE: the table
names its winner) and after a hand (BOT_HAND_PAUSE: the hand's result stays
on the felt), BOT_MOVE_DELAY otherwise; in a by-turns game always
BOT_MOVE_DELAY. Observed as Celery publishes the tasks to the broker."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from celery.signals import before_task_publish
from django.utils import timezone

from games import engine, services, tasks
from games.models import Game, Table

from .conftest import open_table, play_one, players, state_of

pytestmark = pytest.mark.django_db

# Distinct, and far enough off that no worker of the session runs such a task
# before it is revoked and taken off the queue at the end of the test.
MOVE, TRICK, HAND = 101, 202, 303
MOVE_TASKS = {tasks.play_bot_turn.name, tasks.play_only_card.name}


@dataclass(frozen=True)
class Published:
    task: str
    args: tuple[Any, ...]
    countdown: int  # whole seconds from its publication to its ETA


@pytest.fixture(autouse=True)
def _paces(settings: Any) -> None:
    settings.BOT_MOVE_DELAY, settings.BOT_TRICK_PAUSE, settings.BOT_HAND_PAUSE = MOVE, TRICK, HAND


@pytest.fixture
def published() -> Iterator[list[Published]]:
    """Every task published while the test runs. Afterwards they are revoked and
    taken off the broker's queue: no worker plays a move of a test's game."""
    from euchre_site.celery import app

    sent: list[Published] = []
    ids: list[str] = []

    def record(sender: Any = None, headers: Any = None, body: Any = None, **kw: Any) -> None:
        ids.append(headers["id"])
        eta = headers.get("eta")
        seconds = (
            (datetime.datetime.fromisoformat(eta) - timezone.now()).total_seconds() if eta else 0
        )
        sent.append(Published(str(sender), tuple(body[0]), round(seconds)))

    before_task_publish.connect(record, weak=False)
    try:
        yield sent
    finally:
        before_task_publish.disconnect(record)
        if ids:
            import redis

            app.control.revoke(ids)
            queue = redis.Redis.from_url(app.conf.broker_url)
            for raw in queue.lrange("celery", 0, -1):
                text = raw if isinstance(raw, str) else raw.decode()
                if json.loads(text)["headers"].get("id") in ids:
                    queue.lrem("celery", 0, text)


def three_bots(alice: Any, **kw: Any) -> Game:
    """alice's table of easy bots, her own seat on the autopilot: a bot moves next, always."""
    table = open_table(alice, target=10, **kw)
    services.table_set_bot(table=table, user=alice, position=1, level="easy")
    game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
    assert game is not None
    services.seat_set_autopilot(table=table, user=alice, level="easy")
    game.refresh_from_db()
    return game


def kind_of_move(before: engine.GameView, after: engine.GameView, hands: tuple[int, int]) -> int:
    """The pause a move calls for, from what a spectator sees and the stored hands."""
    if hands[1] > hands[0]:
        return HAND
    if len(after["tricks"]) > len(before["tricks"]):
        return TRICK
    return MOVE


def move_and_watch(
    game: Game, capture: Any, published: list[Published], move: Callable[[], object]
) -> tuple[int, Published | None]:
    """Make one move: the pause it calls for, and the move task it queued, if any."""
    before, hands = engine.game_view(state_of(game), None), game.hands.count()
    del published[:]
    with capture(execute=True):
        move()
    after = engine.game_view(state_of(game), None)
    queued = [p for p in published if p.task in MOVE_TASKS and p.args[0] == game.pk]
    assert [p.args[1] for p in queued] in ([], [game.version])
    return kind_of_move(before, after, (hands, game.hands.count())), queued[0] if queued else None


def bots_play(game: Game, capture: Any, published: list[Published]) -> list[tuple[int, int]]:
    """Bots' moves until a hand played out (not thrown in) has ended: (kind,
    countdown) of each."""
    seen: list[tuple[int, int]] = []
    while TRICK not in {kind for kind, _ in seen} or seen[-1][0] != HAND:
        move = partial(tasks.play_bot_turn, game.pk, game.version)
        kind, task = move_and_watch(game, capture, published, move)
        assert task is not None, "every seat is a bot's: each move queues the next"
        assert task.task == tasks.play_bot_turn.name
        seen.append((kind, task.countdown))
    return seen


def test_a_live_bot_waits_longer_after_a_trick_and_longer_still_after_a_hand(
    alice: Any, published: list[Published], django_capture_on_commit_callbacks: Any
) -> None:
    game = three_bots(alice)
    seen = bots_play(game, django_capture_on_commit_callbacks, published)
    assert all(countdown == kind for kind, countdown in seen), seen
    assert [kind for kind, _ in seen].count(TRICK) >= 4  # then the fifth ends the hand


def test_a_by_turns_bot_keeps_its_delay_after_tricks_and_hands(
    alice: Any, published: list[Published], django_capture_on_commit_callbacks: Any
) -> None:
    game = three_bots(alice, mode=Table.Mode.TURNS, move_seconds=86400)
    seen = bots_play(game, django_capture_on_commit_callbacks, published)
    assert all(countdown == MOVE for _, countdown in seen), seen


def test_a_players_only_card_waits_as_a_bot_would(
    alice: Any, published: list[Published], django_capture_on_commit_callbacks: Any
) -> None:
    """alice asked for her only card to be played: in the last trick she holds
    one, so each hand she plays out gives the site a move of hers to pace."""
    table = open_table(alice, target=10)
    services.table_set_bot(table=table, user=alice, position=1, level="easy")
    game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
    assert game is not None
    alice.play_only_card = True
    alice.save(update_fields=["play_only_card"])
    rng = random.Random(20)
    only_cards: list[tuple[int, int]] = []
    while not only_cards and not state_of(game).over:
        version = game.version
        cur = state_of(game).current
        assert cur is not None and cur.to_act is not None
        move: Callable[[], object]
        if players(table)[cur.to_act] is None:
            move = partial(tasks.play_bot_turn, game.pk, version)
        elif services.only_card(cur):
            move = partial(tasks.play_only_card, game.pk, version)
        else:
            move = partial(play_one, game, rng)
        kind, task = move_and_watch(game, django_capture_on_commit_callbacks, published, move)
        if task is not None:
            assert task.countdown == kind, (kind, task)
            if task.task == tasks.play_only_card.name:
                only_cards.append((kind, task.countdown))
    assert only_cards
