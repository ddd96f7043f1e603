"""Reports of chat messages for the site's staff: each with the conversation
around the reported message as it stood when it was reported."""

from __future__ import annotations

import datetime

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from .models import PHRASES, Message, Report, TableChat


def _said(phrase: str, text: str) -> str:
    return f"[{PHRASES[phrase]}]" if phrase in PHRASES else text


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created", "reason", "reported_sender", "reported_words", "reporter", "handled")
    list_filter = ("handled", "reason")
    search_fields = ("message__text", "message__sender__username", "reporter__username")
    list_select_related = ("message__sender", "reporter")
    readonly_fields = (
        "message",
        "reporter",
        "reason",
        "created",
        "table_link",
        "conversation",
    )
    fields = ("handled", *readonly_fields)
    date_hierarchy = "created"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("sender"))
    def reported_sender(self, report: Report) -> str:
        return report.message.sender.username

    @admin.display(description=gettext_lazy("message"))
    def reported_words(self, report: Report) -> str:
        return _said(report.message.phrase, report.message.text)[:80]

    @admin.display(description=gettext_lazy("table"))
    def table_link(self, report: Report) -> SafeString:
        table = report.message.table
        return format_html('<a href="{}">{}</a>', table.get_absolute_url(), table.name)

    @admin.display(description=gettext_lazy("conversation when reported"))
    def conversation(self, report: Report) -> SafeString:
        """The stored messages around the reported one (marked), oldest first;
        every name and text escaped."""
        rows: list[tuple[object, ...]] = []
        for m in report.context or []:
            when = datetime.datetime.fromisoformat(m["created"]).strftime("%Y-%m-%d %H:%M:%S")
            seat = "spectator" if m.get("seat") is None else f"seat {m['seat'] + 1}"
            rows.append(
                (
                    ' class="reported"' if m.get("reported") else "",
                    "▶" if m.get("reported") else "",
                    when,
                    m["sender"],
                    seat,
                    _said(m.get("phrase", ""), m.get("text", "")),
                )
            )
        if not rows:
            return format_html("<p>{}</p>", "—")
        body = format_html_join(
            "",
            '<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td dir="auto">{}</td></tr>',
            ((SafeString(r[0]), *r[1:]) for r in rows),
        )
        return format_html(
            '<table class="chat-report-context"><thead><tr><th></th><th>UTC</th>'
            "<th>sender</th><th>seat</th><th>words</th></tr></thead><tbody>{}</tbody></table>",
            body,
        )


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created", "table", "sender", "seat", "phrase", "text")
    search_fields = ("text", "sender__username", "table__name")
    list_select_related = ("table", "sender")
    raw_id_fields = ("table", "game", "sender")
    date_hierarchy = "created"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Message | None = None) -> bool:
        return False  # what was said stays as said; staff may delete a message


admin.site.register(TableChat)
