import contextlib
from typing import Any

from django.apps import AppConfig

from euchre_site.refusal import Refusal


class SocialConfig(AppConfig):
    name = "social"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import signals

        signals.seat_wanted.connect(_seat_wanted, dispatch_uid="social.seat_wanted")
        signals.seat_taken.connect(_seat_taken, dispatch_uid="social.seat_taken")
        from allauth.account.signals import user_signed_up

        user_signed_up.connect(_signed_up, dispatch_uid="social.signed_up")


def _seat_wanted(sender: Any, *, table: Any, position: int, user: Any, **kwargs: Any) -> None:
    from . import services

    services.check_seat(table=table, position=position, user=user)


def _seat_taken(sender: Any, *, table: Any, user: Any, **kwargs: Any) -> None:
    from . import services

    services.seat_taken(table=table, user=user)


def _signed_up(sender: Any, *, request: Any, user: Any, **kwargs: Any) -> None:
    """Someone who followed an invitation link and signed up takes the held
    seat at once (if it is still held): straight from sign-up to the table."""
    from . import selectors, services

    token = request.session.pop(selectors.SIGNUP_INVITATION_KEY, None) if request else None
    if isinstance(token, str):
        # Gone or taken meanwhile: the invitation page they land on says so.
        with contextlib.suppress(Refusal):
            services.invitation_accept(token=token, user=user)
