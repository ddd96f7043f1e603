import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

DATABASE_DOWN = _(
    "The site cannot reach its database right now, so nothing was saved "
    "(your move was not made). Please try again in a moment."
)
SERVER_ERROR = _("Something went wrong on our side and nothing was saved. Please try again.")


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, and the way in."""
    return render(request, "home.html")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe for process managers and the tests that start daphne (not for people)."""
    return JsonResponse({"ok": True})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a clear message, and 503 when the database is away (the
    transaction was rolled back: nothing half-written). Rendered without the
    request's context, which would need the database for the session; in the
    language the middleware chose, else the one the browser's cookie or
    Accept-Language asks for (no database needed for either)."""
    exc = sys.exc_info()[1]
    down = isinstance(exc, (OperationalError, InterfaceError))
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(
        request
    )
    with translation.override(language):
        message, status = (str(DATABASE_DOWN), 503) if down else (str(SERVER_ERROR), 500)
        if request.headers.get("HX-Request"):  # site.js shows a text/plain error body
            response = HttpResponse(
                message, status=status, content_type="text/plain; charset=utf-8"
            )
        else:
            response = HttpResponse(
                render_to_string("error.html", {"message": message, "status": status}),
                status=status,
            )
        response["Content-Language"] = translation.get_language()
    if down:
        response["Retry-After"] = "5"
    return response
