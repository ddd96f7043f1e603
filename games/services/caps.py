"""The caps on a player's concurrent expert tables and autopilot seats (issue 21)."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import ngettext

from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games.models import TIMEOUTS_BEFORE_HANDOVER, Seat, Table


def _lock_player(user: User) -> None:
    """Lock the player's row until the transaction ends, so that two requests
    of one player pass a per-player cap one after the other (on SQLite every
    writing transaction is serialised already: Django ignores the lock there)."""
    users = User.objects.select_for_update()
    list(users.filter(pk=user.pk).values_list("pk", flat=True))


def _expert_tables(owner: User, table: Table) -> int:
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


def check_expert_tables(owner: User, table: Table) -> None:
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


def on_autopilot(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The `seats` (a queryset) a bot plays because their person asked it to
    ("let a bot play for me"): not the stand-in while they are away, nor the
    medium bot a seat was handed to after three time-outs (the site's doing)."""
    return (
        seats.filter(away=False)
        .exclude(bot_level="")
        .exclude(bot_level="medium", timeouts_in_row__gte=TIMEOUTS_BEFORE_HANDOVER)
    )


def _autopilot_seats(user: User, table: Table) -> int:
    """How many seats of `user` at games under way, other than at `table`, are on autopilot."""
    playing = Seat.objects.filter(user=user, table__status=Table.Status.PLAYING)
    return on_autopilot(playing).exclude(table=table).count()


def check_autopilot_seats(user: User, table: Table) -> None:
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
