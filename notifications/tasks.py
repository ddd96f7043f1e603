"""Celery tasks: thin wrappers around notifications.services."""

from __future__ import annotations

from celery import Task, shared_task

from . import services


@shared_task(bind=True, acks_late=True, ignore_result=True)
def send_pending_emails(self: Task, user_id: int) -> int:
    """One e-mail with the user's pending notifications; in quiet hours, again at their end."""
    outcome = services.send_pending_emails(user_id)
    if outcome.retry_at is not None and not self.request.is_eager:
        send_pending_emails.apply_async((user_id,), eta=outcome.retry_at)
    return outcome.sent


@shared_task(acks_late=True, ignore_result=True)
def send_push(notification_id: int) -> int:
    return services.send_push(notification_id)


@shared_task(acks_late=True, ignore_result=True)
def send_reminders() -> int:
    return services.send_reminders()


@shared_task(acks_late=True, ignore_result=True)
def send_daily_digests() -> int:
    return services.send_daily_digests()
