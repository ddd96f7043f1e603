"""The chat's HTML: a message for one reader, the frames the table socket
sends, the composer. Each is written in the active language (the caller
sets the reader's), so a quick phrase reads in each reader's own language.

A message travels as plain data (`as_data`): the table socket of each reader
renders it from the event alone, without touching the database.
"""

from __future__ import annotations

import datetime
from typing import TypedDict

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from .models import PHRASES, Message, Report


class MessageData(TypedDict):
    """A message as a reader's page needs it: the socket event's payload."""

    id: int
    table_id: int
    sender_id: int
    sender: str  # the sender's user name
    spectator: bool
    phrase: str  # a quick phrase's code, or ""
    text: str  # the text as typed, or "" for a phrase
    created: str  # ISO 8601, UTC
    clock: str  # HH:MM, UTC
    at: int  # epoch ms: the load benchmark's latency


class MessageItem(MessageData):
    """A message as one reader's log draws it."""

    words: str
    mine: bool
    kind: str  # "phrase" or "text"
    actions: bool  # the reader may report it


def as_data(message: Message) -> MessageData:
    """What a reader's page needs of a message (the socket event's payload)."""
    created = message.created.astimezone(datetime.UTC)
    return {
        "id": message.pk,
        "table_id": message.table_id,
        "sender_id": message.sender_id,
        "sender": message.sender.username,
        "spectator": message.seat is None,
        "phrase": message.phrase,
        "text": message.text,
        "created": created.isoformat().replace("+00:00", "Z"),
        "clock": created.strftime("%H:%M"),
        "at": int(created.timestamp() * 1000),
    }


def words(data: MessageData) -> str:
    """What the message says: a phrase in the active language, a text as typed."""
    if data["phrase"]:
        return str(PHRASES.get(data["phrase"], ""))
    return str(data["text"])


def _item(data: MessageData, reader_id: int | None, actions: bool) -> MessageItem:
    return {
        **data,
        "words": words(data),
        "mine": data["sender_id"] == reader_id,
        "kind": "phrase" if data["phrase"] else "text",
        "actions": actions and reader_id is not None and data["sender_id"] != reader_id,
    }


def _context(request: HttpRequest | None, actions: bool) -> dict[str, object]:
    return {"reasons": Report.Reason.choices, "actions": actions, "request": request}


def message_html(data: MessageData, reader_id: int | None, *, actions: bool = True) -> str:
    ctx = _context(None, actions)
    ctx["m"] = _item(data, reader_id, actions)
    return render_to_string("chat/_message.html", ctx)


def log_html(
    messages: list[Message],
    reader_id: int | None,
    *,
    request: HttpRequest | None = None,
    actions: bool = True,
    oob: bool = False,
    replay: bool = False,
) -> str:
    """The whole conversation in its scrolling box: the table page's, a
    socket's snapshot (`oob`: morphed, so the messages the page has stay as
    they are), or a finished game's under its replay (`replay`)."""
    ctx = _context(request, actions)
    ctx.update(
        items=[_item(as_data(m), reader_id, actions) for m in messages],
        oob=oob,
        replay=replay,
    )
    return render_to_string("chat/_log.html", ctx, request=request)


def frame_html(data: MessageData, reader_id: int) -> str:
    """One new message for one reader: appended to the log, and said once in
    the chat's polite live region. One socket frame."""
    return render_to_string(
        "chat/_frame.html",
        {
            **_context(None, True),
            "m": _item(data, reader_id, True),
        },
    )


def error_html(error: str) -> str:
    """A socket's answer to a message it refused: the reason, next to the forms."""
    return render_to_string("chat/_error.html", {"error": error, "oob": True})


def compose_html(
    *,
    table_id: int,
    may_write: bool,
    seated: bool,
    is_owner: bool,
    spectators_may_chat: bool,
    request: HttpRequest | None = None,
    oob: bool = False,
) -> str:
    return render_to_string(
        "chat/_compose.html",
        {
            "send_url": reverse("chat:send", args=[table_id]),
            "spectators_url": reverse("chat:spectators", args=[table_id]),
            "phrases": [(code, str(label)) for code, label in PHRASES.items()],
            "may_write": may_write,
            "seated": seated,
            "is_owner": is_owner,
            "spectators_may_chat": spectators_may_chat,
            "oob": oob,
        },
        request=request,
    )
