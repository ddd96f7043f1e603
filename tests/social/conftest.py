"""The notifications tests' cast and worker: invitations and friend requests
are told through notifications (in-app, e-mail, push)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.notifications.conftest import (  # noqa: F401  (fixtures)
    MailDir,
    _notification_settings,
    eager_celery,
    notification_worker,
    on_the_worker,
)


@pytest.fixture
def social_mail(notification_worker: MailDir) -> Iterator[MailDir]:  # noqa: F811
    """This test's notification and invitation e-mails go to the real worker."""
    with on_the_worker(notification_worker, "notifications.tasks.*", "social.tasks.*") as maildir:
        yield maildir
