"""Tables, seats, games and hands. The rules live in games.engine; these rows
store what the engine needs to rebuild a game (the hand records) and what the
site needs to find it (status, whose turn, deadlines)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.engine import TARGET_DEFAULT, Rules

from . import words

# Labels are lazy: they are said in the reader's language when shown.
BOT_LEVELS = [(level, words.BOT_CHOICES[level]) for level in words.BOT_LEVEL_CODES]
_duration = lazy(words.duration, str)
# Time-outs in a row that hand a seat to the medium bot for the rest of the
# game (games.services.moves; the table says so, games.presenters).
TIMEOUTS_BEFORE_HANDOVER = 3
MOVE_TIMES = [(s, _duration(s)) for s in (3600, 12 * 3600, 86400, 3 * 86400)]
DECKS = [
    # Translators: a deck of cards: 24 cards, from the nines to the aces of each suit. Write the noun in the form the number 24 takes.
    ("24", gettext_lazy("24 cards (9 to ace)")),
    # Translators: a deck of cards: 32 cards, from the sevens to the aces of each suit. Write the noun in the form the number 32 takes.
    ("32", gettext_lazy("32 cards (7 to ace)")),
    # Translators: a deck of cards: the 24 cards from the nines to the aces, and the Joker (the highest trump). Write the noun in the form the number 25 takes.
    ("25", gettext_lazy("25 cards (9 to ace and the Joker)")),
]


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Mode(models.TextChoices):
        # Translators: a table's mode: the game is played in one sitting, everyone at the table at the same time.
        LIVE = "live", pgettext_lazy("table mode", "Live")
        # Translators: a table's mode: each move has a time limit (hours or days); players drop in now and then.
        TURNS = "turns", pgettext_lazy("table mode", "By turns")

    class Visibility(models.TextChoices):
        # Translators: a table's visibility: listed in the lobby, anyone may join or watch.
        PUBLIC = "public", pgettext_lazy("table visibility", "Public")
        # Translators: a table's visibility: not listed; people get in through its invitation link.
        PRIVATE = "private", pgettext_lazy("table visibility", "Private (invitation link)")

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        PLAYING = "playing", pgettext_lazy("table status", "Playing")
        FINISHED = "finished", pgettext_lazy("table status", "Finished")

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
    # A learning aid: a "Hint" button shows what the hard bot would do, and
    # why (games.hints). Games at such a table are not rated.
    hints = models.BooleanField(default=False)
    # A daily-deal table (the `daily` app): the day's five fixed deals for its
    # owner against two hard bots. Only its player sees it (no invitations,
    # no spectators) until they are done; its games are not rated, have no
    # rematch and no bot standing in; its records open to everyone who has
    # finished the same day's deal (games.access).
    daily_date = models.DateField(null=True, blank=True, db_index=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "daily_date"],
                name="one_daily_table_per_owner_and_day",
                condition=models.Q(daily_date__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def is_daily(self) -> bool:
        return self.daily_date is not None

    def invite_url(self) -> str:
        return reverse("games:invite", args=[self.invite_token])

    @property
    def rules_obj(self) -> Rules:
        return Rules.from_dict(self.rules)

    def rules_in_words(self) -> list[str]:
        """Every table option in plain words (in the active language), for the
        lobby, the table and the invitation."""
        r = self.rules_obj
        deck = dict(DECKS)[r.deck]
        return [
            # Translators: a table option: %(deck)s is the deck, e.g. "24 cards (9 to ace)".
            _("Deck: %(deck)s") % {"deck": deck},
            # Translators: a table option: the score that wins the game.
            ngettext("Play to %(n)s point", "Play to %(n)s points", self.target)
            % {"n": self.target}
            if not self.is_daily
            # Translators: a table option of the daily deal: the game is its five deals, whatever the scores.
            else _("Five hands, whatever the scores"),
            # Translators: a table option: "stick the dealer" is a Euchre rule: when all three players pass in both rounds of bidding, the dealer must choose trump.
            _("Stick the dealer: the dealer must name trump if everyone passes twice")
            if r.stick_the_dealer
            # Translators: a table option: without "stick the dealer", a hand nobody makes trump in is not played (thrown in).
            else _("No stick the dealer: if everyone passes twice the hand is thrown in"),
            # Translators: a table option: the turned-down suit is the suit of the up card that everyone passed on in the first round.
            _("The turned-down suit may be named in the second round")
            if r.second_round_turned_suit
            # Translators: a table option: the turned-down suit is the suit of the up card that everyone passed on in the first round.
            else _("The turned-down suit may not be named in the second round"),
            ngettext(
                # Translators: a table option: a march is taking all five tricks; a lone maker played without the dummy. %(n)s is a number of points.
                "A lone maker's march scores %(n)s point",
                "A lone maker's march scores %(n)s points",
                r.lone_maker_march,
            )
            % {"n": r.lone_maker_march},
            *(
                # Translators: a table option for learners: a "Hint" button shows what the strongest computer player would do and why; games with hints do not change anyone's rating.
                [_("Hints: a button shows what the hard bot would do; games are not rated")]
                if self.hints
                else []
            ),
        ]

    def mode_in_words(self) -> str:
        """Live, or by turns with the time per move (in the active language)."""
        if self.mode == self.Mode.TURNS:
            # Translators: a table's mode: %(time)s is the time limit per move, e.g. "1 day".
            return _("By turns, %(time)s per move") % {"time": self.get_move_seconds_display()}
        return str(self.Mode.LIVE.label)


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
        # A player's seats, newest table first: the pages of My games (selectors.my_games).
        indexes = [models.Index(fields=["user", "table"], name="seat_user_table")]

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
        """The seat's name at the table, in the active language (games.words.seat_name)."""
        username = self.user.username if self.user is not None else None
        return words.seat_name(username, self.bot_level, self.position)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", pgettext_lazy("game status", "Playing")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")

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
    # A game of fixed deals (the daily deal): hand n is dealt from deals[n]
    # (hand records' `deal` objects) and the game ends after the last one.
    # Never shown: a deal is seen only as its hand is played.
    deals = models.JSONField(null=True, blank=True)
    # With it, the bots' randomness is fixed: each decision's rng comes from
    # this seed, the hand, the seat and the actions so far, and the hard bot
    # takes its whole sample budget (games.tasks), so the same play meets the
    # same bot moves.
    bot_seed = models.CharField(max_length=64, blank=True, default="")

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
