"""The social app's edge to the announcements of games (games.signals),
allauth (a sign-up) and its own services (social.signals). Connected in
SocialConfig.ready."""

from __future__ import annotations

import contextlib

from allauth.account.signals import user_signed_up
from django.db.models import Model
from django.http import HttpRequest

from accounts.models import User
from euchre_site.refusal import Refusal
from games import signals as game_signals
from games.models import Table

from . import selectors, services, signals, tasks


def connect() -> None:
    game_signals.seat_wanted.connect(seat_wanted, dispatch_uid="social.seat_wanted")
    game_signals.seat_taken.connect(seat_taken, dispatch_uid="social.seat_taken")
    user_signed_up.connect(signed_up, dispatch_uid="social.signed_up")
    signals.invitation_to_mail.connect(invitation_to_mail, dispatch_uid="social.invitation_mail")


def seat_wanted(
    sender: type[Model], *, table: Table, position: int, user: User | None, **kwargs: object
) -> None:
    services.check_seat(table=table, position=position, user=user)


def seat_taken(sender: type[Model], *, table: Table, user: User, **kwargs: object) -> None:
    services.seat_taken(table=table, user=user)


def signed_up(
    sender: type[Model], *, request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    """Someone who followed an invitation link and signed up takes the held
    seat at once (if it is still held): straight from sign-up to the table."""
    token = request.session.pop(selectors.SIGNUP_INVITATION_KEY, None) if request else None
    if isinstance(token, str):
        # Gone or taken meanwhile: the invitation page they land on says so.
        with contextlib.suppress(Refusal):
            services.invitation_accept(token=token, user=user)


def invitation_to_mail(sender: type[Model], *, invitation_id: int, **kwargs: object) -> None:
    tasks.send_invitation_email.delay(invitation_id)
