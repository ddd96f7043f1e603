"""The daily deal: one row per UTC day with its secret seed and the five
deals drawn from it, and one entry per player and day with their points."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import pgettext_lazy

HANDS = 5  # deals a day
SEAT = 0  # every player's seat; the hard bots sit in 1 and 2


class DailyDeal(models.Model):
    date = models.DateField(unique=True)  # a UTC day
    # From `secrets` when the row is created, never from the date: nobody can
    # compute a day's deals in advance. Shown once the day is over.
    seed = models.CharField(max_length=64)
    rules = models.JSONField(default=dict)  # Rules.to_dict(): the default table options
    first_dealer = models.PositiveSmallIntegerField()
    deals = models.JSONField()  # HANDS hand-record `deal` objects, drawn from the seed
    created = models.DateTimeField(auto_now_add=True)
    # The day's figures, recomputed by daily.tasks as players finish hands:
    # {"players": n, "hands": [{"best", "average", "players", "best_entry"}, ...]}
    summary = models.JSONField(default=dict)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return self.date.isoformat()

    def get_absolute_url(self) -> str:
        return reverse("daily:day", args=[self.date.isoformat()])


class Entry(models.Model):
    """One player's attempt at one day's deal (one a day)."""

    class Status(models.TextChoices):
        # Translators: a daily-deal attempt's state: the player is still playing it.
        PLAYING = "playing", pgettext_lazy("daily deal attempt", "Playing")
        # Translators: a daily-deal attempt's state: all five hands played.
        FINISHED = "finished", pgettext_lazy("daily deal attempt", "Finished")
        # Translators: a daily-deal attempt's state: the player left (or the day ended) before the fifth hand; the hands played count.
        STOPPED = "stopped", pgettext_lazy("daily deal attempt", "Stopped early")

    deal = models.ForeignKey(DailyDeal, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_entries"
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="daily_entry"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    points = models.JSONField(default=list)  # the player's own points in each hand played
    total = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True)  # ties share a place
    streak = models.PositiveIntegerField(default=1)  # days played in a row, up to this one
    # Placed on the day's leaderboard (services.day_results_update): an
    # account with a verified address that was a day old when the attempt
    # started or had finished RANKED_AFTER_GAMES games; others show, unranked.
    ranked = models.BooleanField(default=False)
    # Hidden by staff (the admin): left out of the day's figures and board.
    hidden = models.BooleanField(default=False)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["deal", "place", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "user"], name="one_daily_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.deal} {self.user_id}"

    @property
    def hands_played(self) -> int:
        return len(self.points)

    @property
    def done(self) -> bool:
        return self.status != self.Status.PLAYING
