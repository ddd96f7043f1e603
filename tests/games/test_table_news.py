"""What each table carries for the screen-reader announcements: the last
moves in words, each keyed once, so that a page that missed a table (an
answer overtaken by the next frame) still says every move, and nothing a
seat may not see."""

from __future__ import annotations

import html
import random
import re

import pytest

from games import frames
from games.models import Game
from games.narration import describe
from games.presenters import NEWS_KEPT

from .conftest import play_one, players, state_of

pytestmark = pytest.mark.django_db

NAMES = {0: "alice", 1: "bob", 2: "carol"}


def news_of(game: Game, seat: int | None) -> tuple[dict[str, list[str]], list[str]]:
    game.refresh_from_db()
    page = frames.render_table(game.table, game, seat)
    template = re.search(r'<template class="table-news"[^>]*>(.*?)</template>', page, re.S)
    assert template is not None

    def lines(div: str) -> list[str]:
        return [html.unescape(p) for p in re.findall(r"<p>(.*?)</p>", div)]

    moves = {
        key: lines(div)
        for key, div in re.findall(r'<div data-move="([^"]+)">(.*?)</div>', template[1])
    }
    now = re.search(r"<div data-now>(.*?)</div>", template[1])
    assert now is not None
    return moves, lines(now[1])


def test_the_last_moves_are_carried_across_the_start_of_the_next_hand(game: Game) -> None:
    assert [u.username for u in players(game.table).values()] == list(NAMES.values())
    rng = random.Random(5)
    while state_of(game).current is None or len(state_of(game).hands) < 2:
        play_one(game, rng, prefer="order")
    first = game.hands.get(number=0)
    actions = first.record["actions"]
    # One move into the second hand: the first hand's last moves are still there.
    play_one(game, rng)
    moves, now = news_of(game, seat=None)
    keys = list(moves)
    assert len(keys) == NEWS_KEPT
    assert keys[-1] == f"{game.pk}-2-0" and keys[-2] == f"{game.pk}-1-end"
    tail = actions[-(NEWS_KEPT - 2) :]
    for key, action in zip(keys[:-2], tail, strict=True):
        assert moves[key][0] == describe(action, NAMES, first.record["dealer"])
    if actions[-1]["type"] == "play":  # not a thrown-in hand
        assert moves[keys[-3]][1].endswith("wins the trick.")
        assert "Hand 1" in moves[f"{game.pk}-1-end"][0]
    assert now  # what comes next
    # The same move has the same key at every later version, for every seat.
    play_one(game, rng)
    later, _ = news_of(game, seat=1)
    assert keys[-1] in later and later[keys[-1]] == moves[keys[-1]]


def test_a_seat_never_hears_the_dealers_discard(game: Game) -> None:
    rng = random.Random(3)
    while True:
        action = play_one(game, rng, prefer="order")
        if action["type"] == "pickup":
            break
    current = state_of(game).current
    assert current is not None
    dealer, discard = current.dealer, current.actions[-1].to_dict()["discard"]
    for seat in (None, 0, 1, 2):
        said = " ".join(" ".join(lines) for lines in news_of(game, seat)[0].values())
        assert ("discards" in said) == (seat == dealer), (seat, said)
    assert discard  # the dealer's own table says which
