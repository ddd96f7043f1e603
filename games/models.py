"""Tables, seats, games and hands. The rules live in games.engine; these rows
store what the engine needs to rebuild a game (the hand records) and what the
site needs to find it (status, whose turn, deadlines)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine import TARGET_DEFAULT, Rules

BOT_LEVELS = [("easy", "Easy bot"), ("medium", "Medium bot"), ("hard", "Hard bot")]
MOVE_TIMES = [(3600, "1 hour"), (12 * 3600, "12 hours"), (86400, "1 day"), (3 * 86400, "3 days")]
DECKS = [
    ("24", "24 cards (9 to ace)"),
    ("32", "32 cards (7 to ace)"),
    ("25", "25 cards (9 to ace and the Joker)"),
]


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Mode(models.TextChoices):
        LIVE = "live", "Live"
        TURNS = "turns", "By turns"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Public"
        PRIVATE = "private", "Private (invitation link)"

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=60)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_tables"
    )
    rules = models.JSONField(default=dict)  # Rules.to_dict(): every table option of docs/rules.md
    target = models.PositiveSmallIntegerField(default=TARGET_DEFAULT)
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.LIVE)
    move_seconds = models.PositiveIntegerField(choices=MOVE_TIMES, null=True, blank=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    def invite_url(self) -> str:
        return reverse("games:invite", args=[self.invite_token])

    @property
    def rules_obj(self) -> Rules:
        return Rules.from_dict(self.rules)

    def rules_in_words(self) -> list[str]:
        """Every table option in plain words, for the lobby, the table and the invitation."""
        r = self.rules_obj
        deck = dict(DECKS)[r.deck]
        return [
            f"Deck: {deck}",
            f"Play to {self.target} points",
            "Stick the dealer: the dealer must name trump if everyone passes twice"
            if r.stick_the_dealer
            else "No stick the dealer: if everyone passes twice the hand is thrown in",
            "The turned-down suit may be named in the second round"
            if r.second_round_turned_suit
            else "The turned-down suit may not be named in the second round",
            f"A lone maker's march scores {r.lone_maker_march}",
        ]

    def mode_in_words(self) -> str:
        if self.mode == self.Mode.TURNS:
            return f"By turns, {self.get_move_seconds_display()} per move"
        return "Live"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=8, choices=BOT_LEVELS, blank=True, default="")
    # Moves the medium bot made for this person after their time ran out, in a row.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # A live player whose connection dropped past the grace period: the bot
    # plays (bot_level) until they come back, then the seat is theirs again.
    away = models.BooleanField(default=False)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
            models.CheckConstraint(
                condition=models.Q(position__lte=2), name="seat_position_0_to_2"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_bot(self) -> bool:
        """A bot plays this seat: a bot's own seat, or a person's handed to a bot."""
        return bool(self.bot_level)

    @property
    def display_name(self) -> str:
        if self.user is not None:
            return f"{self.user.username} (bot playing)" if self.bot_level else self.user.username
        if self.bot_level:
            return f"{self.bot_level.capitalize()} bot {self.position + 1}"
        return "Empty seat"


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(default=1)  # 2, 3, ... for rematches at the same table
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    # Compare-and-swap guard: every stored move bumps it; a move for another version changes nothing.
    version = models.PositiveIntegerField(default=0)
    first_dealer = models.PositiveSmallIntegerField()
    scores = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    to_act = models.PositiveSmallIntegerField(
        null=True, blank=True
    )  # seat whose turn it is, for lists
    turn_started = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.table.name} #{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.table_id])


class Hand(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()  # 0-based index in the game record
    record: models.JSONField[Any, Any] = (
        models.JSONField()
    )  # euchre3-hand/1, saved after every move
    result = models.JSONField(null=True, blank=True)  # the replay result once the hand is over
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_number_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number + 1}"
