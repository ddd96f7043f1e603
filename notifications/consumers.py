"""The per-user socket open on every page: badge on connect, then badge and toast
frames; it closes when its session ends (accounts.sessions.SessionBoundConsumer)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TypedDict

from django.conf import settings

from accounts.models import User
from accounts.sessions import SessionBoundConsumer
from euchre_site.socket_db import database_sync_to_async
from games import presence

from . import realtime, services, texts


class HtmlFrame(TypedDict):
    """`html.frame` (notifications.realtime): HTML for the page as it is."""

    type: str
    html: str


log = logging.getLogger(__name__)


class NotificationConsumer(SessionBoundConsumer):
    async def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = realtime.user_group(user.pk)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Online now, for friends lists: counted while a page of the site is open.
        await database_sync_to_async(presence.joined)(presence.SITE, user.pk)
        self.heartbeat = asyncio.create_task(self._keep_presence(user.pk))
        await self.send(text_data=await database_sync_to_async(_badge)(user))

    async def _keep_presence(self, user_id: int) -> None:
        while True:
            await asyncio.sleep(settings.SOCKET_HEARTBEAT_SECONDS)
            try:
                await database_sync_to_async(presence.still_here)(presence.SITE, user_id)
            except Exception:  # Redis away: try again next beat
                log.warning("site presence heartbeat failed", exc_info=True)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            if getattr(self, "heartbeat", None):
                self.heartbeat.cancel()
            with contextlib.suppress(Exception):
                await database_sync_to_async(presence.left)(presence.SITE, self.scope["user"].pk)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def html_frame(self, event: HtmlFrame) -> None:
        await self.send(text_data=event["html"])


def _badge(user: User) -> str:
    """The badge in the user's language (the socket has no page language of its own)."""
    with texts.in_language_of(user):
        return services.badge_html(services.unread_count(user), oob=True)
