from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"
    # Translators: the table chat part of the site, as the admin names it.
    verbose_name = gettext_lazy("Table chat")
