"""The statistics' edge to the games app's announcements (games.signals) and
its own (stats.signals): each queues a task of stats.tasks. Connected in
StatsConfig.ready."""

from __future__ import annotations

from django.db.models import Model

from games import signals as game_signals

from . import signals, tasks


def connect() -> None:
    game_signals.hand_finished.connect(hand_finished, dispatch_uid="stats.hand_finished")
    game_signals.game_finished.connect(game_finished, dispatch_uid="stats.game_finished")
    signals.review_wanted.connect(review_wanted, dispatch_uid="stats.review_wanted")


def hand_finished(sender: type[Model], hand_id: int, **kwargs: object) -> None:
    tasks.hand_finished.delay(hand_id)


def game_finished(sender: type[Model], game_id: int, **kwargs: object) -> None:
    tasks.game_finished.delay(game_id)


def review_wanted(sender: type[Model], review_id: int, **kwargs: object) -> None:
    tasks.review_hand.delay(review_id)
