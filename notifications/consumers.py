"""The per-user socket open on every page: badge on connect, then badge and toast frames."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import realtime, services, texts


class NotificationConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = realtime.user_group(user.pk)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send(text_data=await database_sync_to_async(_badge)(user))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def html_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])


def _badge(user: Any) -> str:
    """The badge in the user's language (the socket has no page language of its own)."""
    with texts.in_language_of(user):
        return services.badge_html(services.unread_count(user), oob=True)
