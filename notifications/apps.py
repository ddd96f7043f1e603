from typing import Any

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import signals

        from .views import forget_push_on_logout

        signals.tell.connect(_tell, dispatch_uid="notifications.tell")
        user_logged_out.connect(forget_push_on_logout, dispatch_uid="notifications.push_logout")


def _tell(
    sender: Any, user: Any, kind: str, game: Any, text: str, turn_key: str | None, **kw: Any
) -> None:
    from .services import notify

    notify(
        user=user, kind=kind, game=game, text=text, url=game.get_absolute_url(), turn_key=turn_key
    )
