"""Every state change of tables and games happens here, in one function each.

A move: `game_act` locks the game row, checks seat and version, applies the
action through the engine, stores the hand record, bumps the version with a
compare-and-swap, and after commit broadcasts to each viewer and queues the
next bot move (games.realtime, games.tasks).
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import guests
from euchre_site.refusal import Code, Refusal
from games import engine
from games.engine import Action, EngineError, GameState, Rules

from . import access, messages, signals
from .models import BOT_LEVELS, Game, Hand, Seat, Table, new_invite_token

MAX_NAME = 60


def refused(exc: EngineError) -> Refusal:
    """The engine's refusal, said to the player (games.messages), with the
    rules page's section that explains it."""
    return Refusal(messages.refusal(exc), code=Code.MOVE_REFUSED, rule=messages.rule_anchor(exc))


# --------------------------------------------------------------------------- state


# Keyed by (id, creation time, version): ids alone repeat when a database is
# recreated (the tests do it constantly).
_STATE_CACHE: OrderedDict[tuple[int, object, int], GameState] = OrderedDict()
_STATE_CACHE_SIZE = 512


def _cache_key(game: Game) -> tuple[int, object, int]:
    return (game.pk, game.created, game.version)


def game_state(game: Game) -> GameState:
    """The engine's state of a game, rebuilt from its stored hand records.

    States are immutable, so one rebuilt for (game, version) is kept and
    shared, but only once it is committed: a state built inside a transaction
    that then rolls back must never be the base of a later move.
    """
    key = _cache_key(game)
    state = _STATE_CACHE.get(key)
    if state is not None:
        _STATE_CACHE.move_to_end(key)
        return state
    hands = list(game.hands.order_by("number"))
    record = {
        "format": "euchre3-game/1",
        "target": game.table.target,
        "rules": game.table.rules,
        "first_dealer": game.first_dealer,
        "hands": [h.record for h in hands],
    }
    if game.deals:  # a game of fixed deals ends after the last one
        record["hand_limit"] = len(game.deals)
    # The last hand may be waiting for the maker's five (a keep-less `dummy`).
    state = engine.game_from_record(record, pending_keep=True)
    # Rows read inside a transaction may be its own, not yet committed, writes.
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(partial(_cache_put, key, state))
    else:
        _cache_put(key, state)
    return state


def _cache_put(key: tuple[int, object, int], state: GameState) -> None:
    """Only committed states go here: `game_state` puts what it read from the
    database, `game_act` what it stored, once the transaction has committed."""
    _STATE_CACHE[key] = state
    if len(_STATE_CACHE) > _STATE_CACHE_SIZE:
        _STATE_CACHE.popitem(last=False)


def current_hand_row(game: Game) -> Hand | None:
    return game.hands.order_by("-number").first()


# --------------------------------------------------------------------------- tables


def table_create(
    *,
    owner: Any,
    name: str,
    rules: dict[str, Any],
    target: int,
    mode: str,
    move_seconds: int | None,
    visibility: str,
    hints: bool = False,
    bots: Mapping[int, str] | None = None,
) -> Table:
    """Open a table with the creator in seat 0 and `bots` (position: level,
    "" for a seat left open) in the others, all at once: a refused bot (the
    cap on expert tables) leaves no table behind. The game starts if the
    bots fill the table."""
    name = name.strip()
    if not name:
        raise Refusal(_("Give the table a name."))
    if len(name) > MAX_NAME:
        raise Refusal(
            ngettext(
                "A table name has at most %(max)s character.",
                "A table name has at most %(max)s characters.",
                MAX_NAME,
            )
            % {"max": MAX_NAME}
        )
    try:
        rules_obj = Rules.from_dict(rules)
    except EngineError as exc:
        raise refused(exc) from None
    try:
        engine.check_target(target)
    except EngineError as exc:
        raise refused(exc) from None
    if mode not in Table.Mode.values:
        # Translators: a table is played live (everyone at once) or by turns (a time limit per move).
        raise Refusal(_("Choose live or by turns."))
    if mode == Table.Mode.TURNS:
        times = {s for s, _label in Table._meta.get_field("move_seconds").choices or []}
        if move_seconds not in times:
            raise Refusal(_("Choose the time per move."))
    else:
        move_seconds = None
    if visibility not in Table.Visibility.values:
        raise Refusal(_("Choose public or private."))
    if guests.is_guest(owner):
        # A guest plays live against bots alone (accounts.guests), unseen in the lobby.
        if mode != Table.Mode.LIVE or not all((bots or {}).get(p) for p in (1, 2)):
            raise Refusal(code=Code.FORBIDDEN, message=guests.refusal())
        visibility = Table.Visibility.PRIVATE
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            owner=owner,
            rules=rules_obj.to_dict(),
            target=target,
            mode=mode,
            move_seconds=move_seconds,
            visibility=visibility,
            hints=hints,
        )
        Seat.objects.bulk_create(
            [Seat(table=table, position=0, user=owner)]
            + [Seat(table=table, position=p) for p in (1, 2)]
        )
        _after_lobby_change(table)
        for position, level in sorted((bots or {}).items()):
            if level:
                table_set_bot(table=table, user=owner, position=position, level=level)
    return table


def table_revoke_invitation(*, table: Table, user: Any) -> None:
    """The owner revokes the table's invitation link: a new link replaces it,
    and whoever came in through the old one (and is not seated) no longer
    sees the table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.owner_id != user.pk:
            raise Refusal(
                code=Code.FORBIDDEN,
                message=_("Only the table's creator can revoke its invitation link."),
            )
        table.invite_token = new_invite_token()
        table.save(update_fields=["invite_token", "updated"])
        _after_lobby_change(table)  # open pages re-check who may watch


def _open_table_for_update(table_id: int) -> Table:
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.OPEN:
        raise Refusal(code=Code.CONFLICT, message=_("The game at this table has already started."))
    return table


def table_join(*, table: Table, user: Any, position: int) -> Game | None:
    """Sit in an empty seat; the game starts when the third seat is filled."""
    if guests.is_guest(user):  # a guest sits at their own tables only, with bots
        raise Refusal(code=Code.FORBIDDEN, message=guests.refusal())
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if table.seats.filter(user=user).exists():
            raise Refusal(code=Code.CONFLICT, message=_("You already have a seat at this table."))
        if not Seat.objects.filter(
            table=table, position=position, user__isnull=True, bot_level=""
        ).exists():
            raise Refusal(code=Code.CONFLICT, message=_("That seat is taken."))
        signals.seat_wanted.send(sender=Table, table=table, position=position, user=user)
        Seat.objects.filter(table=table, position=position).update(user=user)
        signals.seat_taken.send(sender=Table, table=table, user=user)
        return _start_if_full(table)


def table_leave(*, table: Table, user: Any) -> None:
    """Leave a seat before the game starts (the owner closes an empty table)."""
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if not Seat.objects.filter(table=table, user=user).update(user=None):
            raise Refusal(code=Code.FORBIDDEN, message=_("You are not seated at this table."))
        if not table.seats.filter(user__isnull=False).exists():
            _after_lobby_change(table)  # open pages learn that the table is gone
            table.delete()
            return
        _after_lobby_change(table)


def table_set_bot(*, table: Table, user: Any, position: int, level: str) -> Game | None:
    """The owner puts a bot in an empty seat, or removes it (level "")."""
    if level and level not in dict(BOT_LEVELS):
        raise Refusal(_("Choose an easy, medium, hard or expert bot."))
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if table.owner_id != user.pk:
            raise Refusal(code=Code.FORBIDDEN, message=_("Only the table's creator can seat bots."))
        if level:
            if level == "expert":
                check_expert_tables(user, table)
            signals.seat_wanted.send(sender=Table, table=table, position=position, user=None)
            updated = Seat.objects.filter(
                table=table, position=position, user__isnull=True, bot_level=""
            ).update(bot_level=level)
            if not updated:
                raise Refusal(code=Code.CONFLICT, message=_("That seat is taken."))
            return _start_if_full(table)
        if (
            not Seat.objects.filter(table=table, position=position)
            .exclude(bot_level="")
            .update(bot_level="")
        ):
            raise Refusal(code=Code.CONFLICT, message=_("There is no bot in that seat."))
        _after_lobby_change(table)
        return None


def table_fill_with_bots(*, table: Table, user: Any, level: str) -> Game | None:
    """The owner of a table waiting for players seats a bot of `level` in
    every open seat (table_set_bot, seat by seat; a seat held for an invited
    player stays theirs), all or none: a refused bot (the cap on expert
    tables) leaves every seat as it was. The game starts if they fill it."""
    if level not in dict(BOT_LEVELS):
        raise Refusal(_("Choose an easy, medium, hard or expert bot."))
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if table.owner_id != user.pk:
            raise Refusal(code=Code.FORBIDDEN, message=_("Only the table's creator can seat bots."))
        game, seated = None, 0
        empty = table.seats.filter(user__isnull=True, bot_level="")
        for position in list(empty.values_list("position", flat=True)):
            try:  # held for an invitee: not open
                signals.seat_wanted.send(sender=Table, table=table, position=position, user=None)
            except Refusal:
                continue
            game = table_set_bot(table=table, user=user, position=position, level=level)
            seated += 1
        if not seated:
            # Translators: the owner asked to fill a table's empty seats with bots, but no seat is free (taken meanwhile, or held for invited players).
            raise Refusal(code=Code.CONFLICT, message=_("No seat is open for a bot."))
    return game


def _lock_player(user: Any) -> None:
    """Lock the player's row until the transaction ends, so that two requests
    of one player pass a per-player cap one after the other (on SQLite every
    writing transaction is serialised already: Django ignores the lock there)."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.select_for_update()
    list(users.filter(pk=user.pk).values_list("pk", flat=True))


def _expert_tables(owner: Any, table: Table) -> int:
    """How many tables other than `table` `owner` opened that are not finished
    and have an expert bot in a seat of its own (a person's seat handed to a
    bot is an autopilot seat, counted apart; the daily deal's bots are hard)."""
    return (
        Table.objects.filter(owner=owner, seats__user__isnull=True, seats__bot_level="expert")
        .exclude(status=Table.Status.FINISHED)
        .exclude(pk=table.pk)
        .distinct()
        .count()
    )


def check_expert_tables(owner: Any, table: Table) -> None:
    """The cap on a player's concurrent expert tables (MAX_EXPERT_TABLES, issue
    21): `table` may have an expert bot unless `owner` already has that many
    other such tables not finished. Run inside the transaction that would seat
    the bot (or restart the table), under the owner's row lock; a table that
    has one already passes."""
    if (
        Seat.objects.filter(table=table, user__isnull=True, bot_level="expert").exists()
        and table.status != Table.Status.FINISHED
    ):
        return
    _lock_player(owner)
    limit = settings.MAX_EXPERT_TABLES
    if _expert_tables(owner, table) >= limit:
        raise Refusal(
            code=Code.CONFLICT,
            # Translators: a player tried to seat an expert bot (the strongest computer player, which thinks longest) while already having the most tables with expert bots allowed at a time.
            message=ngettext(
                "Expert bots think long, so a player may have %(max)s table with expert"
                " bots at a time. Finish it, or choose another bot, before seating an"
                " expert bot at another table.",
                "Expert bots think long, so a player may have %(max)s tables with expert"
                " bots at a time. Finish one of them, or choose another bot, before"
                " seating an expert bot at another table.",
                limit,
            )
            % {"max": limit},
        )


def _on_autopilot(seats: Any) -> Any:
    """The `seats` (a queryset) a bot plays because their person asked it to
    ("let a bot play for me"): not the stand-in while they are away, nor the
    medium bot a seat was handed to after three time-outs (the site's doing)."""
    return (
        seats.filter(away=False)
        .exclude(bot_level="")
        .exclude(bot_level="medium", timeouts_in_row__gte=TIMEOUTS_BEFORE_HANDOVER)
    )


def _autopilot_seats(user: Any, table: Table) -> int:
    """How many seats of `user` at games under way, other than at `table`, are on autopilot."""
    playing = Seat.objects.filter(user=user, table__status=Table.Status.PLAYING)
    return _on_autopilot(playing).exclude(table=table).count()


def check_autopilot_seats(user: Any, table: Table) -> None:
    """The cap on a player's concurrent autopilot seats (MAX_AUTOPILOT_SEATS,
    issue 21): a bot may play `user`'s seat at `table` unless it already
    plays that many of their seats at other games under way. Run inside the
    transaction that would hand the seat over, under the player's row lock."""
    _lock_player(user)
    limit = settings.MAX_AUTOPILOT_SEATS
    if _autopilot_seats(user, table) >= limit:
        raise Refusal(
            code=Code.CONFLICT,
            # Translators: a player asked a bot to play for them ("Let a bot play for me") while bots already play their seats in the most games allowed at a time.
            message=ngettext(
                "A bot already plays for you in %(max)s game, the most at a time. Take"
                " that seat back, or wait until that game is over, before letting a bot"
                " play for you here.",
                "Bots already play for you in %(max)s games, the most at a time. Take"
                " one of those seats back, or wait until one of those games is over,"
                " before letting a bot play for you here.",
                limit,
            )
            % {"max": limit},
        )


def _start_if_full(table: Table) -> Game | None:
    if any(seat.is_empty for seat in table.seats.all()):
        _after_lobby_change(table)
        return None
    number = (table.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return _game_start(table, number)


@dataclass(frozen=True)
class FixedDeals:
    """A game of fixed deals: hand n is dealt from `deals[n]` (hand records'
    `deal` objects), the first by `first_dealer`, and the game ends after the
    last one; the bots' randomness comes from `bot_seed` (games.tasks)."""

    deals: tuple[dict[str, Any], ...]
    first_dealer: int
    bot_seed: str


def daily_table_create(
    *, owner: Any, day: datetime.date, rules: dict[str, Any], fixed: FixedDeals
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
        return _game_start(table, 1, fixed)


def _locked_games() -> Any:
    """Games locked for a change, with their table and its seats' users loaded."""
    return (
        Game.objects.select_for_update()
        .select_related("table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("user")))
    )


def game_stop(*, game_id: int) -> bool:
    """End a game before its last hand (a daily deal left half-played, or its
    day over): the hand in progress is not played on and counts for nobody;
    no winner. Returns whether it stopped now (False if it was over already)."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
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
        _after_move(game, game_state(game))
    return True


def _game_start(table: Table, number: int, fixed: FixedDeals | None = None) -> Game:
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
    _set_turn(game, state)
    game.save(update_fields=["to_act", "turn_started", "deadline", "last_move_at"])
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated"])
    _after_lobby_change(table)
    _after_move(game, state)
    return game


def game_rematch(*, table: Table, user: Any) -> Game:
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
            return _game_start(table, last.number + 1)
        except IntegrityError:
            raise Refusal(code=Code.CONFLICT, message=_("A rematch has already started.")) from None


def _rematch_within_caps(table: Table, user: Any) -> None:
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
    for seat in _on_autopilot(table.seats.exclude(user=None)).select_related("user"):
        try:
            check_autopilot_seats(seat.user, table)
        except Refusal:
            Seat.objects.filter(pk=seat.pk).update(bot_level="")


def seat_set_autopilot(*, table: Table, user: Any, level: str) -> None:
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
        _seat_changed(game)


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
        _seat_changed(game)
        return True


def _seat_changed(game: Game) -> None:
    """Someone else plays a seat now (a bot, or the person again): the turn's
    deadline follows, the version moves on, the table is pushed and a bot
    whose turn it is gets going."""
    game = (
        Game.objects.select_related("table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("user")))
        .get(pk=game.pk)
    )
    game.deadline = _deadline(game, timezone.now())
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, deadline=game.deadline)
    game.version += 1
    _after_move(game, game_state(game))


def vacation_start(*, user: Any, days: int, now: datetime.datetime | None = None) -> None:
    """Pause the player's deadlines in by-turns games for `days` days (at most
    14 a calendar year)."""
    now = now or timezone.now()
    if user.on_vacation(now):
        raise Refusal(code=Code.CONFLICT, message=_("You are already on vacation."))
    left = user.vacation_days_left(now)
    if not 1 <= days <= left:
        if left < 1:
            raise Refusal(_("You have no vacation days left this year."))
        if left == 1:
            raise Refusal(_("Choose 1 day: it is the last vacation day you have this year."))
        raise Refusal(
            ngettext(
                "Choose between 1 and %(left)s day (you have %(left)s vacation day left this year).",
                "Choose between 1 and %(left)s days (you have %(left)s vacation days left this year).",
                left,
            )
            % {"left": left}
        )
    with transaction.atomic():
        if user.vacation_year != now.year:
            user.vacation_year, user.vacation_days_used = now.year, 0
        user.vacation_days_used += days
        user.vacation_until = now + datetime.timedelta(days=days)
        user.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        _reset_deadlines(user, now)


def vacation_end(*, user: Any, now: datetime.datetime | None = None) -> None:
    """Come back early; the whole days not used are given back."""
    now = now or timezone.now()
    if not user.on_vacation(now):
        raise Refusal(code=Code.CONFLICT, message=_("You are not on vacation."))
    with transaction.atomic():
        unused = (user.vacation_until - now).days
        user.vacation_days_used = max(0, user.vacation_days_used - unused)
        user.vacation_until = None
        user.save(update_fields=["vacation_until", "vacation_days_used"])
        _reset_deadlines(user, now)


def _reset_deadlines(user: Any, now: datetime.datetime) -> None:
    """Recompute the deadlines of the by-turns games waiting for this player."""
    for seat in Seat.objects.filter(user=user, table__mode=Table.Mode.TURNS).select_related(
        "table"
    ):
        for game in Game.objects.filter(
            table=seat.table, status=Game.Status.PLAYING, to_act=seat.position
        ):
            game.deadline = _deadline(game, now)
            game.save(update_fields=["deadline"])


# --------------------------------------------------------------------------- moves


@dataclass
class MoveResult:
    """The game row after the move (new version) and the engine's state."""

    game: Game
    state: GameState


def _set_turn(game: Game, state: GameState) -> None:
    now = timezone.now()
    cur = state.current
    game.to_act = None if cur is None else cur.to_act
    game.last_move_at = now
    game.turn_started = now if game.to_act is not None else None
    game.deadline = _deadline(game, now)


def _deadline(game: Game, now: datetime.datetime) -> datetime.datetime | None:
    """When the seat to act runs out of time: by-turns tables only, for people
    only, and counted from the end of their vacation if they are on one."""
    seconds = game.table.move_seconds if game.table.mode == Table.Mode.TURNS else None
    if not seconds or game.to_act is None:
        return None
    seat = next(s for s in game.table.seats.all() if s.position == game.to_act)
    if seat.user is None or seat.is_bot:
        return None
    start = max(now, seat.user.vacation_until or now)
    return start + datetime.timedelta(seconds=seconds)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a move: a person (`user`), the bot seated at `seat`, or the
    medium bot moving for the person at `seat` whose time ran out. Build it
    with `Actor.person`, `Actor.bot` or `Actor.timeout`."""

    kind: str
    user: Any = None
    seat: int | None = None

    @classmethod
    def person(cls, user: Any) -> Actor:
        return cls("person", user=user)

    @classmethod
    def bot(cls, seat: int) -> Actor:
        return cls("bot", seat=seat)

    @classmethod
    def timeout(cls, seat: int) -> Actor:
        return cls("timeout", seat=seat)

    def seat_at(self, game: Game, seats: dict[int, Seat]) -> int:
        """The seat this actor moves for; raises Refusal if it may not."""
        if self.kind == "person":
            own = access.seat_of(game.table, self.user)
            if own is None:
                raise Refusal(code=Code.FORBIDDEN, message=_("You are not playing at this table."))
            return own
        assert self.seat is not None
        if self.kind == "bot":
            if not seats[self.seat].is_bot:
                raise Refusal(code=Code.FORBIDDEN, message=_("That seat is not a bot's."))
            return self.seat
        if seats[self.seat].is_bot or game.deadline is None or game.deadline > timezone.now():
            raise Refusal(code=Code.FORBIDDEN, message=_("That seat has not run out of time."))
        return self.seat


def game_act(*, game_id: int, version: int, action: dict[str, Any], actor: Actor) -> MoveResult:
    """Apply one move exactly once, for `actor` (a person, a bot, or the medium
    bot after a person's time ran out: that move is marked `"auto": true` in
    the hand record; a bot's move for a person's seat is marked `"by":
    "autopilot"`, or `"by": "stand-in"` while they are away or handed over).

    `action` holds only the fields its type has (docs/hand-record.md); the seat is
    the actor's. Raises Refusal (nothing changed) for a stale version, a
    wrong seat, a move out of turn or an illegal action; the message says why.
    """
    if not isinstance(action, dict) or "seat" in action:
        raise Refusal(_("That is not a move."))
    with transaction.atomic():
        game = _locked_games().get(pk=game_id)
        table = game.table
        seats = {s.position: s for s in table.seats.all()}
        seat = actor.seat_at(game, seats)
        if game.status == Game.Status.FINISHED:
            raise Refusal(code=Code.CONFLICT, message=_("The game is over."))
        if version != game.version:
            raise Refusal(
                code=Code.STALE,
                message=_(
                    "The table changed before your move arrived; here it is as it stands now."
                ),
            )
        state = game_state(game)  # usually cached: rebuilt from every hand only after a restart
        hand = current_hand_row(game)
        assert hand is not None
        if state.current is None or state.current.to_act != seat:
            raise Refusal(code=Code.CONFLICT, message=_("It is not your turn."))
        try:
            act = Action.from_dict({**action, "seat": seat}, strict=True)
            if actor.kind == "timeout":
                act = dataclasses.replace(act, extra={"auto": True})
            elif actor.kind == "bot" and seats[seat].user_id is not None:
                # A bot moving for a person (stats rate only what people played):
                # their autopilot, or a stand-in while they are away or handed over.
                stand_in = (
                    seats[seat].away or seats[seat].timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER
                )
                act = dataclasses.replace(
                    act, extra={"by": "stand-in" if stand_in else "autopilot"}
                )
            new_state = engine.game_apply(state, act)
        except EngineError as exc:
            raise refused(exc) from None
        new_state, hand = _store_move(game, hand, new_state)
        _set_turn(game, new_state)
        updated = Game.objects.filter(pk=game.pk, version=version).update(
            version=F("version") + 1,
            scores=list(new_state.scores),
            status=game.status,
            winner=game.winner,
            finished=game.finished,
            to_act=game.to_act,
            turn_started=game.turn_started,
            last_move_at=game.last_move_at,
            deadline=game.deadline,
        )
        if updated != 1:
            raise Refusal(
                code=Code.STALE,
                message=_("Someone moved first; here is the table as it stands now."),
            )
        game.version = version + 1
        game.scores = list(new_state.scores)
        transaction.on_commit(partial(_cache_put, _cache_key(game), new_state))
        if game.status == Game.Status.FINISHED:
            Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
            table.status = Table.Status.FINISHED
        _count_timeouts(seats[seat], timed_out=actor.kind == "timeout", person=actor.kind != "bot")
        # The rows loaded under the lock are the committed ones: the broadcast
        # renders from them instead of reading them again.
        _after_move(game, new_state, hand, previous=state)
    return MoveResult(game=game, state=new_state)


TIMEOUTS_BEFORE_HANDOVER = 3


def _count_timeouts(seat: Seat, *, timed_out: bool, person: bool) -> None:
    """Three time-outs in a row hand the seat to the medium bot for the rest of
    the game (the player can take it back).

    The count belongs to the seat, not to the person's last return: only a
    move the person makes in time resets it. Taking the seat back (or handing
    it to a bot and back) leaves it as it was, so a seat taken back after
    three time-outs is handed over again at its next time-out; nobody can
    hold a table at one move per deadline for ever by taking the seat back
    every third time-out. Bots' moves (autopilot, stand-in) do not count."""
    if timed_out:
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER:
            seat.bot_level = "medium"
        seat.save(update_fields=["timeouts_in_row", "bot_level"])
    elif person and seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        seat.save(update_fields=["timeouts_in_row"])


def _store_move(game: Game, hand: Hand, state: GameState) -> tuple[GameState, Hand]:
    """Save the hand record after the move; when the hand ends, store its
    result and either finish the game or deal the next hand (returned, with
    the game's current hand row)."""
    done = state.hands[hand.number]
    hand.record = engine.hand_to_record(done)
    fields = ["record"]
    if done.over:
        hand.result = engine.result(done)
        hand.finished = timezone.now()
        fields += ["result", "finished"]
        transaction.on_commit(
            partial(signals.hand_finished.send, sender=Hand, hand_id=hand.pk), robust=True
        )
    hand.save(update_fields=fields)
    if not done.over:
        return state, hand
    if state.over:
        game.status = Game.Status.FINISHED
        game.winner = state.winner
        game.finished = timezone.now()
        transaction.on_commit(
            partial(signals.game_finished.send, sender=Game, game_id=game.pk), robust=True
        )
        return state, hand
    # Deal the next hand right away; the table shows the last hand's summary beside it.
    if game.deals:
        next_state = engine.game_deal_hand(state, game.deals[hand.number + 1])
    else:
        next_state = engine.game_start_hand(state, random.Random(secrets.randbits(64)))
    assert next_state.current is not None
    next_hand = Hand.objects.create(
        game=game, number=hand.number + 1, record=engine.hand_to_record(next_state.current)
    )
    return next_state, next_hand


def _after_move(
    game: Game, state: GameState, hand: Hand | None = None, *, previous: GameState | None = None
) -> None:
    """After the commit: push the table, queue the bot's move, tell the players.
    Each is `robust`: the move is stored whatever happens to Redis; a lost push
    is healed by the sockets' resync and a lost bot move by the sweeper.

    With `hand` (the game's current hand row), `game` is the row as committed,
    with its table's seats and their users loaded, and the push renders from
    them and `state`, without reading the game again. `previous` is the state
    before the move (a move; None for a start or a seat change): it sets the
    pause before the next bot move (`bot_countdown`).
    """
    from . import realtime, tasks

    game_id, version = game.pk, game.version
    if hand is None:
        transaction.on_commit(lambda: realtime.broadcast_game(game_id), robust=True)
    else:
        transaction.on_commit(
            partial(realtime.broadcast_game, game_id, loaded=(game, state, hand)), robust=True
        )
    cur = state.current
    if cur is not None and cur.to_act is not None:
        seat = next(s for s in game.table.seats.all() if s.position == cur.to_act)
        if seat.is_bot:
            countdown = bot_countdown(game.table, previous, state)
            # The owner lets the task see a busy owner without a query (games.tasks).
            owner = {"owner": game.table.owner_id}
            transaction.on_commit(
                lambda: tasks.play_bot_turn.apply_async(
                    (game_id, version), owner, countdown=countdown
                ),
                robust=True,
            )
        elif seat.user is not None and seat.user.play_only_card and only_card(cur):
            countdown = bot_countdown(game.table, previous, state)
            transaction.on_commit(
                lambda: tasks.play_only_card.apply_async((game_id, version), countdown=countdown),
                robust=True,
            )
    # People are told of their turns in by-turns games, and of every start and end.
    if game.table.mode == Table.Mode.TURNS or game.status == Game.Status.FINISHED or version == 1:
        transaction.on_commit(lambda: tasks.tell_players.delay(game_id, version), robust=True)


def bot_countdown(table: Table, previous: GameState | None, state: GameState) -> float:
    """Seconds before the site moves after the move from `previous` to `state`
    (a bot's move, or a player's only card). In a live game the table names a
    trick's winner before the next lead (BOT_TRICK_PAUSE) and shows a hand's
    result before the next deal is bid on (BOT_HAND_PAUSE); otherwise, and
    after anything but a move, BOT_MOVE_DELAY. From the states alone: no query."""
    if previous is None or table.mode != Table.Mode.LIVE:
        return settings.BOT_MOVE_DELAY
    if len(state.hands) > len(previous.hands):  # the hand ended and the next was dealt
        return settings.BOT_HAND_PAUSE
    before, after = previous.current, state.current
    if before is not None and after is not None and sum(after.tricks_won) > sum(before.tricks_won):
        return settings.BOT_TRICK_PAUSE
    return settings.BOT_MOVE_DELAY


def only_card(cur: engine.HandState | None) -> str | None:
    """The one card the player to act may play now, if exactly one."""
    if cur is None or cur.phase != "play":
        return None
    plays = [a.card for a in engine.legal_actions(cur) if a.type == "play"]
    return plays[0] if len(plays) == 1 else None


def _after_lobby_change(table: Table | None) -> None:
    from . import realtime

    transaction.on_commit(realtime.broadcast_lobby, robust=True)
    if table is not None:
        table_id = table.pk
        transaction.on_commit(lambda: realtime.broadcast_table_changed(table_id), robust=True)
