"""A game's life: it starts (a full table, a rematch, the daily deal), stops
early, and its seats change hands while it is under way (autopilot, away).
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import access, engine, signals
from games.engine import Rules
from games.models import BOT_LEVELS, Game, Hand, Seat, Table

from .after import after_lobby_change, after_move
from .caps import check_autopilot_seats, check_expert_tables, on_autopilot
from .state import game_state, locked_game
from .turns import set_turn, turn_deadline


def start_if_full(table: Table) -> Game | None:
    if any(seat.is_empty for seat in table.seats.all()):
        after_lobby_change(table)
        return None
    number = (table.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return game_start(table, number)


Deal = engine.RecordDeal  # a hand record's `deal` (docs/hand-record.md)


@dataclass(frozen=True)
class FixedDeals:
    """A game of fixed deals: hand n is dealt from `deals[n]` (hand records'
    `deal` objects), the first by `first_dealer`, and the game ends after the
    last one; the bots' randomness comes from `bot_seed` (games.tasks)."""

    deals: tuple[Deal, ...]
    first_dealer: int
    bot_seed: str


def daily_table_create(
    *, owner: User, day: datetime.date, rules: Mapping[str, object], fixed: FixedDeals
) -> Game:
    """Open the owner's private table for the daily deal of `day` and start
    its game at once: the owner in seat 0 (every player's seat), hard bots in
    seats 1 and 2. Target 25, the highest allowed: nobody reaches it in five
    hands (at most 4 points a hand), so every attempt plays every deal and
    ends after the last (the hand limit). Not listed in the lobby, no hints.
    Raises Refusal (Code.CONFLICT) if the owner already has a table for that day."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    name=day.isoformat(),
                    owner=owner,
                    rules=Rules.from_dict(rules).to_dict(),
                    target=engine.TARGET_MAX,
                    mode=Table.Mode.LIVE,
                    visibility=Table.Visibility.PRIVATE,
                    daily_date=day,
                )
        except IntegrityError:
            # Translators: a player asked to start the daily deal of a day they have already started.
            raise Refusal(
                code=Code.CONFLICT, message=_("You have already started this daily deal.")
            ) from None
        Seat.objects.bulk_create(
            [
                Seat(table=table, position=0, user=owner),
                Seat(table=table, position=1, bot_level="hard"),
                Seat(table=table, position=2, bot_level="hard"),
            ]
        )
        table = Table.objects.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        ).get(pk=table.pk)
        return game_start(table, 1, fixed)


def game_stop(*, game_id: int) -> bool:
    """End a game before its last hand (a daily deal left half-played, or its
    day over): the hand in progress is not played on and counts for nobody;
    no winner. Returns whether it stopped now (False if it was over already)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game is None or game.status != Game.Status.PLAYING:
            return False
        now = timezone.now()
        updated = Game.objects.filter(pk=game.pk, version=game.version).update(
            version=F("version") + 1,
            status=Game.Status.FINISHED,
            finished=now,
            to_act=None,
            turn_started=None,
            deadline=None,
        )
        if updated != 1:
            return False
        Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
        game.version += 1
        game.status, game.finished, game.to_act, game.deadline = (
            Game.Status.FINISHED,
            now,
            None,
            None,
        )
        game.table.status = Table.Status.FINISHED
        transaction.on_commit(
            partial(signals.game_finished.send, sender=Game, game_id=game.pk), robust=True
        )
        after_move(game, game_state(game))
    return True


def game_start(table: Table, number: int, fixed: FixedDeals | None = None) -> Game:
    rng = random.Random(secrets.randbits(64))
    if fixed is None:
        first_dealer = rng.randrange(3)
        state = engine.new_game(table.rules_obj, table.target, first_dealer)
        state = engine.game_start_hand(state, rng)
    else:
        first_dealer = fixed.first_dealer
        state = engine.new_game(
            table.rules_obj, table.target, first_dealer, hand_limit=len(fixed.deals)
        )
        state = engine.game_deal_hand(state, fixed.deals[0])
    game = Game.objects.create(
        table=table,
        number=number,
        first_dealer=first_dealer,
        scores=list(state.scores),
        version=1,
        deals=list(fixed.deals) if fixed else None,
        bot_seed=fixed.bot_seed if fixed else "",
    )
    assert state.current is not None
    Hand.objects.create(game=game, number=0, record=engine.hand_to_record(state.current))
    set_turn(game, state)
    game.save(update_fields=["to_act", "turn_started", "deadline", "last_move_at"])
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated"])
    after_lobby_change(table)
    after_move(game, state)
    return game


def game_rematch(*, table: Table, user: User) -> Game:
    """A new game at a finished table, same seats (any seated player may ask)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if access.seat_of(table, user) is None:
            raise Refusal(
                code=Code.FORBIDDEN,
                message=_("Only the players at this table can start a rematch."),
            )
        if table.is_daily:
            # Translators: the daily deal (the same five deals for every player, once a day) is played once; a rematch at its table is refused.
            raise Refusal(
                code=Code.CONFLICT,
                message=_("The daily deal is played once a day: there is no rematch."),
            )
        last = table.games.order_by("-number").first()
        if last is None or last.status != Game.Status.FINISHED:
            raise Refusal(code=Code.CONFLICT, message=_("The current game is not finished yet."))
        _rematch_within_caps(table, user)
        try:
            return game_start(table, last.number + 1)
        except IntegrityError:
            raise Refusal(code=Code.CONFLICT, message=_("A rematch has already started.")) from None


def _rematch_within_caps(table: Table, user: User) -> None:
    """A rematch restarts the table with its seats as they are: it counts
    again against the owner's expert tables (refused over the cap), and a
    seat a bot played for its person stays so only within that person's
    autopilot seats (over the cap they play it themselves)."""
    try:
        check_expert_tables(table.owner, table)
    except Refusal:
        if table.owner_id == user.pk:
            raise
        limit = settings.MAX_EXPERT_TABLES
        raise Refusal(
            code=Code.CONFLICT,
            # Translators: a player asked for a rematch at a table with expert bots (the strongest computer players); the table's creator already has the most tables with expert bots allowed at a time.
            message=ngettext(
                "The table's creator already has %(max)s table with expert bots under way,"
                " the most at a time: the rematch can start once it is finished.",
                "The table's creator already has %(max)s tables with expert bots under way,"
                " the most at a time: the rematch can start once one of them is finished.",
                limit,
            )
            % {"max": limit},
        ) from None
    for seat in on_autopilot(table.seats.exclude(user=None)).select_related("user"):
        assert seat.user is not None  # a person's seat (exclude(user=None))
        try:
            check_autopilot_seats(seat.user, table)
        except Refusal:
            Seat.objects.filter(pk=seat.pk).update(bot_level="")


def seat_set_autopilot(*, table: Table, user: User, level: str) -> None:
    """A player hands their seat in the game under way to a bot (`level`),
    or takes it back (`level` ""): the seat stays theirs either way."""
    if level and level not in dict(BOT_LEVELS):
        raise Refusal(_("Choose an easy, medium, hard or expert bot."))
    if table.is_daily:
        # Translators: in the daily deal every player plays their own cards; no bot may play for them.
        raise Refusal(
            code=Code.FORBIDDEN,
            message=_("In the daily deal you play your own cards: no bot can play for you."),
        )
    with transaction.atomic():
        game = (
            Game.objects.select_for_update().filter(table=table, status=Game.Status.PLAYING).first()
        )
        if game is None:
            raise Refusal(
                code=Code.CONFLICT, message=_("There is no game under way at this table.")
            )
        if level and Seat.objects.filter(table=table, user=user).exists():
            check_autopilot_seats(user, table)
        # The seat's time-out count is left as it is (see _count_timeouts):
        # taking the seat back is not a move made in time.
        if not Seat.objects.filter(table=table, user=user).update(bot_level=level, away=False):
            raise Refusal(code=Code.FORBIDDEN, message=_("You are not playing at this table."))
        seat_changed(game)


def seat_set_away(*, table_id: int, user_id: int, away: bool) -> bool:
    """A live player dropped (a bot plays for them) or came back (their seat
    again, at once). Returns whether anything changed."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update()
            .filter(
                table_id=table_id,
                status=Game.Status.PLAYING,
                table__mode=Table.Mode.LIVE,
                # A daily deal waits for its player: they resume it while the day lasts.
                table__daily_date__isnull=True,
            )
            .first()
        )
        if game is None:
            return False
        seats = Seat.objects.filter(table_id=table_id, user_id=user_id)
        changed = (
            seats.filter(bot_level="").update(bot_level="medium", away=True)
            if away
            else seats.filter(away=True).update(bot_level="", away=False)
        )
        if not changed:
            return False
        seat_changed(game)
        return True


def seat_changed(game: Game) -> None:
    """Someone else plays a seat now (a bot, or the person again): the turn's
    deadline follows, the version moves on, the table is pushed and a bot
    whose turn it is gets going."""
    game = (
        Game.objects.select_related("table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("user")))
        .get(pk=game.pk)
    )
    game.deadline = turn_deadline(game, timezone.now())
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, deadline=game.deadline)
    game.version += 1
    after_move(game, game_state(game))
