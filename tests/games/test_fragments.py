"""The table's fragments (presenters.fragment): rendered once, reused while
the tables a worker serves are in play, for every viewer and every move."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation

from games import presenters


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    presenters._FRAGMENTS.clear()


def counted(calls: list[int], names: tuple[str, ...]) -> Callable[[], dict[str, object]]:
    def context() -> dict[str, object]:
        calls.append(1)
        return {"pad_rows": (), "pad_names": names}

    return context


def test_a_fragment_is_rendered_once_for_the_same_key_and_language() -> None:
    calls: list[int] = []
    with translation.override("en"):
        first = presenters.fragment("score_pad", ("game", 1), counted(calls, ("Ann", "Bo")))
        again = presenters.fragment("score_pad", ("game", 1), counted(calls, ("Ann", "Bo")))
    assert first == again and "Ann" in first and len(calls) == 1
    with translation.override("el"):  # another language: its own rendering
        presenters.fragment("score_pad", ("game", 1), counted(calls, ("Ann", "Bo")))
    assert len(calls) == 2


def test_a_fragment_outlives_the_other_fragments_of_three_hundred_tables() -> None:
    # A game in play keeps about a dozen fragments alive (its head, and each
    # viewer's last trick, last hand and score pad). A fixed count of 1,024
    # made every one a miss at 200 tables: the first of them was gone by the
    # time its game moved again.
    calls: list[int] = []
    with translation.override("en"):
        presenters.fragment("score_pad", ("game", 0), counted(calls, ("Ann", "Bo")))
        for n in range(1, 12 * 300):
            presenters.fragment("score_pad", ("game", n), counted(calls, (f"p{n}", "Bo")))
        assert len(calls) == 12 * 300
        presenters.fragment("score_pad", ("game", 0), counted(calls, ("Ann", "Bo")))
    assert len(calls) == 12 * 300  # not rendered again
