from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.utils import translation

from .languages import supported

if TYPE_CHECKING:  # the models load only once the app registry is ready
    from django.http import HttpRequest

    from .models import User


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: accounts.sessions loads the auth models, which Django
        # allows only once the app registry is ready.
        from .sessions import connect_signals

        user_logged_in.connect(_remember_language, dispatch_uid="accounts.remember_language")
        # Log-out, a new password and deactivation close the user's sockets.
        connect_signals()


def _remember_language(
    sender: type[User], request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    """A player without a chosen language keeps the one they signed up or
    logged in with (their e-mails and pushes are written in it)."""
    code = supported(translation.get_language())
    if request is not None and code and not getattr(user, "language", ""):
        user.language = code
        user.save(update_fields=["language"])
