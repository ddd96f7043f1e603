"""Who may see what: the one home of every access check on tables and games.

Pages, websockets, record downloads and replays all ask here, so the checks
cannot drift apart again (an invited viewer's page once loaded over HTTP
while its websocket was refused).

- `seat_of(table, user)`: the seat a signed-in user holds at a table, or None.
- `may_view(user, table, session)`: whether a user may watch a table: every
  public table; a private one if they are seated there, or their session
  holds the table's current invitation.
- `may_view_game_records(user, table)`: a game's records and replays are
  for its players; a daily deal's are sealed for everyone, its own player
  included, until its day is over (`daily_sealed`), then open to every
  signed-in player (the day's seed is shown then: its deals are public).

A daily-deal table (`Table.daily_date`) is its player's alone while it is
played: no spectators, and no invitation admits anyone. Its five deals are
everyone's that day, so nothing that shows a card the player did not see in
their own play (another's replay, a record, a whole deal) opens before
00:00 UTC: a second account that played the deal cannot hand it to a first.

An invitation is the table's `invite_token`. Following the link stores the
token in the session (`admit_invited`); it admits new viewers only while the
game has not ended, and the owner can revoke it (`Table.invite_token` is
replaced, so every session holding the old one loses its access at once).
A link that closed stays closed: a rematch (a game numbered 2 or more at the
same table) replaces the token too (`_new_link_for_rematch`), so the old link
never admits anyone again, and `Table.invite_url` is a new link for the new
game. The players keep their access by their seats; a viewer who came in by
the old link needs the new one, as after a revoke.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import User

from .models import Game, Table, new_invite_token

SESSION_KEY = "invitations"  # {str(table id): token}
MAX_INVITATIONS_IN_SESSION = 50


def seat_of(table: Table, user: User | AnonymousUser | None) -> int | None:
    """The seat `user` holds at `table` (uses the table's prefetched seats)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in table.seats.all():
        if seat.user_id == user.pk:
            return seat.position
    return None


def _invited(table: Table, session: SessionBase | None) -> bool:
    if session is None:
        return False
    token = (session.get(SESSION_KEY) or {}).get(str(table.pk))
    return isinstance(token, str) and token == table.invite_token


def may_view(user: User | AnonymousUser, table: Table, session: SessionBase | None) -> bool:
    """Whether `user` (with this HTTP or websocket `session`) may watch `table`."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.daily_date is not None:
        return seat_of(table, user) is not None
    if table.visibility == Table.Visibility.PUBLIC:
        return True
    return seat_of(table, user) is not None or _invited(table, session)


def utc_today() -> datetime.date:
    """The current UTC day (a daily deal's day ends at 00:00 UTC)."""
    return timezone.now().astimezone(datetime.UTC).date()


def daily_sealed(table: Table) -> bool:
    """A daily deal's table whose day is not over: its records, replays and
    reviews stay closed to everyone until 00:00 UTC."""
    return table.daily_date is not None and table.daily_date >= utc_today()


def may_view_game_records(user: User | AnonymousUser, table: Table) -> bool:
    """Records, replays and reviews of a table's games are for its players;
    a daily deal's for every signed-in player once its day is over, and for
    nobody before (`daily_sealed`)."""
    if table.daily_date is not None:
        return getattr(user, "is_authenticated", False) and not daily_sealed(table)
    return seat_of(table, user) is not None


class InvitationClosed(Exception):
    """The invitation no longer admits new viewers (its game has ended)."""


def admit_invited(table: Table, session: SessionBase) -> None:
    """Remember in the session that it followed `table`'s invitation link."""
    if table.status == Table.Status.FINISHED:
        raise InvitationClosed
    held = dict(session.get(SESSION_KEY) or {})
    held.pop(str(table.pk), None)
    held[str(table.pk)] = table.invite_token
    # Oldest first: keep the newest few.
    session[SESSION_KEY] = dict(list(held.items())[-MAX_INVITATIONS_IN_SESSION:])


@receiver(post_save, sender=Game, dispatch_uid="games.access.new_link_for_rematch")
def _new_link_for_rematch(
    sender: type[Game], instance: Game, created: bool, **kwargs: object
) -> None:
    """A rematch starts: the table's invitation link (closed when the last
    game ended) is replaced by a new one, in the rematch's own transaction."""
    if not created or instance.number <= 1:
        return
    token = new_invite_token()
    Table.objects.filter(pk=instance.table_id).update(invite_token=token)
    if Game.table.is_cached(instance):
        instance.table.invite_token = token
