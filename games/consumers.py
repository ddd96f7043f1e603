"""Websockets: thin. They join the viewer's groups, send a full snapshot on
(re)connect, and forward the frames that games.realtime pushes. Each follows
its session (accounts.sessions.SessionBoundConsumer): log-out, a new password
or deactivation closes it, and it sends nothing after its session ended."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from accounts import languages
from accounts.sessions import SessionBoundConsumer
from euchre_site.socket_db import database_sync_to_async

from . import access, frames, groups, hints, presence, selectors, services, tasks
from .models import Seat, Table

if TYPE_CHECKING:
    from .frames import HtmlFrame
    from .realtime import HintReady, TableChanged

log = logging.getLogger(__name__)


class TableConsumer(SessionBoundConsumer):
    groups: list[str] = []

    async def connect(self) -> None:
        self.user = self.scope["user"]
        if not self.user.is_authenticated:
            await self.close(code=4401)
            return
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.language = languages.socket_language(self.scope)
        self.game_group: str | None = None
        self.shown: tuple[int, int] | None = None  # (game id, version) the page has
        # Frames that came before an older one still on its way, by version.
        self.early: dict[int, str] = {}
        self.gap_timer: asyncio.Task[None] | None = None
        allowed = await database_sync_to_async(self._may_watch)()
        if not allowed:
            await self.close(code=4403)
            return
        await self.accept()
        await database_sync_to_async(presence.joined)(self.table_id, self.user.pk)
        self.counted = True
        self.heartbeat = asyncio.create_task(self._keep_presence())
        # A live player who dropped and had a bot standing in gets the seat back at once.
        await database_sync_to_async(services.seat_set_away)(
            table_id=self.table_id, user_id=self.user.pk, away=False
        )
        await self.channel_layer.group_add(groups.table_group(self.table_id), self.channel_name)
        await self.follow_and_snapshot()

    async def _keep_presence(self) -> None:
        """Renew this socket's presence and resync the page if it missed a move:
        frames published while Redis was away are lost, and so are the presence
        counts if Redis lost its data (then no frame is rendered for this seat)."""
        behind = None  # a newer version the page had not got at the last beat
        while True:
            await asyncio.sleep(settings.SOCKET_HEARTBEAT_SECONDS)
            try:
                latest = await database_sync_to_async(self._heartbeat)()
                # Still behind a whole beat later: its frame is lost, not in flight.
                if latest != self.shown and latest == behind:
                    await self.follow_and_snapshot()
                    latest = self.shown
                behind = latest if latest != self.shown else None
            except Exception:  # Redis or the database away: try again next beat
                log.warning("table socket heartbeat failed", exc_info=True)

    def _heartbeat(self) -> tuple[int, int] | None:
        presence.still_here(self.table_id, self.user.pk)
        return selectors.latest_game_version(self.table_id)

    def _left(self) -> None:
        presence.left(self.table_id, self.user.pk)
        seated_live = Seat.objects.filter(
            table_id=self.table_id, user_id=self.user.pk, table__mode=Table.Mode.LIVE
        ).exists()
        if seated_live and not presence.is_on_table_page(self.table_id, self.user.pk):
            # The grace period starts; the task does nothing if they are back by then.
            tasks.live_grace_expired.apply_async(
                (self.table_id, self.user.pk), countdown=settings.LIVE_GRACE_SECONDS
            )

    def _may_watch(self) -> bool:
        table = Table.objects.prefetch_related("seats").filter(pk=self.table_id).first()
        return table is not None and access.may_view(self.user, table, self.scope.get("session"))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "table_id", None) is None:
            return
        if getattr(self, "counted", False):
            self.heartbeat.cancel()
            if self.gap_timer:
                self.gap_timer.cancel()
            await database_sync_to_async(self._left)()
        await self.channel_layer.group_discard(groups.table_group(self.table_id), self.channel_name)
        if self.game_group:
            await self.channel_layer.group_discard(self.game_group, self.channel_name)

    async def follow_and_snapshot(self) -> None:
        """Send the page the table as it is now, and follow its game's frames.

        A move stored between the snapshot's read and joining the game's
        group is pushed to a group this socket is not in yet: its frame never
        comes (the heartbeat would heal it only one or two beats later, a
        frozen table at a game's start, when the bots move at once). So once
        the socket has joined, the version is read again and, if a move came
        in between, the snapshot taken again; from the join on, every frame
        reaches this socket (those it already has are dropped by version)."""
        while True:
            group, shown, html = await database_sync_to_async(self._snapshot)()
            if group == self.game_group:
                break
            if self.game_group:
                await self.channel_layer.group_discard(self.game_group, self.channel_name)
            if group:
                await self.channel_layer.group_add(group, self.channel_name)
            self.game_group = group
            latest = await database_sync_to_async(selectors.latest_game_version)(self.table_id)
            if latest == shown:
                break
        self.shown = shown
        self.early = {v: h for v, h in self.early.items() if shown and v > shown[1]}
        await self.send(text_data=html)

    def _snapshot(self) -> tuple[str | None, tuple[int, int] | None, str]:
        table = selectors.with_seats(Table.objects.filter(pk=self.table_id)).first()
        if table is None:
            with translation.override(self.language):
                closed = format_html(
                    '<div id="table" hx-swap-oob="true"><p class="message">{}</p></div>',
                    _("This table was closed."),
                )
            return None, None, closed
        game = selectors.latest_game(table)
        seat = access.seat_of(table, self.user)
        group = groups.game_group(game.pk, seat) if game else None
        shown = (game.pk, game.version) if game else None
        with translation.override(self.language):
            html = frames.render_table(table, game, seat, oob=True, user=self.user)
        return group, shown, html

    async def table_changed(self, event: TableChanged) -> None:
        # Seats or the invitation may have changed: who may watch, too.
        if not await database_sync_to_async(self._may_watch)():
            await self.close(code=4403)
            return
        await self.follow_and_snapshot()

    async def html_frame(self, event: HtmlFrame) -> None:
        if event.get("language") not in (None, self.language):
            # Written for another language: this page gets its own snapshot.
            await self.follow_and_snapshot()
            return
        if self.shown is None:
            await self.send(text_data=event["html"])
            return
        if event["version"] > self.shown[1]:
            self.early[event["version"]] = event["html"]
            await self._send_in_order()

    async def hint_ready(self, event: HintReady) -> None:
        """A hint a worker worked out for this seat (games.hints): only to the
        player who asked, and only if this page is not past its version (the
        page then shows it at that game and version only, static/js/table.js)."""
        shown = self.shown
        if event.get("user") != self.user.pk or shown is None or event.get("game") != shown[0]:
            return
        if event["version"] < shown[1]:
            return  # the table moved on: a stale hint is never shown
        with translation.override(self.language):
            html = hints.inbox_html(event["game"], event["version"], event["hint"])
        await self.send(text_data=html)

    async def _send_in_order(self) -> None:
        """Send the waiting frames that follow what the page has, one version
        after another. Moves made in quick succession are published by
        different processes, so the frame of version 3 can overtake that of
        version 2; it waits (FRAME_GAP_WAIT_SECONDS at most) so the page sees
        every move in order. A frame never rendered for this page (it was not
        counted present yet) is then skipped: each frame is a whole snapshot."""
        assert self.shown is not None
        game_id, version = self.shown
        while version + 1 in self.early:
            version += 1
            self.shown = (game_id, version)
            await self.send(text_data=self.early.pop(version))
        if self.early and self.gap_timer is None:
            self.gap_timer = asyncio.create_task(self._skip_gap())

    async def _skip_gap(self) -> None:
        await asyncio.sleep(settings.FRAME_GAP_WAIT_SECONDS)
        self.gap_timer = None
        if self.early and self.shown is not None:
            # Go on from the oldest frame that came; a later gap waits again.
            oldest = min(self.early)
            self.shown = (self.shown[0], oldest - 1)
            await self._send_in_order()


class LobbyConsumer(SessionBoundConsumer):
    async def connect(self) -> None:
        if not self.scope["user"].is_authenticated:
            await self.close(code=4401)
            return
        self.language = languages.socket_language(self.scope)
        await self.accept()
        await self.channel_layer.group_add("lobby", self.channel_name)
        await self.send(text_data=await database_sync_to_async(self._render)())

    def _render(self) -> str:
        with translation.override(self.language):
            return frames.render_lobby_list(oob=True)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard("lobby", self.channel_name)

    async def html_frame(self, event: HtmlFrame) -> None:
        if event.get("language") not in (None, self.language):
            # Written for another language: this page gets the list in its own.
            await self.send(text_data=await database_sync_to_async(self._render)())
            return
        await self.send(text_data=event["html"])
