"""Every change to the chat: one service per change.

A refusal raises `euchre_site.refusal.Refusal` (a clear message and the 4xx
status to answer with); nothing has changed then. What is sent is delivered
after the commit over the table's websocket group, once per page: each
reader's socket writes it in its reader's language and drops it for readers
who muted or blocked the sender (`chat.consumers`). Nothing tells the sender
who does not read them.
"""

from __future__ import annotations

import datetime
import logging
import unicodedata
from typing import TypedDict

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_ratelimit.core import is_ratelimited

from accounts import guests
from accounts.models import User
from euchre_site import push
from euchre_site.refusal import Code, Refusal
from games import access, presence
from games import realtime as game_realtime
from games.models import Game, Seat, Table
from notifications.models import Notification
from notifications.services import mark_read_by_key, notify, seen_at_table

from . import render, selectors
from .models import MAX_TEXT, PHRASES, Message, Report, TableChat

log = logging.getLogger(__name__)

MAX_RAW = 2000  # characters of a text field looked at, at all
REPEAT_WINDOW = datetime.timedelta(seconds=10)  # the same words twice within it: a double send
CONTEXT_BEFORE, CONTEXT_AFTER = 10, 5  # messages kept around a reported one
NOTIFY_KIND = "chat"
MAX_CODE = 32  # characters of a quick phrase's code (or a report's reason) read


def clean_text(raw: str) -> str:
    """The text as it will be shown: Unicode NFC, line breaks and tabs as
    spaces, stripped. Refused: empty, over MAX_TEXT characters, or holding a
    control character (NUL and the like)."""
    if len(raw) > MAX_RAW:
        raise Refusal(too_long())
    text = unicodedata.normalize("NFC", raw)
    text = text.replace("\r\n", " ").translate({ord(c): " " for c in "\r\n\t"}).strip()
    if not text:
        # Translators: a chat message was sent empty.
        raise Refusal(_("Write a message first."))
    if len(text) > MAX_TEXT:
        raise Refusal(too_long())
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in text):
        # Translators: a chat message held an invisible control character (such as NUL) or an unknown one.
        raise Refusal(
            _("The message holds a character that cannot be shown: remove it and send again.")
        )
    return text


def too_long() -> str:
    # Translators: a chat message was longer than the limit; %(n)d is the limit (200).
    return _("A message can be at most %(n)d characters long.") % {"n": MAX_TEXT}


def message_send_limited(*, request: HttpRequest, table: Table, text: str, phrase: str) -> Message:
    """`message_send` for `request.user` behind the per-player rate limit
    (CHAT_RATE, every try counted): the chat's view and the table socket
    both send this way."""
    if is_ratelimited(request, group="chat", key="user", rate=settings.CHAT_RATE, increment=True):
        # Translators: the reader sent many chat messages in a short time.
        said = _("You are sending messages too fast: wait a few seconds and try again.")
        raise Refusal(said, code=Code.TOO_MANY)
    if not isinstance(request.user, User):  # signed out meanwhile
        raise Refusal(code=Code.FORBIDDEN)
    return message_send(table=table, user=request.user, text=text, phrase=phrase[:MAX_CODE])


def message_send(*, table: Table, user: User, text: str = "", phrase: str = "") -> Message:
    """Send a quick phrase (its code) or a free text to the table's chat."""
    phrase, text = phrase or "", text or ""
    if guests.is_guest(user):
        raise Refusal(guests.refusal(), code=Code.GUEST)
    if not selectors.has_chat(table):
        # Translators: a chat message was sent at a daily deal's table (one player and two bots).
        raise Refusal(_("There is no chat at a daily deal's table."), code=Code.FORBIDDEN)
    if phrase:
        if text.strip():
            raise Refusal(_("Send a quick phrase or a message, not both."))
        if phrase not in PHRASES:
            # Translators: a chat request named a quick phrase that does not exist.
            raise Refusal(_("There is no such quick phrase."))
    else:
        text = clean_text(text)
    seat = access.seat_of(table, user)  # the view's table has its seats loaded
    if seat is None and not selectors.spectators_may_chat(table.pk):
        raise Refusal(
            _("Only the players at this table can write in its chat."), code=Code.FORBIDDEN
        )
    now = timezone.now()
    # Read before the transaction: on SQLite (immediate transactions) it holds
    # the database's one write lock, which the worker's moves wait for; the
    # insert alone keeps it shortest. Two equal messages racing past the
    # repeat check within milliseconds is harmless.
    last = (
        Message.objects.filter(table=table, sender=user, created__gt=now - REPEAT_WINDOW)
        .order_by("-created", "-pk")
        .first()
    )
    if last is not None and (last.phrase, last.text) == (phrase, text):
        # Translators: the same chat message was sent twice within a few seconds.
        raise Refusal(_("You have just sent that."), code=Code.CONFLICT)
    game_id = (
        Game.objects.filter(table=table).order_by("-number").values_list("pk", flat=True).first()
    )
    with transaction.atomic():
        message = Message.objects.create(
            table=table,
            game_id=game_id,
            sender=user,
            seat=seat,
            phrase=phrase,
            text="" if phrase else text,
            created=now,
        )
        data = render.as_data(message)
        table_id, mode, name = table.pk, table.mode, table.name
        transaction.on_commit(lambda: deliver(data), robust=True)
        if mode == Table.Mode.TURNS:
            transaction.on_commit(
                lambda: notify_away(table_id, name, user.pk, game_id), robust=True
            )
    return message


class ChatEvent(TypedDict):
    """A new message, to the table's group (chat.consumers' chat_message)."""

    type: str  # "chat.message"
    message: render.MessageData
    hidden_from: list[int]  # the readers who do not see its sender


def deliver(data: render.MessageData) -> None:
    """One event to the table's group: every open page of the table gets it
    once, and its socket drops it for a reader in `hidden_from`."""
    event: ChatEvent = {
        "type": "chat.message",
        "message": data,
        "hidden_from": selectors.hidden_from(data["sender_id"]),
    }
    # push.send takes any JSON-able dict: the event's shape is ChatEvent.
    push.send([(game_realtime.table_group(data["table_id"]), dict(event))])


def notify_away(table_id: int, table_name: str, sender_id: int, game_id: int | None) -> None:
    """By-turns tables: the seated players not on the table's page (and not
    hiding the sender) are told, through the notifications app (in-app,
    e-mail in the same batch as their turns, push, as their preferences
    allow). One notification per table and reader until they read it (open
    the table, or mark it read): a lively table mails an away player once,
    not once a minute."""
    hidden = set(selectors.hidden_from(sender_id))
    seats = (
        Seat.objects.filter(table_id=table_id, user__isnull=False)
        .exclude(user_id=sender_id)
        .select_related("user")
    )
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    url = reverse("games:table", args=[table_id])
    for seat in seats:
        reader = seat.user
        if reader is None or reader.pk in hidden or presence.is_on_table_page(table_id, reader.pk):
            continue
        notify(
            user=reader,
            kind=NOTIFY_KIND,
            game=game,
            url=url,
            params={"table": table_name},
            turn_key=_notification_key(table_id, reader.pk),
        )


def _notification_key(table_id: int, user_id: int) -> str:
    """The same key while the reader's last chat notification of this table
    is unread (notify tells a key once, even two at once); a new one after."""
    prefix = f"chat:{table_id}:"
    read = Notification.objects.filter(
        user_id=user_id, kind=NOTIFY_KIND, turn_key__startswith=prefix, read_at__isnull=False
    ).count()
    return f"{prefix}{read}"


def notifications_seen(*, table_id: int, user_id: int) -> None:
    """The reader opened the table (its socket's first snapshot): its chat's
    notifications are read, and those of its games (turns, starts, ends)."""
    mark_read_by_key(user_id=user_id, kind=NOTIFY_KIND, key_prefix=f"chat:{table_id}:")
    seen_at_table(user_id=user_id, table_id=table_id)


def spectators_chat_set(*, table: Table, user: User, allow: bool) -> TableChat:
    """The table's owner lets spectators write in the chat, or stops them."""
    if table.owner_id != user.pk:
        # Translators: someone other than the table's owner tried to change who may write in its chat.
        raise Refusal(
            _("Only the table's owner can change who writes in its chat."), code=Code.FORBIDDEN
        )
    with transaction.atomic():
        row, _created = TableChat.objects.update_or_create(
            table=table, defaults={"spectators_may_chat": allow}
        )
        group = game_realtime.table_group(table.pk)
        transaction.on_commit(lambda: push.send([(group, {"type": "chat.settings"})]), robust=True)
    return row


def message_report(*, message: Message, user: User, reason: str) -> tuple[Report, bool]:
    """Report a message to the site's staff, with the conversation around it;
    (report, False) when this reader reported it already (nothing changes)."""
    if message.sender_id == user.pk:
        raise Refusal(_("You cannot report your own message."))
    if reason not in Report.Reason.values:
        raise Refusal(_("Choose why you report the message."))
    existing = Report.objects.filter(message=message, reporter=user).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            report = Report.objects.create(
                message=message, reporter=user, reason=reason, context=context_around(message)
            )
    except IntegrityError:  # the same report twice at once
        return Report.objects.get(message=message, reporter=user), False
    return report, True


class ContextMessage(TypedDict):
    """A message around a reported one, as the report keeps it (Report.context)."""

    id: int
    sender: str
    sender_id: int
    seat: int | None
    phrase: str
    text: str
    created: str  # ISO 8601
    reported: bool  # the reported message itself


def context_around(message: Message) -> list[ContextMessage]:
    """The messages before and after `message` at its table, as they stand now."""
    same = Message.objects.filter(table_id=message.table_id).select_related("sender")
    earlier = Q(created__lt=message.created) | Q(created=message.created, pk__lt=message.pk)
    later = Q(created__gt=message.created) | Q(created=message.created, pk__gt=message.pk)
    before = list(same.filter(earlier).order_by("-created", "-pk")[:CONTEXT_BEFORE])[::-1]
    after = list(same.filter(later).order_by("created", "pk")[:CONTEXT_AFTER])
    return [
        {
            "id": m.pk,
            "sender": m.sender.username,
            "sender_id": m.sender_id,
            "seat": m.seat,
            "phrase": m.phrase,
            "text": m.text,
            "created": m.created.isoformat(),
            "reported": m.pk == message.pk,
        }
        for m in [*before, message, *after]
    ]
