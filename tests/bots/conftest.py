"""Small search budgets keep the hard bot quick in tests (results stay deterministic)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.bots import hard


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(hard, "PLAY_SAMPLES", 6)
    monkeypatch.setattr(hard, "BID_SAMPLES", 4)
    monkeypatch.setattr(hard, "MIN_SAMPLES", 4)
    monkeypatch.setattr(hard, "CAP_MS", 10_000)
    monkeypatch.setattr(hard, "EXPERT_CAP_MS", 10_000)
    yield
