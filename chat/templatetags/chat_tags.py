"""The chat's parts of other apps' pages: the table page's chat panel and a
finished game's chat under its replay (`{% load chat_tags %}`)."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template import Context
from django.template.loader import render_to_string

from accounts.models import User
from games import access
from games.models import Game, Table

from .. import render, selectors

register = template.Library()


def compose_for(
    table: Table,
    user: User | AnonymousUser,
    *,
    request: HttpRequest | None = None,
    oob: bool = False,
) -> str:
    seated = access.seat_of(table, user) is not None
    allowed = selectors.spectators_may_chat(table.pk)
    return render.compose_html(
        table_id=table.pk,
        may_write=seated or allowed,
        seated=seated,
        is_owner=table.owner_id == user.pk,
        spectators_may_chat=allowed,
        request=request,
        oob=oob,
    )


@register.simple_tag(takes_context=True)
def chat_panel(context: Context, table: Table) -> str:
    """The table page's chat, or nothing at a table without one (a daily deal's)."""
    if not selectors.has_chat(table):
        return ""
    request = context["request"]
    user = request.user
    return render_to_string(
        "chat/_panel.html",
        {
            "log_html": render.log_html(
                selectors.recent(table.pk, user.pk), user.pk, request=request
            ),
            "compose_html": compose_for(table, user, request=request),
        },
        request=request,
    )


@register.inclusion_tag("chat/_game_chat.html", takes_context=True)
def game_chat(context: Context, game: object) -> dict[str, str]:
    """A finished game's chat, for the game's players only (nothing for anyone else)."""
    request = context["request"]
    # An imported game's replay names its game in words: it has no chat.
    found = selectors.of_game(game, request.user) if isinstance(game, Game) else None
    if found is None:
        return {"log_html": ""}
    return {
        "log_html": render.log_html(
            found, request.user.pk, request=request, actions=False, replay=True
        )
    }
