import datetime

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

VACATION_DAYS_PER_YEAR = 14


class User(AbstractUser):
    """A player. Custom from the first migration so fields can be added freely."""

    # While on vacation the player's deadlines in by-turns games are paused.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # The language the player reads the site, e-mails and pushes in; "" until
    # they choose one (or sign up), then the browser's decides.
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # Clubs green and diamonds blue, for players who tell red from black poorly.
    four_colour_deck = models.BooleanField(default=False)
    # When the player holds one card they may play, the site plays it for them.
    play_only_card = models.BooleanField(default=False)
    # A visitor who pressed "Play now": a real player bound to their browser's
    # session, without e-mail or password, until they sign up (accounts.guests).
    is_guest = models.BooleanField(default=False)
    # The zone the player reads times in and keeps quiet hours by (a zoneinfo
    # name); "" until their browser tells it (accounts.timezones).
    time_zone = models.CharField(max_length=64, blank=True, default="")

    def on_vacation(self, now: datetime.datetime | None = None) -> bool:
        return self.vacation_until is not None and self.vacation_until > (now or timezone.now())

    def vacation_days_left(self, now: datetime.datetime | None = None) -> int:
        year = (now or timezone.now()).year
        used = self.vacation_days_used if self.vacation_year == year else 0
        return VACATION_DAYS_PER_YEAR - used

    class Meta:
        db_table = "accounts_user"

    def __str__(self) -> str:
        return self.username
