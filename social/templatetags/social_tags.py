"""Social parts of pages other apps draw: a player's friend and block
buttons on their profile, and the seats held at a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.contrib.auth import get_user_model

from .. import selectors

register = template.Library()


@register.inclusion_tag("social/_player_panel.html", takes_context=True)
def player_panel(context: dict[str, Any], person: Any) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    own = viewer is not None and viewer.is_authenticated and viewer.pk == person.pk
    ids = selectors.friend_ids(person.pk)
    friends = list(
        get_user_model().objects.filter(pk__in=ids, is_active=True).order_by("username")[:50]
    )
    rel = (
        selectors.relation(viewer, person) if viewer and viewer.is_authenticated and not own else {}
    )
    return {
        "recent": selectors.recent_games(person.pk),
        "person": person,
        "own": own,
        "rel": rel,
        "friends": friends,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def seat_holds(table_id: int) -> dict[int, Any]:
    return selectors.seat_holds(table_id)


@register.filter
def at(mapping: dict[int, Any], key: int) -> Any:
    """mapping[key], or None: `holds|at:s.position`."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def open_to_invite(seats: Sequence[Any], holds: dict[int, Any]) -> list[Any]:
    """The table's seat rows (games.presenters.SeatRow) that are empty and not
    held: where an invitation may go."""
    return [s for s in seats if s.seat.is_empty and s.position not in holds]


@register.simple_tag
def friend_names(user: Any) -> list[str]:
    """The user's friends' names, for the invitation form's suggestions."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    ids = selectors.friend_ids(user.pk)
    return list(
        get_user_model()
        .objects.filter(pk__in=ids, is_active=True)
        .order_by("username")
        .values_list("username", flat=True)
    )
