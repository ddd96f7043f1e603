"""Thin views: parse, call one service, answer. htmx gets a fragment (an
error under its 4xx status, marked for static/chat/chat.js to show next to
the form); a plain form post goes back to the table, or gets a page with the
reason."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from accounts.models import User
from euchre_site.refusal import Refusal
from games import access
from games.models import Table

from . import selectors, services

REFUSED_HEADER = "X-Chat-Refused"


def _table(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table.objects.prefetch_related("seats"), pk=table_id)
    if not access.may_view(request.user, table, request.session):
        raise Http404("No such table")
    return table


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _refused(request: HttpRequest, table_id: int, message: str, status: int) -> HttpResponse:
    if _is_htmx(request):
        response = HttpResponse(
            format_html('<p class="message error" role="alert">{}</p>', message), status=status
        )
        response[REFUSED_HEADER] = "1"
        return response
    back = f"{Table(pk=table_id).get_absolute_url()}#chat"
    return render(request, "chat/refused.html", {"message": message, "back": back}, status=status)


def _done(request: HttpRequest, table_id: int, said: str = "") -> HttpResponse:
    if _is_htmx(request):
        return HttpResponse(format_html("<p>{}</p>", said) if said else "")
    if said:
        messages.success(request, said)
    return redirect(f"{Table(pk=table_id).get_absolute_url()}#chat")


def _too_many(request: HttpRequest, group: str, rate: str) -> bool:
    return is_ratelimited(request, group=group, key="user", rate=rate, increment=True)


@login_required
@require_POST
def send(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(request, table_id)
    try:
        services.message_send_limited(
            request=request,
            table=table,
            text=request.POST.get("text", ""),
            phrase=request.POST.get("phrase", ""),
        )
    except Refusal as exc:
        return _refused(request, table.pk, exc.message, exc.status)
    return _done(request, table.pk)


@login_required
@require_POST
def spectators(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(request, table_id)
    if _too_many(request, "chat-setting", settings.TABLE_POST_RATE):
        return _refused(request, table.pk, _("Too many at once: wait a while and try again."), 429)
    allow = request.POST.get("allow", "")
    if allow not in ("0", "1"):
        return _refused(request, table.pk, _("Choose whether spectators may write."), 400)
    if not isinstance(request.user, User):  # login_required: never
        raise Http404("No such table")
    try:
        services.spectators_chat_set(table=table, user=request.user, allow=allow == "1")
    except Refusal as exc:
        return _refused(request, table.pk, exc.message, exc.status)
    if allow == "1":
        # Translators: the table's owner let spectators write in the table's chat.
        said = _("Spectators may now write in this table's chat.")
    else:
        # Translators: the table's owner stopped spectators writing in the table's chat.
        said = _("Only the players write in this table's chat now.")
    return _done(request, table.pk, said)


@login_required
@require_POST
def report(request: HttpRequest, message_id: int) -> HttpResponse:
    user = request.user
    if not isinstance(user, User):  # login_required: never
        raise Http404("No such message")
    message = selectors.message_for(user, message_id, request.session)
    if message is None:
        raise Http404("No such message")
    if _too_many(request, "chat-report", settings.CHAT_REPORT_RATE):
        # Translators: the reader reported many chat messages in a short time.
        said = _("You have reported many messages: wait a while before reporting another.")
        return _refused(request, message.table_id, said, 429)
    try:
        _report, created = services.message_report(
            message=message, user=user, reason=request.POST.get("reason", "")[: services.MAX_CODE]
        )
    except Refusal as exc:
        return _refused(request, message.table_id, exc.message, exc.status)
    if created:
        # Translators: the reader reported a chat message to the site's staff.
        said = _(
            "Thank you: the site's staff will read the message and the conversation around it."
        )
    else:
        # Translators: the reader reported the same chat message again: nothing more happens.
        said = _("You have reported this message already: the site's staff will read it.")
    return _done(request, message.table_id, said)
