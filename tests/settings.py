"""The settings of the test run (pytest's DJANGO_SETTINGS_MODULE): the site's
own, with the few changes every test wants. The Redis URLs are set by
tests/django_plugin.py at start-up, once the throw-away Redis has its port; processes a
test starts (Celery workers, daphne) use the site's settings."""

from euchre_site.settings import *  # noqa: F403

# PBKDF2 took about 0.4 s a user here; the browser tests' daphne keeps it.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Bots answer at once (their pace is a setting the tests of pacing change).
BOT_MOVE_DELAY = BOT_TRICK_PAUSE = BOT_HAND_PAUSE = 0.0

# Tasks go to the broker unless a test asks for them to run in-process, with
# the `eager_celery` fixture (tests/django_plugin.py).
CELERY_TASK_ALWAYS_EAGER = False
