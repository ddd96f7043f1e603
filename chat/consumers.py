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
        if table is None:
            return ""  # the table is gone
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
        html = await database_sync_to_async(self._compose_if_changed)()
        if html:
            await self.send(text_data=html)
