from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request through the test
    client leaves the language its middleware chose active in the thread."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
