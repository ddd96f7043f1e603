"""The daily deal's edge to the other apps' announcements (games.signals) and
its own (daily.signals): each queues a task of daily.tasks. Connected in
DailyConfig.ready."""

from __future__ import annotations

from django.db.models import Model

from games import signals as game_signals
from games.models import Hand

from . import signals, tasks
from .models import Entry


def connect() -> None:
    game_signals.hand_finished.connect(hand_finished, dispatch_uid="daily.hand_finished")
    game_signals.game_finished.connect(game_finished, dispatch_uid="daily.game_finished")
    signals.entry_ended.connect(entry_ended, dispatch_uid="daily.entry_ended")


def hand_finished(sender: type[Model], hand_id: int, **kwargs: object) -> None:
    """A hand ended (after its commit): if it is a daily deal's, count it."""
    game = Hand.objects.filter(pk=hand_id).values("game_id")
    entry_id = Entry.objects.filter(game_id__in=game).values_list("pk", flat=True).first()
    if entry_id is not None:
        tasks.entry_update.delay(entry_id)


def game_finished(sender: type[Model], game_id: int, **kwargs: object) -> None:
    entry_id = Entry.objects.filter(game_id=game_id).values_list("pk", flat=True).first()
    if entry_id is not None:
        tasks.entry_update.delay(entry_id)


def entry_ended(sender: type[Model], entry_id: int, **kwargs: object) -> None:
    tasks.entry_update.delay(entry_id)
