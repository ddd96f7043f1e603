"""The statistics' parts of other apps' pages (`{% load stats_tags %}`)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import OuterRef, Q, Subquery

from ..models import GameFact, Rating, RatingEvent
from ..services import MODEL

register = template.Library()


@register.simple_tag
def rating_changes(game: Any) -> dict[int, int]:
    """What a finished game did to each person's shown rating: {seat position:
    change}, the change in the shown units (this game's rating minus the one
    before it, or minus a new player's starting rating). Empty while the game's
    ratings are not computed yet, and for a game that is not rated (bots
    only, hints, the daily deal). `game` is a Game or its id. One query.

        {% rating_changes game as changes %}
        {% for position, change in changes.items %}...{% endfor %}
    """
    game_id = getattr(game, "pk", game)
    if not game_id:
        return {}
    before = (
        RatingEvent.objects.filter(rating=OuterRef("rating"))
        .filter(Q(at__lt=OuterRef("at")) | Q(at=OuterRef("at"), pk__lt=OuterRef("pk")))
        .order_by("-at", "-pk")
        .values("ordinal")[:1]
    )
    seat = GameFact.objects.filter(game=OuterRef("game"), user=OuterRef("rating__user")).values(
        "seat"
    )[:1]
    rows = (
        RatingEvent.objects.filter(game_id=game_id, rating__user__isnull=False)
        .annotate(before=Subquery(before), seat=Subquery(seat))
        .values_list("seat", "ordinal", "before")
    )
    start = _shown(MODEL.rating().ordinal())
    return {
        seat: _shown(ordinal) - (start if earlier is None else _shown(earlier))
        for seat, ordinal, earlier in rows
        if seat is not None
    }


def _shown(ordinal: float) -> int:
    """A rating as the site shows it (Rating.display)."""
    return Rating(ordinal=ordinal).display
