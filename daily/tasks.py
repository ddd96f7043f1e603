"""The daily deal's Celery tasks: the new day's deal at 00:00 UTC (beat), and
the results as players finish hands (queued by daily.apps from games.signals)."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def new_day() -> str:
    """Beat, 00:00 UTC: fix today's deal; end yesterday's unfinished attempts."""
    from . import services

    return services.new_day().date.isoformat()


@shared_task(acks_late=True, ignore_result=True)
def entry_update(entry_id: int) -> str:
    """An entry's hand or game ended: its points, streak, and the day's
    figures and places (idempotent)."""
    from . import services

    return services.entry_update(entry_id=entry_id)
