"""The per-user socket open on every page: badge on connect, then badge and toast frames."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import realtime, services


class NotificationConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = realtime.user_group(user.pk)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        count = await database_sync_to_async(services.unread_count)(user)
        await self.send(text_data=services.badge_html(count, oob=True))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def html_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])
