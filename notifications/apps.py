from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # Here, not at the top: the receivers import models, which Django
        # loads only once every app's config is made.
        from . import receivers

        receivers.connect()
