"""The Celery application: bots' moves, notifications, statistics, timers."""

import os

from celery import Celery
from django.conf import settings  # lazy: read only when the signal fires

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

app = Celery("euchre_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def schedule_game_timers(sender: Celery, **kwargs: object) -> None:
    """Celery beat: deadlines and the sweeper of stalled games (other apps add their own)."""
    every = settings.SWEEP_EVERY_SECONDS
    sender.add_periodic_task(
        every, sender.signature("games.tasks.expire_deadlines"), name="expire deadlines"
    )
    sender.add_periodic_task(
        every, sender.signature("games.tasks.sweep_stalled_games"), name="sweep stalled games"
    )
