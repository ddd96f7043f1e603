"""The Celery application: bots' moves, notifications, statistics, timers."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "euchre_site.settings")

app = Celery("euchre_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
