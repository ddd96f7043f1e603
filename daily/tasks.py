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
    """An entry's hand or game ended: its points and streak now, the day's
    figures and places shortly (idempotent)."""
    from . import services

    deal_id = services.entry_update(entry_id=entry_id, day=False)
    if deal_id is None:
        return "gone"
    services.day_results_soon(deal_id=deal_id)
    return "done"


@shared_task(acks_late=True, ignore_result=True)
def day_update(deal_id: int) -> str:
    """The day's figures: each hand's best and average, every player's place."""
    from . import services

    services.day_results_update(deal_id=deal_id)
    return "done"
