"""Small search budgets keep the hard bot quick in tests (results stay deterministic)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.bots import hard, hard_v1


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for module in (hard, hard_v1):
        monkeypatch.setattr(module, "PLAY_SAMPLES", 6)
        monkeypatch.setattr(module, "BID_SAMPLES", 4)
        monkeypatch.setattr(module, "MIN_SAMPLES", 4)
        monkeypatch.setattr(module, "CAP_MS", 10_000)
    monkeypatch.setattr(hard, "EXPERT_CAP_MS", 10_000)
    yield
