"""The hard bot's review: finished hands only, the player's own decisions only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from euchre_site.refusal import Refusal
from stats import review, services
from stats.models import PlayerStats, Review

from .helpers import build_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice: Any, bob: Any, carol: Any) -> Any:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    return game


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_review_looks_only_at_the_players_own_decisions(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=3)  # alice picks up, then defends alone
    rev = review.review_request(hand=hand, user=alice)
    assert review.run(review_id=rev.pk) == "done"
    rev.refresh_from_db()
    assert rev.status == Review.Status.DONE and rev.total_steps == len(rev.decisions) >= 2
    assert all(d["action"]["seat"] == 0 for d in rev.decisions)
    kinds = [d["action"]["type"] for d in rev.decisions]
    assert kinds[:2] == ["pickup", "alone"]
    for d in rev.decisions:
        # A share only where the search compared moves (None: it had one to try).
        assert d["ranking"] and (d["best_share"] is None or 0 <= d["best_share"] <= 1)
    assert rev.agreed == sum(d["agree"] for d in rev.decisions)
    agreement = PlayerStats.objects.get(key=f"user:{alice.pk}").data["agreement"]
    assert agreement is not None
    assert agreement["decisions"] == rev.total_steps and agreement["hands"] == 1


def test_the_review_page_queues_and_then_shows_the_result(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=0)
    c = client_for(alice)
    r = c.post(reverse("stats:review", args=[hand.pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "decisions looked at" in r.content.decode()
    rev = Review.objects.get(hand=hand, user=alice)
    review.run(review_id=rev.pk)
    html = c.get(reverse("stats:review", args=[hand.pk])).content.decode()
    assert 'id="review-summary"' in html


def test_only_players_may_ask_for_a_review(played: Any, outsider: Any) -> None:
    hand = played.hands.get(number=0)
    r = client_for(outsider).post(reverse("stats:review", args=[hand.pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 404  # another table's hand is not even visible to them
    with pytest.raises(Refusal, match="You did not play this hand"):
        review.review_request(hand=hand, user=outsider)
    assert not Review.objects.exists()


def test_a_hand_in_play_cannot_be_reviewed(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=0)
    hand.result = None
    hand.save()
    with pytest.raises(Refusal):
        review.review_request(hand=hand, user=alice)


def test_agreement_reviews_recent_hands_with_progress(played: Any, alice: Any) -> None:
    c = client_for(alice)
    r = c.post(reverse("stats:agreement"), HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and "0 of 4 done" in html and 'hx-trigger="every 2s"' in html
    assert Review.objects.filter(user=alice).count() == 4  # the thrown-in hand is left out
    for rev in Review.objects.filter(user=alice):
        review.run(review_id=rev.pk)
    html = c.get(reverse("stats:agreement"), HTTP_HX_REQUEST="true").content.decode()
    assert "every 2s" not in html and "Review my last 20 hands" in html
    page = c.get(reverse("stats:player", args=["alice"])).content.decode()
    agreement = PlayerStats.objects.get(key=f"user:{alice.pk}").data["agreement"]
    assert agreement is not None
    assert agreement["hands"] == 4 and f'id="agreement">{agreement["pct"]}%<' in page
    assert review.agreement_request(user=alice) == 0  # nothing left to review
