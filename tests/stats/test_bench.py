"""The benchmark command runs (a small size: the figures are in docs/benchmarks.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_the_benchmark_prints_its_figures() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "stats.bench", "--hands", "60", "--renders", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    assert "recompute all stats of the player: median" in out
    assert "stats page render" in out
