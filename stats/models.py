"""Facts derived from finished hands and games, the figures computed from them,
ratings, and imported game records.

Every figure on a stats page is read from `PlayerStats.data`, written by a
Celery task after each hand and game; a page view never aggregates history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games import words

POSITIONS = {1: "left", 2: "second", 0: "dealer"}  # (seat - dealer) % 3


class HandFact(models.Model):
    """One finished hand as one person saw it: one row per (hand, person)."""

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="facts")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="hand_facts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hand_facts"
    )
    seat = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # 1 left of dealer, 2 second, 0 dealer
    finished = models.DateTimeField()
    mode = models.CharField(max_length=8)
    rules_key = models.CharField(max_length=40)
    thrown_in = models.BooleanField(default=False)
    maker = models.BooleanField(default=False)
    call_round = models.PositiveSmallIntegerField(null=True)  # 1 or 2, makers only
    maker_alone = models.BooleanField(default=False)
    maker_dummy = models.BooleanField(default=False)
    made = models.BooleanField(default=False)
    march = models.BooleanField(default=False)
    euchred = models.BooleanField(default=False)
    defender = models.BooleanField(default=False)
    defender_euchre = models.BooleanField(default=False)  # the maker was euchred
    defended_alone = models.BooleanField(default=False)
    defended_alone_won = models.BooleanField(default=False)
    defended_alone_march = models.BooleanField(default=False)
    sat_out = models.BooleanField(default=False)
    trump = models.CharField(max_length=1, blank=True, default="")
    dealer_chance = models.BooleanField(default=False)  # dealer, another seat ordered it up
    dealer_pickup = models.BooleanField(default=False)
    tricks = models.PositiveSmallIntegerField(default=0)
    points = models.SmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "user"], name="one_fact_per_hand_user")
        ]
        # The hand history's order (stats.selectors.history): a page of it
        # reads this index alone, however far back (docs/data-growth.md).
        indexes = [models.Index(fields=["user", "finished", "hand"], name="handfact_user_history")]

    def __str__(self) -> str:
        return f"hand {self.hand_id} / user {self.user_id}"


class GameFact(models.Model):
    """One finished game as one person played it."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="game_facts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_facts"
    )
    seat = models.PositiveSmallIntegerField()
    finished = models.DateTimeField()
    mode = models.CharField(max_length=8)
    rules_key = models.CharField(max_length=40)
    won = models.BooleanField(default=False)  # never when a bot played most of the seat
    score = models.SmallIntegerField(default=0)
    # False when a bot made all the seat's decisions: not this person's game at all.
    counted = models.BooleanField(default=True)
    # Why the game is not rated for this person, or rated otherwise: stats.facts
    # BOT_ONLY, MOSTLY_BOT, LEFT (rated last), HINTS, DAILY; "" rated as played.
    rating_note = models.CharField(max_length=12, blank=True, default="")
    decisions = models.PositiveSmallIntegerField(default=0)  # the seat's, in the whole game
    bot_decisions = models.PositiveSmallIntegerField(default=0)  # of which a bot made

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_fact_per_game_user")
        ]
        indexes = [models.Index(fields=["user", "finished"])]

    def __str__(self) -> str:
        return f"game {self.game_id} / user {self.user_id}"


# --------------------------------------------------------------------------- the stored figures
# The shape of PlayerStats.data (stats.services.figures writes it). A count is
# whole for a person and may have one decimal for the average player; a share
# (`_pct`, per cent) or a ratio is None when there was nothing to divide by.


class GamesBlock(TypedDict):
    played: float
    won: float
    win_pct: float | None


class GamesFigures(GamesBlock):
    by_mode: dict[str, GamesBlock]  # by Table.Mode value
    by_rules: dict[str, GamesBlock]  # by facts.rules_key


class MakerBlock(TypedDict):
    calls: float
    made: float
    make_pct: float | None
    marches: float
    euchred: float
    euchred_pct: float | None


class PositionFigures(TypedDict):
    hands: float
    calls: float
    calls_per_hand: float | None
    make_pct: float | None


class MakerFigures(MakerBlock):
    calls_per_hand: float | None
    round1: float
    round2: float
    by_position: dict[str, PositionFigures]  # by POSITIONS' names
    dummy: MakerBlock
    alone: MakerBlock


class DefendedAlone(TypedDict):
    attempts: float
    won: float
    won_pct: float | None
    marches: float
    lost: float


class DefenderFigures(TypedDict):
    hands: float
    euchres: float
    euchre_pct: float | None
    alone: DefendedAlone


class TrumpFigures(TypedDict):
    calls: float
    made: float
    make_pct: float | None


class DealerFigures(TypedDict):
    chances: float
    pickups: float
    pickup_pct: float | None


class HandFigures(TypedDict):
    hands: float
    points: float
    points_per_hand: float | None
    thrown_in: float
    maker: MakerFigures
    defender: DefenderFigures
    trump: dict[str, TrumpFigures]  # by suit letter
    dealer: DealerFigures


class ScopeFigures(HandFigures):
    """The figures over one span of time (lifetime, or the last 30 days)."""

    games: GamesFigures


class SeriesPoint(TypedDict):
    at: str  # ISO 8601
    game: int
    value: float  # the game's points per hand


class RatingPoint(TypedDict):
    at: str  # ISO 8601
    game: int
    value: int  # the shown rating after the game


class Series(TypedDict):
    points_per_hand: list[SeriesPoint]
    rating: list[RatingPoint]


class RatingFigures(TypedDict):
    value: int  # the shown rating
    mu: float
    sigma: float
    games: int
    provisional: bool


class Agreement(TypedDict):
    """How often a player's decisions were the hard bot's, over their reviews."""

    pct: float | None
    decisions: int
    hands: int


class Figures(TypedDict):
    lifetime: ScopeFigures
    recent: ScopeFigures


class StoredStats(TypedDict):
    """PlayerStats.data: a person's row has every key; the average player's
    only the figures; a page reading a missing row gets {} (no key at all)."""

    lifetime: NotRequired[ScopeFigures]
    recent: NotRequired[ScopeFigures]
    series: NotRequired[Series]
    rating: NotRequired[RatingFigures | None]
    agreement: NotRequired[Agreement | None]


class PlayerStats(models.Model):
    """The stored figures of one person (`key` "user:<id>") or of the average
    player (`key` "all"): {"lifetime": {...}, "recent": {...}, "series": {...}}."""

    key = models.CharField(max_length=40, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="player_stats",
    )
    data: models.JSONField[StoredStats, StoredStats] = models.JSONField(default=dict)
    computed = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.key


# The shown rating: 1500 + 20 x (mu - 25). It follows mu, the rating's
# estimate of the player's strength, which rises with each result better than
# the ratings at the table predicted and falls with each worse one (mu - 3 sigma,
# the "ordinal", rose while its uncertainty shrank, even game after lost game).
# A scale of 20 makes a settled player's game move it by some 10 to 30 points.
SHOWN_BASE = 1500
SHOWN_SCALE = 20
SHOWN_MU = 25.0  # a new player's mu (OpenSkill's default)
# Provisional until both: PROVISIONAL_GAMES rated games, and sigma down to
# PROVISIONAL_SIGMA (from 8.33: some 10 games against new players, 4 or 5
# against bots with settled ratings). Only established ratings are listed.
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 6.5


def shown_rating(mu: float) -> int:
    """A rating as the site shows it."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - SHOWN_MU))


def established_q() -> models.Q:
    """The ratings that are no longer provisional (a queryset filter)."""
    return models.Q(games__gte=PROVISIONAL_GAMES, sigma__lte=PROVISIONAL_SIGMA)


class Rating(models.Model):
    """An OpenSkill (Plackett-Luce) rating: a person, or a bot level as one pseudo-player."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating",
    )
    bot_level = models.CharField(max_length=8, blank=True, default="")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        # The leaderboard's order (services.leaderboard), read from the top.
        indexes = [models.Index(fields=["mu"], name="rating_mu")]
        constraints = [
            models.UniqueConstraint(
                fields=["bot_level"],
                condition=models.Q(user__isnull=True),
                name="one_rating_per_bot_level",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.display}"

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.username
        if self.bot_level in words.BOT_CHOICES:
            return str(words.BOT_CHOICES[self.bot_level])
        return f"{self.bot_level.capitalize()} bot"

    @property
    def display(self) -> int:
        """The shown rating (shown_rating): it moves with the results."""
        return shown_rating(self.mu)

    @property
    def provisional(self) -> bool:
        """Too few games, or still too uncertain, to be listed (marked on the pages)."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


class RatingEvent(models.Model):
    """A rating after one game: the history behind the chart (one row per rating and game)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_events")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="one_event_per_rating_game")
        ]
        # A rating's events in order: the one before a game (selectors.rating_before),
        # the chart's last ones (services.rating_series).
        indexes = [models.Index(fields=["rating", "at"], name="ratingevent_rating_at")]

    def __str__(self) -> str:
        return f"{self.rating_id} after game {self.game_id}"

    @property
    def display(self) -> int:
        return shown_rating(self.mu)


class ImportedGame(models.Model):
    """A game record (euchre3-game/1) a person imported to look at: never
    counted in statistics or ratings, seen only by its importer. Written by
    stats.services.import_game_record."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_games"
    )
    name = models.CharField(max_length=80, blank=True, default="")
    record: models.JSONField[Any, Any] = models.JSONField()
    # The game's replay result and each hand's (engine.result), computed once at
    # import: the pages read them and never replay the record (up to 1 MB).
    result: models.JSONField[Any, Any] = models.JSONField()
    hand_results: models.JSONField[Any, Any] = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        # Translators: an imported game that its importer gave no name: %(n)s is its number.
        return self.name or _("Imported game %(n)s") % {"n": self.pk}


class RankedMove(TypedDict):
    """A move of the hard bot's ranking (bots.analyse), rounded."""

    action: Mapping[str, object]  # an action as a hand record has it
    share: float  # of the imagined deals where it was best
    score: float


class ReviewDecision(TypedDict):
    """One reviewed decision (Review.decisions): the person's move, the bot's."""

    index: int  # in the hand record's actions
    action: Mapping[str, object]
    best: Mapping[str, object] | None
    best_share: float | None  # None: the search had one move to try
    my_share: float | None
    agree: bool
    ranking: list[RankedMove]  # the best five


class Review(models.Model):
    """The hard bot's opinion of one person's decisions in one finished hand."""

    class Status(models.TextChoices):
        # Translators: the state of a hard-bot review of a hand: waiting for its turn to run.
        QUEUED = "queued", pgettext_lazy("review status", "Queued")
        # Translators: the state of a hard-bot review of a hand: the bot is looking at the decisions now.
        RUNNING = "running", pgettext_lazy("review status", "Running")
        # Translators: the state of a hard-bot review of a hand: finished.
        DONE = "done", pgettext_lazy("review status", "Done")

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done_steps = models.PositiveSmallIntegerField(default=0)
    total_steps = models.PositiveSmallIntegerField(default=0)
    decisions: models.JSONField[list[ReviewDecision], list[ReviewDecision]] = models.JSONField(
        default=list
    )
    agreed = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "user"], name="one_review_per_hand_user")
        ]

    def __str__(self) -> str:
        return f"review of hand {self.hand_id} for user {self.user_id}"
