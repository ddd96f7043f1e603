from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class DailyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "daily"
    # Translators: the part of the site with the daily deal (the same five deals for every player, once a day), as the admin names it.
    verbose_name = gettext_lazy("Daily deal")

    def ready(self) -> None:
        from games import signals

        signals.hand_finished.connect(_hand_finished, dispatch_uid="daily.hand_finished")
        signals.game_finished.connect(_game_finished, dispatch_uid="daily.game_finished")


def _hand_finished(sender: Any, hand_id: int, **kwargs: Any) -> None:
    """A hand ended (after its commit): if it is a daily deal's, count it."""
    from games.models import Hand

    from . import tasks
    from .models import Entry

    game = Hand.objects.filter(pk=hand_id).values("game_id")
    entry_id = Entry.objects.filter(game_id__in=game).values_list("pk", flat=True).first()
    if entry_id is not None:
        tasks.entry_update.delay(entry_id)


def _game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    from . import tasks
    from .models import Entry

    entry_id = Entry.objects.filter(game_id=game_id).values_list("pk", flat=True).first()
    if entry_id is not None:
        tasks.entry_update.delay(entry_id)
