"""Social parts of pages other apps draw: a player's friend and block
buttons on their profile, and the seats held at a table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django import template
from django.contrib.auth.models import AnonymousUser
from django.template.context import Context

from accounts.models import User
from games.presenters import SeatRow

from .. import selectors
from ..models import Invitation

register = template.Library()


@register.inclusion_tag("social/_player_panel.html", takes_context=True)
def player_panel(context: Context, person: User) -> dict[str, object]:
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
def seat_holds(table_id: int) -> dict[int, Invitation]:
    return selectors.seat_holds(table_id)


@register.filter
def at(mapping: object, key: int) -> object:
    """mapping[key], or None: `holds|at:s.position`."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def open_to_invite(seats: Sequence[SeatRow], holds: Mapping[int, object]) -> list[SeatRow]:
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
