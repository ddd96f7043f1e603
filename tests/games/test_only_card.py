"""The profile option "play my only legal card for me": when a player who
asked for it must play and may play one card only, the site plays it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services, tasks
from games.models import Game

from .conftest import play_one, players, state_of, to_act

pytestmark = pytest.mark.django_db


def play_a_game(game: Game, capture: Any) -> tuple[int, int]:
    """Play (seeded) to the end: (moves made by the players, times a player
    to act was left holding one card they may play)."""
    rng = random.Random(21)
    moves = left_with_one = 0
    while not state_of(game).over:
        with capture(execute=True):  # the queued tasks run now (eager)
            play_one(game, rng, prefer="order")
        moves += 1
        if services.only_card(state_of(game).current):
            left_with_one += 1
    return moves, left_with_one


def test_the_only_legal_card_is_played_for_those_who_asked(
    game: Game, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    for user in players(game.table).values():
        user.play_only_card = True
        user.save(update_fields=["play_only_card"])
    moves, left_with_one = play_a_game(game, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert left_with_one == 0  # never left to play a forced card by hand
    assert game.version - 1 > moves  # some moves were the site's


def test_nobody_elses_card_is_played_without_the_option(
    game: Game, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    moves, left_with_one = play_a_game(game, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    assert left_with_one > 0 and game.version - 1 == moves


def test_the_task_plays_only_a_forced_card_of_the_player_who_asked(game: Game) -> None:
    assert tasks.play_only_card(game.pk, game.version) == "not asked"
    user = players(game.table)[to_act(game)]
    user.play_only_card = True
    user.save(update_fields=["play_only_card"])
    assert tasks.play_only_card(game.pk, game.version) == "a choice"  # bidding
    assert tasks.play_only_card(game.pk, game.version + 1) == "stale"
