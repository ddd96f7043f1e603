"""games.events, the one after-commit door: a handler runs once the change
commits, never for a change rolled back, and every event has its handler
(games.apps subscribes them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games import events
from games.events import Event

pytestmark = pytest.mark.django_db


def test_every_event_has_a_handler() -> None:
    assert set(events._HANDLERS) == set(Event)


def test_a_handler_runs_after_the_commit_and_never_for_a_rollback(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    heard: list[tuple[Any, ...]] = []
    monkeypatch.setitem(events._HANDLERS, Event.TABLE_CHANGED, lambda *a: heard.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            events.on_commit(Event.TABLE_CHANGED, 1)
            assert heard == []  # not before the commit
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            events.on_commit(Event.TABLE_CHANGED, 2)
            1 / 0  # noqa: B018
    assert heard == [(1,)]
