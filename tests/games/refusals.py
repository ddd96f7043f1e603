"""`refused_with(code)`: pytest.raises for a Refusal of that code."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from euchre_site.refusal import Code, Refusal


@contextmanager
def refused_with(code: Code, match: str | None = None) -> Iterator[pytest.ExceptionInfo[Refusal]]:
    """The block raises a Refusal whose code is `code` (and whose message
    matches `match`, if given)."""
    with pytest.raises(Refusal, match=match) as refused:
        yield refused
    assert refused.value.code == code, refused.value.code
