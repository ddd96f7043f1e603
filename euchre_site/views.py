import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string

DATABASE_DOWN = (
    "The site cannot reach its database right now, so nothing was saved "
    "(your move was not made). Please try again in a moment."
)
SERVER_ERROR = "Something went wrong on our side and nothing was saved. Please try again."


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, and the way in."""
    return render(request, "home.html")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe for process managers and the tests that start daphne."""
    return JsonResponse({"ok": True})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a clear message, and 503 when the database is away (the
    transaction was rolled back: nothing half-written). Rendered without the
    request's context, which would need the database for the session."""
    exc = sys.exc_info()[1]
    down = isinstance(exc, (OperationalError, InterfaceError))
    message, status = (DATABASE_DOWN, 503) if down else (SERVER_ERROR, 500)
    if request.headers.get("HX-Request"):  # site.js shows a text/plain error body
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    else:
        response = HttpResponse(
            render_to_string("error.html", {"message": message, "status": status}), status=status
        )
    if down:
        response["Retry-After"] = "5"
    return response
