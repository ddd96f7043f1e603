"""The table page's websocket, with the chat: games.consumers.TableConsumer
(the table's frames) plus the chat's events on the same socket and group.

- On connect: the conversation (morphed into the page's log, so what the
  page shows stays; a reconnecting page gets what it missed), and the
  reader's chat notifications of this table are read.
- `chat.message`: one event per message to the table's group; each socket
  drops it when its reader muted or blocked the sender (`hidden_from`, read
  from the database once per message by the sender's process) and otherwise
  writes it in its own language, without touching the database: one frame
  per message per page.
- `chat.settings` and seat changes: the composer is sent again when what the
  reader may do changed (a spectator who sat down, the owner's switch).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation

from games.consumers import TableConsumer
from games.models import Table

from . import render, selectors, services
from .templatetags.chat_tags import compose_for

MAX_REMEMBERED = 500  # message ids a socket keeps, to send none twice


class TableChatConsumer(TableConsumer):
    async def connect(self) -> None:
        self.chat_ids: set[int] = set()
        self.compose_key: tuple[bool, bool, bool] | None = None
        await super().connect()
        if not getattr(self, "counted", False):
            return  # refused
        html = await database_sync_to_async(self._chat_snapshot)()
        await self.send(text_data=html)

    def _chat_snapshot(self) -> str:
        messages = selectors.recent(self.table_id, self.user.pk)
        self.chat_ids = {m.pk for m in messages}
        services.notifications_seen(table_id=self.table_id, user_id=self.user.pk)
        self.compose_key = self._compose_key()[0]
        with translation.override(self.language):
            return render.log_html(messages, self.user.pk, oob=True)

    def _compose_key(self) -> tuple[tuple[bool, bool, bool], Table | None]:
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

    async def _send_compose(self) -> None:
        html = await database_sync_to_async(self._compose_if_changed)()
        if html:
            await self.send(text_data=html)

    async def chat_message(self, event: dict[str, Any]) -> None:
        data = event["message"]
        if self.user.pk in event.get("hidden_from", ()) or data["id"] in self.chat_ids:
            return
        if len(self.chat_ids) >= MAX_REMEMBERED:
            self.chat_ids = set(sorted(self.chat_ids)[-MAX_REMEMBERED // 2 :])
        self.chat_ids.add(data["id"])
        with translation.override(self.language):
            html = render.frame_html(data, self.user.pk)
        await self.send(text_data=html)

    async def chat_settings(self, event: dict[str, Any]) -> None:
        await self._send_compose()

    async def table_changed(self, event: dict[str, Any]) -> None:
        await super().table_changed(event)
        if not getattr(self, "closing", False):
            await self._send_compose()

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closing = True
        await super().close(code, reason)
