"""The hard-bot review in words a player understands (issue 22): columns
named "Your move", "The hard bot's choice", "How often it was best"; no
meaningless "0%" where the bot compared nothing; equal cards are the same
move; and a move a bot made for the player is not theirs to review."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from stats import review, services
from stats.models import Review

from .helpers import a, build_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice: Any, bob: Any, carol: Any) -> Any:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    return game


def page(user: Any, hand: Any) -> str:
    c = Client()
    c.force_login(user)
    return c.get(reverse("stats:review", args=[hand.pk])).content.decode()


def reviewed(hand: Any, user: Any) -> Review:
    rev = review.review_request(hand=hand, user=user)
    assert review.run(review_id=rev.pk) == "done"
    rev.refresh_from_db()
    return rev


def test_the_columns_say_what_they_hold_and_no_share_is_shown_for_nothing(
    played: Any, alice: Any
) -> None:
    hand = played.hands.get(number=3)
    rev = reviewed(hand, alice)
    html = page(alice, hand)
    table = html.split('id="review-table"', 1)[1].split("</table>", 1)[0]
    heads = re.findall(r'<th scope="col">(.*?)</th>', table)
    assert heads == ["Your move", "The hard bot’s choice", "How often it was best"]
    assert "samples" not in html and "search preferred" not in html and "preferred" not in table
    rows = re.findall(r"<tr class=\"(agree|differ)\">(.*?)</tr>", table, re.S)
    assert len(rows) == len(rev.decisions)
    for (kind, row), d in zip(rows, rev.decisions, strict=True):
        cells = [
            re.sub(r"<[^>]+>|\s+", " ", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)
        ]
        assert kind == ("agree" if d["agree"] else "differ")
        if d["agree"]:
            assert cells[1] == "The same"
        if not d["best_share"]:
            assert cells[2] == "no comparison", cells
        elif d["agree"]:
            assert cells[2] == f"in {round(100 * d['best_share'])}% of the deals"
        else:
            assert cells[2].startswith("yours in ") and "the bot’s in" in cells[2]
        if d["agree"] or not d["best_share"]:
            assert not re.search(r"(?<!\d)0%", cells[2]), cells  # no "0%" said of nothing
    assert "No comparison" in html  # the legend explains the words


# Spades trump: alice (seat 0) deals and picks up, bob orders and goes alone;
# carol leads the King of hearts and alice, holding the Jack and the 10 of
# hearts (no heart still out between them), plays the 10.
EQUAL_DEAL = {
    "hands": [
        ["JH", "TH", "9C", "TC", "JC"],
        ["AS", "KS", "QS", "AH", "9D"],
        ["KH", "QH", "9H", "AC", "KC"],
    ],
    "dummy": ["TD", "JD", "QD", "KD", "AD"],
    "kitty": ["9S", "TS", "JS", "QC"],
}
EQUAL_MOVES = [
    a(1, "order"),
    a(0, "pickup", discard="9C"),
    a(1, "alone"),
    a(2, "pass"),
    a(0, "pass"),
    a(2, "play", card="KH"),
    a(0, "play", card="TH"),
]


def test_equal_cards_count_as_the_same_move(alice: Any, bob: Any, carol: Any) -> None:
    """The search tries one card of a run (the others are the same card for
    this seat): playing another card of the run agrees with it, and the
    share, meaningless there ("0%"), is not kept."""
    game = build_game([alice, bob, carol], hands=[(0, EQUAL_DEAL, EQUAL_MOVES)])
    hand = game.hands.get(number=0)
    rev = reviewed(hand, alice)
    (ten,) = [d for d in rev.decisions if d["action"] == {"seat": 0, "type": "play", "card": "TH"}]
    best = ten["best"]
    assert best is not None and best["card"] in ("JH", "TH")  # the run's card the search tried
    assert ten["agree"] and ten["best_share"] is None and ten["my_share"] is None


def test_a_move_a_bot_made_for_the_player_is_not_reviewed(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=3)
    before = review.decisions_of(hand.record, 0)
    record = hand.record
    first = before[0][0]
    record["actions"][first]["by"] = "autopilot"
    hand.record = record
    hand.save(update_fields=["record"])
    after = review.decisions_of(hand.record, 0)
    assert [i for i, _, _ in after] == [i for i, _, _ in before if i != first]
    rev = reviewed(hand, alice)
    assert first not in [d["index"] for d in rev.decisions]
