"""Sockets follow the session (issue 21, item 5).

Every websocket of a signed-in user (table, lobby, notifications) is a
`SessionBoundConsumer`: on connect it joins the group `user.<id>.sockets`
and remembers its session key (as a digest). Then:

- Log-out (Django's `user_logged_out`, which allauth's log-out view sends):
  the session is marked ended in the cache and `session.end` naming its
  digest goes to the user's group; the sockets of that session close at
  once with 4401, the user's other sessions' sockets stay.
- A changed password (any path: allauth's change, set and reset views, the
  admin, `changepassword`), deactivation (`is_active` saved False) or a
  deleted user: after the commit, `session.end` without a session goes to
  the user's group and each of that user's sockets re-validates its session
  as Django's `get_user` would (the session still stored, same user, a known
  backend, an active user, the session's auth hash equal to the user's) and
  closes with 4401 if it fails. The session of the person who changed the
  password was cycled (a new key), so its old sockets close too.
- No frame leaves for an ended session: `send` (every frame of these
  consumers goes through it) and received frames (the chat's forms) are
  dropped once the socket's session ended. The channel layer delivers the
  `session.end` of a log-out before any frame published after it (one Redis
  connection per process, messages in publish order), and a log-out racing
  a socket's connect is seen by the check after joining the group (the cache
  mark is set before the message is sent). Because delivery is at most once,
  a socket also re-validates its session before sending or receiving when
  its last check is older than SOCKET_SESSION_RECHECK_SECONDS (30 s; the
  sockets of one session in one process share that check): that also ends
  sockets whose session expired or was deleted some other way. The check
  costs a thread hop, a Redis read and two queries (about 1 ms of daphne's
  CPU): at 5 s, with 600 sockets open, it was a fifth of daphne's time under
  load (docs/performance.md). Every ending the site itself causes is pushed
  at once, so the interval only bounds a lost message or an expiry.
  Per frame this is one clock read and two attribute tests (measured in
  tests/games/test_session_sockets.py), never a query.

Not covered: `QuerySet.update()` of a password or `is_active` sends no
signal (the re-validation still closes those sockets within the interval of
their next frame).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from importlib import import_module
from typing import TYPE_CHECKING, TypedDict

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.signals import user_logged_out
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.utils.crypto import constant_time_compare

from euchre_site import push
from euchre_site.socket_db import database_sync_to_async

if TYPE_CHECKING:
    from asgiref.typing import (
        WebSocketConnectEvent,
        WebSocketDisconnectEvent,
        WebSocketReceiveEvent,
    )
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from .models import User

log = logging.getLogger(__name__)

SESSION_ENDED = 4401  # the close code of a socket whose session ended (as an anonymous one)
ENDED_MARK_SECONDS = 3600  # the cache mark only has to outlive a racing connect
DEFAULT_RECHECK_SECONDS = 30.0


class SessionEnd(TypedDict):
    """The group message `session.end`: `session` names the ended session's
    digest, or None (every socket of the user re-validates its own)."""

    type: str
    session: str | None


def user_sockets_group(user_id: int) -> str:
    """Every socket of a signed-in user is a member (table, lobby, notifications)."""
    return f"user.{user_id}.sockets"


def session_digest(session_key: str) -> str:
    """A session is named by a digest in Redis (group messages, cache marks), never its key."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _ended_key(digest: str) -> str:
    return f"session-ended:{digest}"


def recheck_seconds() -> float:
    return float(getattr(settings, "SOCKET_SESSION_RECHECK_SECONDS", DEFAULT_RECHECK_SECONDS))


# --------------------------------------------------------------------------- ending sessions


def end_session(user_id: int, session_key: str) -> None:
    """The sockets of this session close (a log-out)."""
    digest = session_digest(session_key)
    try:
        cache.set(_ended_key(digest), 1, ENDED_MARK_SECONDS)
    except Exception:  # Redis away: the socket's re-validation sees the deleted session
        log.warning("ended session not marked", exc_info=True)
    message: SessionEnd = {"type": "session.end", "session": digest}
    push.send([(user_sockets_group(user_id), message)])


def end_user_sessions(user_id: int) -> None:
    """Each socket of this user checks its session again (password, deactivation)."""
    message: SessionEnd = {"type": "session.end", "session": None}
    push.send([(user_sockets_group(user_id), message)])


def session_alive(user_id: int, session_key: str | None) -> bool:
    """Would this session still sign this user in? Django's `get_user`, read-only."""
    if not session_key:
        return False
    digest = session_digest(session_key)
    if cache.get(_ended_key(digest)):
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    backend_path = store.get(BACKEND_SESSION_KEY)
    stored_id = store.get(SESSION_KEY)
    session_hash = store.get(HASH_SESSION_KEY)
    if stored_id is None or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    model = get_user_model()
    try:
        if model._meta.pk.to_python(stored_id) != user_id:  # type: ignore[union-attr]
            return False
    except Exception:
        return False
    user = load_backend(backend_path).get_user(user_id)
    if user is None or not getattr(user, "is_active", True) or not session_hash:
        return False
    if not hasattr(user, "get_session_auth_hash"):
        return True
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return True
    return any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    )


# --------------------------------------------------------------------------- signal handlers


def on_logged_out(
    sender: type[User],
    request: HttpRequest | None,
    user: AbstractBaseUser | AnonymousUser | None,
    **kwargs: object,
) -> None:
    """Sent by django.contrib.auth.logout before the session is flushed."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    user_id = getattr(user, "pk", None)
    if user is None or user_id is None or not key:
        return
    end_session(user_id, key)


_MARK = "_sockets_end_after_save"


def before_user_saved(
    sender: type[User],
    instance: User,
    raw: bool = False,
    using: str | None = None,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Note a changed password or a deactivation (one query, only when either may change)."""
    if raw or instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return
    old = (
        sender._default_manager.using(using)
        .filter(pk=instance.pk)
        .values_list("password", "is_active")
        .first()
    )
    if old is None:
        return
    password, active = old
    if password != instance.password or (active and not instance.is_active):
        setattr(instance, _MARK, True)


def after_user_saved(
    sender: type[User], instance: User, using: str | None = None, **kwargs: object
) -> None:
    if instance.__dict__.pop(_MARK, False):
        user_id = instance.pk
        # After the commit, so that the sockets' re-validation reads the new hash.
        transaction.on_commit(lambda: end_user_sessions(user_id), using=using)


def after_user_deleted(
    sender: type[User], instance: User, using: str | None = None, **kwargs: object
) -> None:
    user_id = instance.pk
    if user_id is not None:
        transaction.on_commit(lambda: end_user_sessions(user_id), using=using)


def connect_signals() -> None:
    model = settings.AUTH_USER_MODEL
    user_logged_out.connect(on_logged_out, dispatch_uid="accounts.sessions.logged_out")
    pre_save.connect(before_user_saved, sender=model, dispatch_uid="accounts.sessions.pre_save")
    post_save.connect(after_user_saved, sender=model, dispatch_uid="accounts.sessions.post_save")
    post_delete.connect(
        after_user_deleted, sender=model, dispatch_uid="accounts.sessions.post_delete"
    )


# --------------------------------------------------------------------------- the consumers' side


# Session digest -> when a socket of this process last found it alive: the
# sockets of one session (a table's and the notifications', several tabs)
# share the periodic check. Forced checks (connect, session.end) ignore it.
_checked: dict[str, float] = {}
_MAX_CHECKED = 20_000


def _remember_check(digest: str, now: float) -> None:
    if len(_checked) >= _MAX_CHECKED:
        horizon = now - recheck_seconds()
        for old in [d for d, t in _checked.items() if t < horizon]:
            del _checked[old]
        if len(_checked) >= _MAX_CHECKED:
            _checked.clear()
    _checked[digest] = now


class SessionBoundConsumer(AsyncWebsocketConsumer):
    """Base of every socket of a signed-in user: closes (4401) when its session
    ends and never sends or takes a frame after that."""

    session_ended = False
    _session_bound = False
    _session_check_due = math.inf
    _session_lock: asyncio.Lock | None = None

    async def websocket_connect(self, message: WebSocketConnectEvent) -> None:
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            key = getattr(self.scope.get("session"), "session_key", None)
            self._session_user_id = user.pk
            self._session_key = key
            self._session_digest = session_digest(key) if key else ""
            self._session_group = user_sockets_group(user.pk)
            self._session_bound = True
            self._session_lock = asyncio.Lock()
            await self.channel_layer.group_add(self._session_group, self.channel_name)
            # Joined first: a log-out from now on reaches this socket, one before is seen here.
            await self._check_session(force=True)
            if self.session_ended:
                return
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        if self._session_bound:
            await self.channel_layer.group_discard(self._session_group, self.channel_name)
        await super().websocket_disconnect(message)

    async def websocket_receive(self, message: WebSocketReceiveEvent) -> None:
        if await self._session_ok():
            await super().websocket_receive(message)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if await self._session_ok():
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def session_end(self, event: SessionEnd) -> None:
        if not self._session_bound or self.session_ended:
            return
        if event.get("session"):
            if event["session"] == self._session_digest:
                await self._end_session()
            return
        await self._check_session(force=True)

    async def _session_ok(self) -> bool:
        """The check before each frame: no query unless the last one is old."""
        if self.session_ended:
            return False
        lock = self._session_lock
        if lock is not None and (lock.locked() or time.monotonic() >= self._session_check_due):
            await self._check_session()
            return not self.session_ended
        return True

    async def _check_session(self, force: bool = False) -> None:
        assert self._session_lock is not None
        async with self._session_lock:
            if self.session_ended or (not force and time.monotonic() < self._session_check_due):
                return
            now = time.monotonic()
            checked = _checked.get(self._session_digest)
            if not force and checked is not None and now - checked < recheck_seconds():
                # Another socket of this session, in this process, checked it lately.
                self._session_check_due = checked + recheck_seconds()
                return
            try:
                alive = await database_sync_to_async(session_alive)(
                    self._session_user_id, self._session_key
                )
            except Exception:  # the database or Redis away: the session did not end
                log.warning("socket session not checked", exc_info=True)
                alive = True
            now = time.monotonic()
            self._session_check_due = now + recheck_seconds()
            if alive:
                _remember_check(self._session_digest, now)
            else:
                _checked.pop(self._session_digest, None)
                await self._end_session()

    async def _end_session(self) -> None:
        if self.session_ended:
            return
        self.session_ended = True
        self.closing = True  # the chat's receive refuses from now on
        await self.close(code=SESSION_ENDED)
