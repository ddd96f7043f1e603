"""What a player is told (in-app, e-mail, web push) and how they want to be told."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

REMINDER_CHOICES = [
    (0, "No reminder"),
    (15, "15 minutes before"),
    (30, "30 minutes before"),
    (60, "1 hour before"),
    (120, "2 hours before"),
    (240, "4 hours before"),
    (720, "12 hours before"),
]


def new_unsubscribe_token() -> str:
    return secrets.token_urlsafe(24)


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        GAME_STARTED = "game_started", "Game started"
        GAME_ENDED = "game_ended", "Game ended"
        REMINDER = "reminder", "Deadline reminder"
        TIMEOUT = "timeout", "Time-out"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The game's version when this was sent: a turn or reminder is only worth
    # an e-mail or a push while the game still stands there.
    game_version = models.PositiveIntegerField(null=True, blank=True)
    text = models.CharField(max_length=200)
    url = models.CharField(max_length=300)  # site path, e.g. /tables/4/
    # NULL (not "") when absent, so the unique constraint ignores it.
    turn_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created = models.DateTimeField(default=timezone.now, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)
    email_pending = models.BooleanField(default=False)  # waiting for the batching task
    emailed_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notif_user_unread"),
            models.Index(fields=["user", "email_pending"], name="notif_user_email_pending"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "turn_key"],
                condition=models.Q(turn_key__isnull=False),
                name="one_notification_per_turn_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.text}"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None


class Preferences(models.Model):
    """One per user, created on demand with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    email_enabled = models.BooleanField("E-mail", default=True)
    push_enabled = models.BooleanField("Browser notifications", default=False)
    reminder_minutes = models.PositiveIntegerField(
        "Remind me before a deadline", choices=REMINDER_CHOICES, default=120
    )
    quiet_start = models.TimeField("Quiet hours from", null=True, blank=True)
    quiet_end = models.TimeField("Quiet hours until", null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    daily_digest = models.BooleanField("Daily digest e-mail", default=False)
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_unsubscribe_token)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"Notification preferences of {self.user}"


class PushSubscription(models.Model):
    """A browser's Push API subscription (endpoint and its encryption keys)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Push subscription of {self.user}"

    def subscription_info(self) -> dict[str, object]:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
