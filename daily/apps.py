from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class DailyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "daily"
    # Translators: the part of the site with the daily deal (the same five deals for every player, once a day), as the admin names it.
    verbose_name = gettext_lazy("Daily deal")

    def ready(self) -> None:
        # Here, not at the top: the receivers import models, which Django
        # loads only once every app's config is made.
        from . import receivers

        receivers.connect()
