"""The daily deal's Celery tasks: the new day's deal at 00:00 UTC (beat), and
the results as players finish hands (queued by daily.receivers)."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from . import services

# The day's figures read every entry of the day: recomputed at most once in
# this many seconds whatever the number of hands finishing meanwhile.
DAY_RESULTS_EVERY = 2.0


@shared_task(acks_late=True, ignore_result=True)
def new_day() -> str:
    """Beat, 00:00 UTC: fix today's deal; end yesterday's unfinished attempts."""
    return services.new_day().date.isoformat()


@shared_task(acks_late=True, ignore_result=True)
def entry_update(entry_id: int) -> str:
    """An entry's hand or game ended: its points and streak now, the day's
    figures and places shortly (idempotent)."""
    deal_id = services.entry_update(entry_id=entry_id, day=False)
    if deal_id is None:
        return "gone"
    day_results_soon(deal_id=deal_id)
    return "done"


@shared_task(acks_late=True, ignore_result=True)
def day_update(deal_id: int) -> str:
    """The day's figures: each hand's best and average, every player's place."""
    services.day_results_update(deal_id=deal_id)
    return "done"


def day_results_soon(*, deal_id: int) -> bool:
    """Queue the day's figures in DAY_RESULTS_EVERY seconds unless a run is
    queued already. The mark lives a little shorter than the wait, so an
    entry counted after the queued run has read the day queues another."""
    if not cache.add(f"daily:day-results:{deal_id}", 1, timeout=DAY_RESULTS_EVERY * 0.75):
        return False
    day_update.apply_async((deal_id,), countdown=DAY_RESULTS_EVERY)
    return True
