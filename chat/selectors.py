"""What pages and sockets read of the chat (reads only)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import QuerySet

from accounts.models import User
from games import access
from games.models import Game, Table
from social.models import Block, Mute
from social.selectors import hidden_senders

from .models import Message, TableChat

RECENT = 50  # the conversation a page opens with


def spectators_may_chat(table_id: int) -> bool:
    return TableChat.objects.filter(table_id=table_id, spectators_may_chat=True).exists()


def has_chat(table: Table) -> bool:
    """Every table has a chat but a daily deal's (one player against two
    bots) and a guest's (a visitor who plays bots without an account: the
    owner is a guest only at their own table, with bots alone)."""
    return (
        not table.is_daily and not Table.objects.filter(pk=table.pk, owner__is_guest=True).exists()
    )


def hidden_from(sender_id: int) -> list[int]:
    """The readers who do not see `sender_id`'s messages: they muted or blocked them."""
    muters = Mute.objects.filter(muted_id=sender_id).values_list("muter_id", flat=True)
    blockers = Block.objects.filter(blocked_id=sender_id).values_list("blocker_id", flat=True)
    return sorted(set(muters.union(blockers)))  # one query


def _for_reader(messages: QuerySet[Message], reader_id: int) -> QuerySet[Message]:
    hidden = hidden_senders(reader_id)
    if hidden:
        messages = messages.exclude(sender_id__in=hidden)
    return messages.select_related("sender")


def recent(table_id: int, reader_id: int, limit: int = RECENT) -> list[Message]:
    """The table's last `limit` messages that `reader_id` may see, oldest first."""
    rows = _for_reader(Message.objects.filter(table_id=table_id), reader_id)
    return list(reversed(rows.order_by("-created", "-pk")[:limit]))


def of_game(game: Game, reader: User | AnonymousUser) -> list[Message] | None:
    """A finished game's chat for its replay: for the game's players only
    (None for anyone else, and while the game is under way)."""
    if not isinstance(reader, User) or game.status != Game.Status.FINISHED:
        return None
    if not access.may_view_game_records(reader, game.table):
        return None
    return list(_for_reader(Message.objects.filter(game=game), reader.pk))


def message_for(
    user: User | AnonymousUser, message_id: int, session: SessionBase | None
) -> Message | None:
    """The message if `user` may see its table (or played its game), else None."""
    message = Message.objects.select_related("sender").filter(pk=message_id).first()
    if message is None:
        return None
    table = Table.objects.prefetch_related("seats").get(pk=message.table_id)
    if access.may_view(user, table, session) or access.may_view_game_records(user, table):
        return message
    return None
