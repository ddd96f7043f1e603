from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def eager_celery(eager_celery: None) -> None:
    """Tasks run inline (tests/django_plugin.py) unless a test uses the real worker."""
