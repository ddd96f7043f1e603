from __future__ import annotations

from django.http import HttpRequest

from . import services


def unread_notifications(request: HttpRequest) -> dict[str, int]:
    """The nav badge's count, for signed-in users (one indexed count per page)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": services.unread_count(user)}
