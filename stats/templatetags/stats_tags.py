"""The statistics' parts of other apps' pages (`{% load stats_tags %}`)."""

from __future__ import annotations

from django import template
from django.db.models import OuterRef, Subquery

from games.models import Game

from ..models import GameFact, RatingEvent
from ..selectors import rating_before, rating_change

register = template.Library()


@register.simple_tag
def rating_changes(game: Game | int | None) -> dict[int, int]:
    """What a finished game did to each person's shown rating: {seat position:
    change}, the change in the shown units (this game's shown rating minus the
    one before it, or minus a new player's starting 1500: stats.models
    shown_rating). Empty while the game's ratings are not computed yet, and
    for a game that is not rated (bots only, hints, the daily deal); a person
    not rated for it (a bot played their seat) is left out. `game` is a Game
    or its id. One query.

        {% rating_changes game as changes %}
        {% for position, change in changes.items %}...{% endfor %}
    """
    game_id = game.pk if isinstance(game, Game) else game
    if not game_id:
        return {}
    seat = GameFact.objects.filter(game=OuterRef("game"), user=OuterRef("rating__user")).values(
        "seat"
    )[:1]
    rows = (
        RatingEvent.objects.filter(game_id=game_id, rating__user__isnull=False)
        .annotate(before=rating_before(), seat=Subquery(seat))
        .values_list("seat", "mu", "before")
    )
    return {seat: rating_change(mu, earlier) for seat, mu, earlier in rows if seat is not None}
