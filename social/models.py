"""Who plays with whom: friends, blocks, mutes, and invitations to a seat.

The rules of each change live in social.services; what a page or another app
needs to know (is this player blocked, whose messages are hidden) in
social.selectors.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone


def new_token() -> str:
    return secrets.token_urlsafe(18)


class FriendRequest(models.Model):
    """A request from `sender` to `recipient`; accepted, it is the friendship."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"
        ENDED = "ended"  # unfriended after being accepted

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_got"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(default=timezone.now)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            # At most one live request (pending or accepted) per ordered pair;
            # services also refuse one when the other direction has one.
            models.UniqueConstraint(
                fields=["sender", "recipient"],
                condition=Q(status__in=["pending", "accepted"]),
                name="one_live_friend_request",
            ),
            models.CheckConstraint(
                condition=~Q(sender=models.F("recipient")), name="no_self_friend"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} -> {self.recipient_id} ({self.status})"


class Block(models.Model):
    """`blocker` blocked `blocked`: no invitations, friend requests or seats at
    the blocker's tables from them, and their messages hidden from the blocker.
    Nothing tells the blocked player."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"


class Mute(models.Model):
    """`muter` does not see `muted`'s chat messages, anywhere."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair"),
            models.CheckConstraint(condition=~Q(muter=models.F("muted")), name="no_self_mute"),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} muted {self.muted_id}"


INVITATION_DAYS = 7


class Invitation(models.Model):
    """A seat held for one person: a player (`invitee`) or, for someone without
    an account yet, whoever signs up through the `token` link (`email`)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        EXPIRED = "expired"  # 7 days passed, or the table started without them
        CANCELLED = "cancelled"  # the inviter took it back, or left the table

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="invitations")
    position = models.PositiveSmallIntegerField()
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
    )
    email = models.EmailField(blank=True)
    token = models.CharField(max_length=32, unique=True, default=new_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"],
                condition=Q(status="pending"),
                name="one_pending_invitation_per_seat",
            ),
            models.UniqueConstraint(
                fields=["table", "invitee"],
                condition=Q(status="pending"),
                name="one_pending_invitation_per_invitee",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.position} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("social:invitation", args=[self.token])

    def is_live(self) -> bool:
        return self.status == self.Status.PENDING and self.expires > timezone.now()
