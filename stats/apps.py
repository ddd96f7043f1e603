from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    # Translators: the statistics part of the site, as the admin names it.
    verbose_name = gettext_lazy("Statistics")

    def ready(self) -> None:
        # Here, not at the top: the receivers import models, which Django
        # loads only once every app's config is made.
        from . import receivers

        receivers.connect()
