"""The worker's per-task lines of the bot moves are left out (two a move,
dozens a second); every other task's lines and every warning stay."""

from __future__ import annotations

import logging

from euchre_site.celery import QuietBotMoves


def _make(level: int, name: str) -> logging.LogRecord:
    r = logging.LogRecord("celery.app.trace", level, __file__, 1, "Task %(name)s[%(id)s]", (), None)
    r.args = {"name": name, "id": "x"}
    return r


def test_only_the_bot_moves_info_lines_are_left_out() -> None:
    quiet = QuietBotMoves()
    assert not quiet.filter(_make(logging.INFO, "games.tasks.play_bot_turn"))
    assert quiet.filter(_make(logging.INFO, "games.tasks.tell_players"))
    assert quiet.filter(_make(logging.ERROR, "games.tasks.play_bot_turn"))
    assert quiet.filter(_make(logging.WARNING, "games.tasks.play_bot_turn"))
