"""benchmarks.ladder: the bot levels rated from recorded matches, as the site rates a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import ladder
from games.bots import match


def test_recorded_games_rate_the_winning_level_above(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    assert match.main(
        ["--hero", "medium", "--field", "easy", "--games", "6", "--procs", "1",
         "--quiet", "--record", str(path)]
    ) == 0  # fmt: skip
    games = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(games) == 6
    assert all(sorted(g["levels"]) == ["easy", "easy", "medium"] for g in games)
    capsys.readouterr()
    # Three games the medium seat won, one easy won: medium rates higher.
    one = tmp_path / "one.jsonl"
    won = [{"levels": ["medium", "easy", "easy"], "scores": [10, 4, 3], "winner": 0}] * 3
    lost = [{"levels": ["medium", "easy", "easy"], "scores": [2, 10, 3], "winner": 1}]
    one.write_text("".join(json.dumps(g) + "\n" for g in won + lost))
    assert ladder.main([str(one)]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    assert [r.split()[0] for r in rows] == ["medium", "easy"]
    assert rows[0].split()[-1] == "4" and rows[1].split()[-1] == "4"
