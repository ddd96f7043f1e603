import logging
import sys
from typing import TypedDict

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_ratelimit.exceptions import Ratelimited

from .rules import table_picture

logger = logging.getLogger(__name__)

DATABASE_DOWN = _(
    "The site cannot reach its database right now, so nothing was saved "
    "(your move was not made). Please try again in a moment."
)
SERVER_ERROR = _("Something went wrong on our side and nothing was saved. Please try again.")

# Each error page: (title in the browser's tab, heading, the one sentence).
ERRORS: dict[int, tuple[Promise, Promise, Promise]] = {
    400: (
        # Translators: title and heading of the page for a request the site cannot read (HTTP 400).
        _("Bad request"),
        _("Bad request"),
        # Translators: the sentence on the page for a request the site cannot read (HTTP 400).
        _(
            "The site could not understand that request. Check the address, or start again from the front page."
        ),
    ),
    403: (
        # Translators: title and heading of the page a visitor may not see (HTTP 403).
        _("Not allowed"),
        _("Not allowed"),
        # Translators: the sentence on the page a visitor may not see (HTTP 403).
        _("You may not open this page. If it is yours, log in with the account it belongs to."),
    ),
    404: (
        # Translators: title and heading of the page for an address where there is nothing (HTTP 404).
        _("Page not found"),
        _("Page not found"),
        # Translators: the sentence on the page for an address where there is nothing (HTTP 404).
        _("There is nothing at this address: the link may be old, or mistyped."),
    ),
    410: (
        # Translators: title and heading of the page for something that was removed for good (HTTP 410).
        _("No longer here"),
        _("No longer here"),
        # Translators: the sentence on the page for something that was removed for good (HTTP 410).
        _("What was at this address has been closed or removed, and will not come back."),
    ),
    429: (
        # Translators: title and heading of the page shown when someone asked too often in a short time (HTTP 429).
        _("Too many requests"),
        _("Too many requests"),
        # Translators: the sentence on the page shown when someone asked too often in a short time (HTTP 429).
        _("That was asked too often in a short time. Wait a minute, then try again."),
    ),
    500: (
        _("Server error"),
        pgettext_lazy("heading of the server error page", "Sorry"),
        SERVER_ERROR,
    ),
    503: (_("Back in a moment"), _("Back in a moment"), DATABASE_DOWN),
}


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, a picture of the table, and the
    ways in: "Play now" (a guest's table against bots at once), sign up, log in."""
    return render(request, "home.html", {"table_picture": table_picture(get_language())})


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe for process managers and the tests that start daphne (not for people)."""
    return JsonResponse({"ok": True})


def _language(request: HttpRequest) -> str:
    """The language the middleware chose, else the one the browser's cookie or
    Accept-Language asks for (when the error came before the middleware)."""
    return getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(request)


def error_response(
    request: HttpRequest, status: int, message: str | Promise | None = None
) -> HttpResponse:
    """A 4xx page in the site's layout and the reader's language: a heading, one
    sentence (`message`, else the status's own) and the ways back. An htmx
    request gets the sentence as plain text, which static/js/site.js shows in
    the page's messages."""
    title, heading, default = ERRORS[status]
    with translation.override(_language(request)):
        said = str(message or default)
        if request.headers.get("HX-Request"):
            response = HttpResponse(said, status=status, content_type="text/plain; charset=utf-8")
        else:
            response = render(
                request,
                "error_page.html",
                {"title": title, "heading": heading, "message": said, "status": status},
                status=status,
            )
        response["Content-Language"] = translation.get_language()
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400 (also a Host that ALLOWED_HOSTS or SITE_URL's port refuses)."""
    return error_response(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler403; django-ratelimit's Ratelimited (a PermissionDenied) is a 429."""
    if isinstance(exception, Ratelimited):
        return too_many_requests(request, exception)
    return error_response(request, 403)


# Translators: the sentence on the page shown when a form was sent with an
# out-of-date or missing security token (Django's CSRF check, HTTP 403).
CSRF_FAILED = _(
    "This form had grown too old to be sent (or came from another site), so nothing was done. "
    "Go back, reload the page and send it again."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the 403 page with what to do, not Django's English
    technical page (the reason is for the logs, not the visitor)."""
    return error_response(request, 403, CSRF_FAILED)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: never the exception's own text (it may name a model or a path)."""
    return error_response(request, 404)


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler429: allauth's rate limits (log-in, sign-up, e-mails) answer with it."""
    return error_response(request, 429)


class BarePage(TypedDict, total=False):
    """What templates/error.html shows (`status` is added by `bare_page`)."""

    title: str | Promise
    heading: str | Promise
    message: str | Promise
    offline: bool


def bare_page(status: int, context: BarePage) -> str:
    """templates/error.html: the site's look without the request's context
    (which would need the database for the session)."""
    page = {"status": status, **context}
    try:
        return render_to_string("error.html", page)
    except Exception:  # the last page standing must not fail
        logger.exception("error.html could not be rendered")
        return format_html(
            '<!doctype html><meta charset="utf-8"><title>{0}</title><h1>{0}</h1><p>{1}</p>'
            '<p><a href="/">{2}</a></p>',
            page["heading"],
            page["message"],
            _("Back to the front page"),
        )


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a clear message, and 503 when the database is away (the
    transaction was rolled back: nothing half-written). Rendered without the
    request's context, which would need the database for the session; in the
    language the middleware chose, else the one the browser's cookie or
    Accept-Language asks for (no database needed for either)."""
    exc = sys.exc_info()[1]
    down = isinstance(exc, (OperationalError, InterfaceError))
    status = 503 if down else 500
    title, heading, message = ERRORS[status]
    with translation.override(_language(request)):
        if request.headers.get("HX-Request"):  # site.js shows a text/plain error body
            response = HttpResponse(
                str(message), status=status, content_type="text/plain; charset=utf-8"
            )
        else:
            context: BarePage = {"title": title, "heading": heading, "message": message}
            response = HttpResponse(bare_page(status, context), status=status)
        response["Content-Language"] = translation.get_language()
    if down:
        response["Retry-After"] = "5"
    return response
