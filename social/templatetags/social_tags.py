"""Social parts of pages other apps draw: a player's friend and block
buttons on their profile, and the seats held at a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

from accounts.models import User

from .. import selectors

register = template.Library()


@register.inclusion_tag("social/_player_panel.html", takes_context=True)
def player_panel(context: dict[str, Any], person: User) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    own = isinstance(viewer, User) and viewer.pk == person.pk
    ids = selectors.friend_ids(person.pk)
    friends = list(User.objects.filter(pk__in=ids, is_active=True).order_by("username")[:50])
    rel = selectors.relation(viewer, person) if isinstance(viewer, User) and not own else None
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
def friend_names(user: User | AnonymousUser | None) -> list[str]:
    """The user's friends' names, for the invitation form's suggestions."""
    if not isinstance(user, User):
        return []
    ids = selectors.friend_ids(user.pk)
    return list(
        User.objects.filter(pk__in=ids, is_active=True)
        .order_by("username")
        .values_list("username", flat=True)
    )
