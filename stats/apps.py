from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    # Translators: the statistics part of the site, as the admin names it.
    verbose_name = gettext_lazy("Statistics")

    def ready(self) -> None:
        from games import signals

        signals.hand_finished.connect(_hand_finished, dispatch_uid="stats.hand_finished")
        signals.game_finished.connect(_game_finished, dispatch_uid="stats.game_finished")


def _hand_finished(sender: Any, hand_id: int, **kwargs: Any) -> None:
    from . import tasks

    tasks.hand_finished.delay(hand_id)


def _game_finished(sender: Any, game_id: int, **kwargs: Any) -> None:
    from . import tasks

    tasks.game_finished.delay(game_id)
