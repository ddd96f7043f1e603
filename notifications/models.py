"""What a player is told (in-app, e-mail, web push) and how they want to be told."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import texts

# Whole phrases, one per choice: each language words its own plural.
REMINDER_CHOICES = [
    (0, _("No reminder")),
    (15, _("15 minutes before")),
    (30, _("30 minutes before")),
    (60, _("1 hour before")),
    (120, _("2 hours before")),
    (240, _("4 hours before")),
    (720, _("12 hours before")),
]


def new_unsubscribe_token() -> str:
    return secrets.token_urlsafe(24)


class Notification(models.Model):
    """What happened (`kind` and `params`), not its words: those are written
    when the notification is read or sent, in the reader's language
    (notifications.texts). `text` holds the English words of the rows stored
    before that, and of callers that still pass a sentence."""

    class Kind(models.TextChoices):
        TURN = "turn", pgettext_lazy("notification kind", "Your turn")
        GAME_STARTED = "game_started", pgettext_lazy("notification kind", "Game started")
        GAME_ENDED = "game_ended", pgettext_lazy("notification kind", "Game ended")
        REMINDER = "reminder", pgettext_lazy("notification kind", "Deadline reminder")
        TIMEOUT = "timeout", pgettext_lazy("notification kind", "Time-out")
        INVITATION = "invitation", pgettext_lazy("notification kind", "Invitation to a table")
        FRIEND_REQUEST = "friend_request", pgettext_lazy("notification kind", "Friend request")
        FRIEND_ACCEPTED = "friend_accepted", pgettext_lazy("notification kind", "New friend")
        CHAT = "chat", pgettext_lazy("notification kind", "Table chat")

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
    # The facts the words are made of (e.g. {"table": "Friday table"}): see
    # notifications.texts for each kind's.
    params = models.JSONField(default=dict, blank=True)
    # Words stored once, in English: rows from before `params`, and senders
    # that give a sentence instead of params. Shown when params are empty.
    text = models.CharField(max_length=200, blank=True)
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
        return f"{self.user} · {self.message}"

    @property
    def is_unread(self) -> bool:
        return self.read_at is None

    @property
    def message(self) -> str:
        """The words, in the active language (a page: the reader's)."""
        return texts.words(self)


class Preferences(models.Model):
    """One per user, created on demand with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    email_enabled = models.BooleanField(_("E-mail"), default=True)
    push_enabled = models.BooleanField(_("Browser notifications"), default=False)
    reminder_minutes = models.PositiveIntegerField(
        _("Remind me before a deadline"), choices=REMINDER_CHOICES, default=120
    )
    quiet_start = models.TimeField(_("Quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("Quiet hours until"), null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    daily_digest = models.BooleanField(_("Daily digest e-mail"), default=False)
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_unsubscribe_token)

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

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
