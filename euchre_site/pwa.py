"""The site as an installable web app: the manifest (`/manifest.webmanifest`,
linked from base.html) and the offline page that the service worker
(notifications/views.py `service_worker`, templates/notifications/sw.js) keeps
at install and shows when a page cannot be loaded for want of a network."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe

from .views import BarePage, bare_page

# Translators: title and heading of the page the site's offline helper (the
# service worker) shows when a page cannot be loaded because the network is down.
OFFLINE_HEADING = _("You are offline")
# Translators: the sentence on the offline page (the network is down, the page
# asked for could not be loaded).
OFFLINE_MESSAGE = _(
    "This page could not be loaded: the site cannot be reached from here right now. "
    "Check your connection, then try again."
)

# The site's colours (static/css/site.css): --felt-dark, the header's bar and
# base.html's theme-color; --felt, the icons' green.
THEME_COLOUR = "#0a3a24"
BACKGROUND_COLOUR = "#0f5132"
# The home-screen icons (scripts/make-icons writes them): file, size, purpose.
# Maskable ones keep the picture inside the middle 80% a phone may crop to.
ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-192.png", "192x192", "maskable"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
]


def offline_assets() -> list[str]:
    """What the service worker keeps for the offline page: the page first,
    then the static files it uses (their hashed names under DEBUG=0)."""
    return [
        reverse("offline"),
        static("css/site.css"),
        static("css/header.css"),
        static("css/error-page.css"),
        static("icons/favicon.svg"),
        static("js/offline.js"),
    ]


def offline_revision(language: str) -> str:
    """Names the service worker's cache: a new language or new static files
    make a new service worker script, hence a new cache."""
    key = " ".join([language, *offline_assets()])
    return hashlib.sha256(key.encode()).hexdigest()[:12]


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The offline page: the bare layout of templates/error.html (nothing of
    the visitor's, since the browser keeps it), in the request's language."""
    context: BarePage = {
        "title": OFFLINE_HEADING,
        "heading": OFFLINE_HEADING,
        "message": OFFLINE_MESSAGE,
        "offline": True,
    }
    response = HttpResponse(bare_page(200, context))
    response["Content-Language"] = translation.get_language()
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def manifest_data() -> dict[str, object]:
    """The manifest in the active language."""
    return {
        "id": "/",
        "name": str(_("Cutthroat Euchre")),
        # Translators: the site's name under its icon on a phone's home screen:
        # one short word or two (at most 12 characters).
        "short_name": pgettext("the app's name under its home-screen icon", "Euchre"),
        "description": str(_("Three-handed Euchre: you against two, then two against you.")),
        "lang": translation.get_language(),
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("icons/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            *(
                {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
                for path, sizes, purpose in ICONS
            ),
        ],
    }


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the reader's language: base.html links it
    with crossorigin="use-credentials", so the language cookie and a signed-in
    player's own choice count, as on every page."""
    response = HttpResponse(
        json.dumps(manifest_data(), ensure_ascii=False, indent=1),
        content_type="application/manifest+json; charset=utf-8",
    )
    response["Content-Language"] = translation.get_language()
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    patch_cache_control(response, max_age=0 if settings.DEBUG else 3600)
    return response
