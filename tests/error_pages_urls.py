"""The site's URLs plus views that fail on purpose, for tests/test_error_pages.py
(`@pytest.mark.urls`): the error handlers are looked up on this module, so it
names the site's own."""

from __future__ import annotations

from allauth.core.ratelimit import respond_429
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django_ratelimit.exceptions import Ratelimited

from euchre_site import urls as site_urls
from euchre_site import views


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("a reason no visitor should read")


def gone(request: HttpRequest) -> HttpResponse:
    return views.error_response(request, 410)


def ratelimited(request: HttpRequest) -> HttpResponse:
    raise Ratelimited


def allauth_limited(request: HttpRequest) -> HttpResponse:
    return respond_429(request)


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug no visitor should read about")


def database_down(request: HttpRequest) -> HttpResponse:
    raise OperationalError("connection refused")


urlpatterns = [
    path("test-errors/403/", forbidden),
    path("test-errors/410/", gone),
    path("test-errors/429/", ratelimited),
    path("test-errors/429-allauth/", allauth_limited),
    path("test-errors/500/", broken),
    path("test-errors/503/", database_down),
    *site_urls.urlpatterns,
]

handler400 = site_urls.handler400
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler429 = site_urls.handler429
handler500 = site_urls.handler500
