"""Tables before their game starts: open one, take and leave seats, seat bots,
revoke the invitation link.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import guests
from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import engine, signals
from games.engine import EngineError, Rules
from games.messages import refused
from games.models import BOT_LEVELS, Game, Seat, Table, new_invite_token

from .after import after_lobby_change
from .caps import check_expert_tables
from .lifecycle import start_if_full

MAX_NAME = 60


def table_create(
    *,
    owner: User,
    name: str,
    rules: Mapping[str, object],
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
        after_lobby_change(table)
        for position, level in sorted((bots or {}).items()):
            if level:
                table_set_bot(table=table, user=owner, position=position, level=level)
    return table


def table_revoke_invitation(*, table: Table, user: User) -> None:
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
        after_lobby_change(table)  # open pages re-check who may watch


SEATS = (0, 1, 2)


def _one_of_the_seats(position: int | None) -> int:
    if position is None or position not in SEATS:
        raise Refusal(_("Choose seat 1, 2 or 3."))
    return position


def seat_position(text: object) -> int:
    """The seat a request names ("0", "1" or "2", as a form posts it)."""
    return _one_of_the_seats(
        int(text) if isinstance(text, str) and text in ("0", "1", "2") else None
    )


def check_seat_free(table: Table, position: int) -> None:
    """Seat `position` of `table` (locked by the caller) may be taken, by a
    person, a bot or an invitation: one of the three, its game not started,
    nobody and no bot in it. The one check of a free seat (social asks it
    too, before holding a seat for an invitee)."""
    _one_of_the_seats(position)
    if table.status != Table.Status.OPEN:
        raise Refusal(code=Code.CONFLICT, message=_("The game at this table has already started."))
    if not Seat.objects.filter(
        table=table, position=position, user__isnull=True, bot_level=""
    ).exists():
        raise Refusal(code=Code.CONFLICT, message=_("That seat is taken."))


def _open_table_for_update(table_id: int) -> Table:
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.OPEN:
        raise Refusal(code=Code.CONFLICT, message=_("The game at this table has already started."))
    return table


def table_join(*, table: Table, user: User, position: int) -> Game | None:
    """Sit in an empty seat; the game starts when the third seat is filled."""
    if guests.is_guest(user):  # a guest sits at their own tables only, with bots
        raise Refusal(code=Code.FORBIDDEN, message=guests.refusal())
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if table.seats.filter(user=user).exists():
            raise Refusal(code=Code.CONFLICT, message=_("You already have a seat at this table."))
        check_seat_free(table, position)
        signals.seat_wanted.send(sender=Table, table=table, position=position, user=user)
        Seat.objects.filter(table=table, position=position).update(user=user)
        signals.seat_taken.send(sender=Table, table=table, user=user)
        return start_if_full(table)


def table_leave(*, table: Table, user: User) -> None:
    """Leave a seat before the game starts (the owner closes an empty table)."""
    with transaction.atomic():
        table = _open_table_for_update(table.pk)
        if not Seat.objects.filter(table=table, user=user).update(user=None):
            raise Refusal(code=Code.FORBIDDEN, message=_("You are not seated at this table."))
        if not table.seats.filter(user__isnull=False).exists():
            after_lobby_change(table)  # open pages learn that the table is gone
            table.delete()
            return
        after_lobby_change(table)


def table_set_bot(*, table: Table, user: User, position: int, level: str) -> Game | None:
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
            check_seat_free(table, position)
            signals.seat_wanted.send(sender=Table, table=table, position=position, user=None)
            updated = Seat.objects.filter(
                table=table, position=position, user__isnull=True, bot_level=""
            ).update(bot_level=level)
            if not updated:
                raise Refusal(code=Code.CONFLICT, message=_("That seat is taken."))
            return start_if_full(table)
        if (
            not Seat.objects.filter(table=table, position=position)
            .exclude(bot_level="")
            .update(bot_level="")
        ):
            raise Refusal(code=Code.CONFLICT, message=_("There is no bot in that seat."))
        after_lobby_change(table)
        return None


def table_fill_with_bots(*, table: Table, user: User, level: str) -> Game | None:
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
