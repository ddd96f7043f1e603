"""The notifications' edge to the announcements of games (games.signals),
Django's log-out and its own services (notifications.signals). Connected in
NotificationsConfig.ready."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models import Model

from accounts.models import User
from games import signals as game_signals
from games.models import Game

from . import services, signals, tasks
from .texts import Params
from .views import forget_push_on_logout

log = logging.getLogger(__name__)


def connect() -> None:
    game_signals.tell.connect(tell, dispatch_uid="notifications.tell")
    user_logged_out.connect(forget_push_on_logout, dispatch_uid="notifications.push_logout")
    signals.notification_stored.connect(stored, dispatch_uid="notifications.stored")


def tell(
    sender: type[Model],
    user: User,
    kind: str,
    game: Game,
    turn_key: str | None = None,
    params: Params | None = None,
    text: str = "",
    **kw: object,
) -> None:
    """games.signals.tell: `user`, `kind`, `game`, `turn_key` and `params`, the
    facts of the kind (notifications.texts lists them); the words are written
    in the recipient's language when read or sent. A sender that still gives an
    English `text` (the transition) has it stored: it is shown as it is when
    there are no params, or when they do not make the kind's sentence."""
    services.notify(
        user=user,
        kind=kind,
        game=game,
        params=params or None,
        text=text,
        url=game.get_absolute_url(),
        turn_key=turn_key,
    )


def stored(
    sender: type[Model],
    *,
    user_id: int,
    notification_id: int,
    email: bool,
    push: bool,
    **kw: object,
) -> None:
    """Queue the e-mail batch and the push of a new notification."""
    try:
        if email:
            tasks.send_pending_emails.apply_async((user_id,), countdown=settings.NOTIFY_EMAIL_DELAY)
        if push:
            tasks.send_push.delay(notification_id)
    except Exception:  # broker down: stays pending, the user's next batch takes it
        log.exception("could not queue e-mail/push for notification %s", notification_id)
