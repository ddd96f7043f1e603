from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import celery_conf


@pytest.fixture(autouse=True)
def eager_celery() -> Iterator[None]:
    """Tasks run inline unless a test uses the real worker."""
    celery_conf(task_always_eager=True)
    yield
    celery_conf(task_always_eager=False)


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
