from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import celery_conf


@pytest.fixture(autouse=True)
def eager_celery() -> Iterator[None]:
    """Tasks run inline unless a test uses the real worker."""
    celery_conf(task_always_eager=True)
    yield
    celery_conf(task_always_eager=False)
