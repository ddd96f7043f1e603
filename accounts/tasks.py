"""The accounts app's beat task: guests unused for a month are removed."""

from __future__ import annotations

from celery import shared_task

from . import guests


@shared_task(ignore_result=True)
def remove_unused_guests() -> int:
    return guests.guests_remove_unused()
