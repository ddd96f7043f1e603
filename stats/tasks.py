"""Statistics off the request path: after each finished hand and game."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def hand_finished(hand_id: int) -> str:
    """Store the hand's facts and recompute its players' figures (idempotent)."""
    from . import services

    return services.after_hand(hand_id=hand_id)


@shared_task(acks_late=True, ignore_result=True)
def game_finished(game_id: int) -> str:
    """Store the game's facts, rate it, recompute its players' and the average figures."""
    from . import services

    return services.after_game(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def review_hand(review_id: int) -> str:
    """The hard bot's opinion of each of one person's decisions in a finished hand."""
    from . import review

    return review.run(review_id=review_id)
