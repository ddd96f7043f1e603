"""The replay names each move's actor as it was at that move (issue 22): the
person's name for their own moves, "alice's bot" for the moves a bot made for
them (marked "by" in the hand record, or "auto" when their time ran out), and
never the seat's state now ("alice (bot playing)" once she turned autopilot on)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Seat
from stats import services

from .helpers import build_game

pytestmark = pytest.mark.django_db


def steps_of(user: Any, hand: Any) -> list[str]:
    c = Client()
    c.force_login(user)
    html = c.get(reverse("stats:replay", args=[hand.pk]) + "?step=0").content.decode()
    section = html.split("<details><summary>Every action</summary>", 1)[1].split("</details>")[0]
    return [li.split(">", 2)[2].split("</a>")[0] for li in section.split("<li")[1:]]


def test_a_person_who_later_turned_autopilot_on_is_named_for_their_own_moves(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    # Hand 4: alice deals, picks up and defends alone; her cards after the
    # third trick are her autopilot's, and she keeps it on afterwards.
    hand = game.hands.get(number=3)
    record = hand.record
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == 0 and a["type"] == "play"]
    by_bot = set(mine[3:])
    for i in by_bot:
        record["actions"][i]["by"] = "autopilot"
    hand.record = record
    hand.save(update_fields=["record"])
    Seat.objects.filter(table=game.table, position=0).update(bot_level="medium")

    for viewer in (alice, bob):
        steps = steps_of(viewer, hand)
        assert len(steps) == len(record["actions"])
        assert not any("bot playing" in s for s in steps), steps
        assert steps[2] == "alice picks up the up card and discards the Queen of hearts."
        assert steps[4].startswith("alice "), steps[4]  # she chose to defend alone herself
        for i in mine:
            if i in by_bot:
                assert steps[i].startswith("alice&#x27;s bot plays the "), steps[i]
            else:
                assert steps[i].startswith("alice plays the "), steps[i]
        assert any(s.startswith("carol ") for s in steps)


def test_a_move_made_when_time_ran_out_is_the_bots(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol])
    hand = game.hands.get(number=0)
    record = hand.record
    record["actions"][0]["auto"] = True  # bob's order, made by the bot when his time ran out
    hand.record = record
    hand.save(update_fields=["record"])
    steps = steps_of(alice, hand)
    assert steps[0].startswith("bob&#x27;s bot: “Order it up”"), steps[0]
    assert steps[1].startswith("alice "), steps[1]


def test_the_seats_are_headed_by_the_persons_names(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol])
    Seat.objects.filter(table=game.table, position=1).update(bot_level="hard")
    c = Client()
    c.force_login(alice)
    html = c.get(reverse("stats:replay", args=[game.hands.get(number=0).pk])).content.decode()
    assert "bot playing" not in html
    assert 'aria-label="bob"' in html
