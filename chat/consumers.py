"""The table page's websocket, with the chat: games.consumers.TableConsumer
(the table's frames) plus the chat on the same socket and group.

- Every table snapshot (on connect, after seat changes, and when the
  heartbeat finds the page behind) carries the conversation too, in the
  same frame: the page's log is morphed, so the messages it shows stay as
  they are and the ones it missed are added. The first one also marks the
  reader's chat notifications of this table read, and later ones carry the
  composer when what the reader may do changed (a spectator sat down).
- `chat.message`: one event per message to the table's group; each socket
  drops it when its reader muted or blocked the sender (`hidden_from`, read
  from the database once per message by the sender's process) and otherwise
  writes it in its own language without touching the database: one frame
  per message per page.
- `chat.settings` (the owner's switch): the composer, if the reader's changed.
- Received: the chat's forms send over this socket (htmx ws-send, JSON of
  the form's fields with "chat": "send"). The same rate limit and service as
  the chat's POST view (the no-JavaScript path); a refusal is answered to
  this socket only, next to the forms. Measured on daphne, a message posted
  over HTTP cost 14.7 ms of the web process's CPU and left about 130 objects
  of cyclic garbage (whose collections paused every socket of the process);
  over the socket it is the service's few milliseconds (README "Table chat").
"""

from __future__ import annotations

from typing import TypedDict

from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _

from euchre_site import safe_json
from euchre_site.refusal import Refusal
from euchre_site.socket_db import database_sync_to_async
from games import access
from games.consumers import TableConsumer
from games.models import Table

from . import render, selectors, services
from .services import ChatEvent
from .templatetags.chat_tags import compose_for


class SettingsEvent(TypedDict):
    """`chat.settings` (chat.services): the owner changed the table's chat."""

    type: str


MAX_REMEMBERED = 500  # message ids a socket keeps, to send none twice
MAX_RECEIVED = 16_384  # bytes of one received message: 200 characters, escaped, and the form

ComposeKey = tuple[bool, bool, bool]  # seated, spectators may chat, owner


class TableChatConsumer(TableConsumer):
    chat_ids: set[int]
    compose_key: ComposeKey | None

    async def connect(self) -> None:
        self.chat_ids = set()
        self.compose_key = None
        await super().connect()

    def _snapshot(self) -> tuple[str | None, tuple[int, int] | None, str]:
        group, shown, html = super()._snapshot()
        return group, shown, html + self._chat_snapshot()

    def _chat_snapshot(self) -> str:
        key, table = self._compose_key()
        if table is None or not selectors.has_chat(table):
            return ""  # the table is gone, or a daily deal's (no chat)
        messages = selectors.recent(self.table_id, self.user.pk)
        self.chat_ids = self.chat_ids | {m.pk for m in messages}
        first = self.compose_key is None
        if first:
            services.notifications_seen(table_id=self.table_id, user_id=self.user.pk)
        with translation.override(self.language):
            html = render.log_html(messages, self.user.pk, oob=True)
            if not first and key != self.compose_key:
                html += compose_for(table, self.user, oob=True)
        self.compose_key = key  # the page was rendered with the composer of its time
        return html

    def _compose_key(self) -> tuple[ComposeKey, Table | None]:
        table = Table.objects.prefetch_related("seats").filter(pk=self.table_id).first()
        if table is None:
            return (False, False, False), None
        seated = any(s.user_id == self.user.pk for s in table.seats.all())
        allowed = selectors.spectators_may_chat(self.table_id)
        return (seated, allowed, table.owner_id == self.user.pk), table

    def _compose_if_changed(self) -> str | None:
        key, table = self._compose_key()
        if table is None or key == self.compose_key:
            return None
        self.compose_key = key
        with translation.override(self.language):
            return compose_for(table, self.user, oob=True)

    async def chat_message(self, event: ChatEvent) -> None:
        data = event["message"]
        if self.user.pk in event.get("hidden_from", ()) or data["id"] in self.chat_ids:
            return
        if len(self.chat_ids) >= MAX_REMEMBERED:
            self.chat_ids = set(sorted(self.chat_ids)[-MAX_REMEMBERED // 2 :])
        self.chat_ids.add(data["id"])
        with translation.override(self.language):
            html = render.frame_html(data, self.user.pk)
        await self.send(text_data=html)

    async def chat_settings(self, event: SettingsEvent) -> None:
        html = await database_sync_to_async(self._compose_if_changed)()
        if html:
            await self.send(text_data=html)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A chat form sent over the socket (anything else is ignored)."""
        if getattr(self, "closing", False) or not getattr(self, "counted", False):
            return
        try:
            data = safe_json.loads_limited(text_data or bytes_data or b"", max_bytes=MAX_RECEIVED)
        except safe_json.JSONTooLarge:
            with translation.override(self.language):
                await self.send(text_data=render.error_html(services.too_long()))
            return
        except (safe_json.InvalidJSON, TypeError):
            return
        if not isinstance(data, dict) or data.get("chat") != "send":
            return
        phrase, text = data.get("phrase", ""), data.get("text", "")
        if not isinstance(phrase, str) or not isinstance(text, str):
            phrase, text = "?", ""  # refused as an unknown phrase
        error = await database_sync_to_async(self._chat_send)(phrase, text)
        if error:
            with translation.override(self.language):
                await self.send(text_data=render.error_html(error))

    def _chat_send(self, phrase: str, text: str) -> str:
        """Send as the chat's view does; the refusal's words (in the page's language), or ""."""
        with translation.override(self.language):
            table = Table.objects.prefetch_related("seats").filter(pk=self.table_id).first()
            if table is None or not access.may_view(self.user, table, self.scope.get("session")):
                return _("This table was closed.")
            request = HttpRequest()
            request.user = self.user
            try:
                services.message_send_limited(
                    request=request, table=table, text=text, phrase=phrase
                )
            except Refusal as exc:
                return exc.message
            return ""
