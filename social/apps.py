from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Here, not at the top: the receivers import models, which Django
        # loads only once every app's config is made.
        from . import receivers

        receivers.connect()
