"""The Celery application: bots' moves, notifications, statistics, timers."""

import logging
import os

from celery import Celery, Task, signals
from django.conf import settings  # lazy: read only when the signal fires
from django.db import close_old_connections, connections

from euchre_site import push

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

app = Celery("euchre_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# A worker keeps its database connection from task to task, as Django's
# CONN_MAX_AGE says; Celery's Django fix-up would close it after every task
# (CELERY_DB_REUSE_MAX in the settings turns that off), and on SQLite the
# site's CONN_MAX_AGE is 0 (right for daphne's request threads, not here).
# Opening SQLite anew (the file, its WAL, the pragmas) was about 1 ms of a
# bot move's worker time; a PostgreSQL connection costs more.
WORKER_CONN_MAX_AGE = 600


class QuietBotMoves(logging.Filter):
    """Celery logs two lines for every task at INFO ("received", "succeeded");
    for the bot moves, dozens a second per worker, they were about 0.7 ms of a
    move's 28 in the worker (py-spy), and honcho's time to show them besides.
    Left out unless BOT_MOVE_LOG; their warnings and errors always show."""

    NAMES = frozenset({"games.tasks.play_bot_turn"})

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return (
            record.levelno > logging.INFO
            or not isinstance(args, dict)
            or args.get("name") not in self.NAMES
        )


@signals.after_setup_logger.connect
def quiet_bot_moves(**kwargs: object) -> None:
    if not settings.BOT_MOVE_LOG:
        for name in ("celery.app.trace", "celery.worker.strategy"):
            logging.getLogger(name).addFilter(QuietBotMoves())


@signals.worker_init.connect
@signals.worker_process_init.connect
def set_up_worker_process(**kwargs: object) -> None:
    """Every process of a worker publishes straight to Redis (euchre_site.push)
    and keeps its database connection (WORKER_CONN_MAX_AGE).

    It also runs without DEBUG. A worker serves no page, so the development
    setting's only effect here was to log every query (on SQLite with one
    more query each, to quote its parameters for the log), the memory leak
    Celery warns of at start-up."""
    settings.DEBUG = False
    push.publish_directly()
    for conn in connections.all():
        if not conn.settings_dict.get("CONN_MAX_AGE"):
            conn.settings_dict["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_unusable_connections(sender: Task | None = None, **kwargs: object) -> None:
    """What Django does around a request: a connection that failed, whose
    age is up or whose health check fails (CONN_HEALTH_CHECKS) is closed, and
    the next query opens a fresh one (after a database restart, say). Not
    around a task run eagerly: that is the caller's connection, maybe in its
    transaction."""
    if sender is not None and not getattr(sender.request, "is_eager", False):
        close_old_connections()


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
