from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import signals

        from .views import forget_push_on_logout

        signals.tell.connect(_tell, dispatch_uid="notifications.tell")
        user_logged_out.connect(forget_push_on_logout, dispatch_uid="notifications.push_logout")


def _tell(
    sender: Any,
    user: Any,
    kind: str,
    game: Any,
    turn_key: str | None = None,
    params: dict[str, Any] | None = None,
    text: str = "",
    **kw: Any,
) -> None:
    """games.signals.tell: `user`, `kind`, `game`, `turn_key` and `params`, the
    facts of the kind (notifications.texts lists them); the words are written
    in the recipient's language when read or sent. A sender that still gives an
    English `text` (the transition) has it stored: it is shown as it is when
    there are no params, or when they do not make the kind's sentence."""
    from .services import notify

    notify(
        user=user,
        kind=kind,
        game=game,
        params=params or None,
        text=text,
        url=game.get_absolute_url(),
        turn_key=turn_key,
    )
