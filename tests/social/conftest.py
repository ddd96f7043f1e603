"""The notifications tests' cast and worker: invitations and friend requests
are told through notifications (in-app, e-mail, push)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from euchre_site.celery import app
from tests.conftest import celery_conf
from tests.notifications.conftest import (  # noqa: F401  (fixtures)
    VOID_QUEUE,
    WORKER_QUEUE,
    MailDir,
    _notification_settings,
    _set_routes,
    eager_celery,
    notification_worker,
)


@pytest.fixture
def social_mail(notification_worker: MailDir) -> Iterator[MailDir]:  # noqa: F811
    """This test's notification and invitation e-mails go to the real worker."""
    celery_conf(task_always_eager=False)
    routes = app.conf.task_routes
    _set_routes(
        {
            "notifications.tasks.*": {"queue": WORKER_QUEUE},
            "social.tasks.*": {"queue": WORKER_QUEUE},
            "games.tasks.*": {"queue": VOID_QUEUE},
        }
    )
    notification_worker.clear()
    yield notification_worker
    _set_routes(routes)
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(VOID_QUEUE)
