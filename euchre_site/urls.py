from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts import views as account_views
from notifications import views as notification_views

from . import pwa, rules, tutorial, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/", rules.rules_page, name="rules"),
    path("learn/", tutorial.learn, name="learn"),
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    # The scripts' texts (djangojs catalogs) in the page's language: base.html loads it first.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # Before allauth's: the same sign-up, open to a guest (accounts.guests).
    path("accounts/signup/", account_views.signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    # Before games.urls: its placeholder "notifications/" page is replaced by this app.
    path("notifications/", include("notifications.urls")),
    path("sw.js", notification_views.service_worker, name="service_worker"),
    # Installing the site on a phone: the manifest, and the page the service worker keeps for offline.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("stats/", include("stats.urls")),
    path("daily/", include("daily.urls")),
    path("", include("social.urls")),
    path("", include("chat.urls")),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]

# Error pages in the site's layout and the reader's language, also under DEBUG=0
# (euchre_site/views.py). allauth's rate limits answer with handler429, and a
# django-ratelimit Ratelimited (a PermissionDenied) gets a 429 from handler403.
handler400 = "euchre_site.views.bad_request"
handler403 = "euchre_site.views.permission_denied"
handler404 = "euchre_site.views.page_not_found"
handler429 = "euchre_site.views.too_many_requests"
handler500 = "euchre_site.views.server_error"
