"""Moves racing each other on the real database: exactly one wins, the rest change nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from euchre_site.refusal import Code, Refusal
from games import services, tasks
from games.models import Game

from .conftest import players, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls: list[Any]) -> list[str]:
    """Run the calls at once, each in its own thread (and database connection)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = [""] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            calls[i]()
            outcomes[i] = "applied"
        except Refusal as exc:
            outcomes[i] = "stale" if exc.code == Code.STALE else exc.message
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


def test_twenty_simultaneous_submissions_of_one_move_apply_it_once(game: Game) -> None:
    user = players(game.table)[to_act(game)]
    outcomes = race(
        [
            lambda: services.game_act(
                game_id=game.pk,
                version=1,
                action={"type": "pass"},
                actor=services.Actor.person(user),
            )
        ]
        * 20
    )
    assert outcomes.count("applied") == 1 and outcomes.count("stale") == 19
    game.refresh_from_db()
    assert game.version == 2
    assert len(game.hands.get().record["actions"]) == 1


def test_two_seats_moving_at_once_only_the_one_to_act_counts(game: Game) -> None:
    seated = players(game.table)
    seat = to_act(game)
    other = (seat + 1) % 3
    outcomes = race(
        [
            lambda: services.game_act(
                game_id=game.pk,
                version=1,
                action={"type": "pass"},
                actor=services.Actor.person(seated[seat]),
            ),
            lambda: services.game_act(
                game_id=game.pk,
                version=1,
                action={"type": "pass"},
                actor=services.Actor.person(seated[other]),
            ),
        ]
    )
    assert sorted(outcomes) in (["It is not your turn.", "applied"], ["applied", "stale"])
    actions = game.hands.get().record["actions"]
    assert [a["seat"] for a in actions] == [seat]


def test_a_time_out_racing_the_players_own_move_and_bot_tasks_make_one_move(alice: Any) -> None:
    import datetime

    from django.utils import timezone

    from .conftest import open_table

    def deal() -> Game:
        for _ in range(60):  # deal until alice, the person, is first to act
            table = open_table(alice, mode="turns", move_seconds=3600)
            services.table_set_bot(table=table, user=alice, position=1, level="easy")
            game = services.table_set_bot(table=table, user=alice, position=2, level="easy")
            if game is not None and game.to_act == 0:
                return game
            table.delete()
        raise AssertionError("no deal gave alice the first move")

    game = deal()
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    version = game.version
    results: list[tuple[str, str]] = []  # (task, what it returned)
    outcomes = race(
        [
            lambda: results.append(("timeout", tasks.play_timeout(game.pk, version))),
            lambda: results.append(("bot", tasks.play_bot_turn(game.pk, version))),
            lambda: services.game_act(
                game_id=game.pk,
                version=version,
                action={"type": "pass"},
                actor=services.Actor.person(alice),
            ),
        ]
        * 3
    )
    # (A worker running in the same test session may already play the bots' turns after it.)
    actions = [a for h in game.hands.all() for a in h.record["actions"]]
    assert actions[0]["seat"] == 0
    assert [a["seat"] for a in actions].count(0) == 1
    assert len(results) == 6
    # Seat 0 is a person's: the bot task never moves for it.
    assert all(r != "played" for task, r in results if task == "bot"), results
    # The one move is either alice's own or a time-out's, never both.
    timeouts_played = sum(task == "timeout" and r == "played" for task, r in results)
    own_applied = outcomes[2::3].count("applied")
    assert timeouts_played + own_applied == 1, (results, outcomes)
    assert outcomes[2::3].count("stale") == 3 - own_applied, outcomes
