"""Statistics off the request path: after each finished hand and game, and
the hard-bot reviews (queued by stats.receivers)."""

from __future__ import annotations

from celery import shared_task

from . import review, services


@shared_task(acks_late=True, ignore_result=True)
def hand_finished(hand_id: int) -> str:
    """Store the hand's facts and recompute its players' figures (idempotent)."""
    return services.after_hand(hand_id=hand_id)


@shared_task(acks_late=True, ignore_result=True)
def game_finished(game_id: int) -> str:
    """Store the game's facts, rate it, recompute its players' and the average figures."""
    return services.after_game(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def review_hand(review_id: int) -> str:
    """The hard bot's opinion of each of one person's decisions in a finished hand."""
    return review.run(review_id=review_id)
