"""Guests: a visitor plays at once, without an account ("Play now").

A guest is a real `User` (`is_guest`), named "Guest-4821", with no e-mail
and no password, logged in on the browser's session. A guest plays live
against bots, reads the rules and takes hints; `is_guest(user)` is the one
check the other apps ask before anything a guest may not do (chat, friends,
invitations, tables by turns or with strangers, the daily deal, ratings).
Signing up turns the guest into a registered player keeping their games
(accounts.adapter: the sign-up fills in the guest's own row). Guests unused
for GUEST_UNUSED_DAYS are removed with their tables (`guests_remove_unused`,
a beat task).
"""

from __future__ import annotations

import datetime
import re
import secrets
from typing import TYPE_CHECKING, TypeGuard

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

    from .models import User

GUEST_UNUSED_DAYS = 30
GUEST_NAME = re.compile(r"guest-\d+", re.IGNORECASE)


def is_guest(user: AbstractBaseUser | AnonymousUser | None) -> TypeGuard[User]:
    """Whether `user` is a guest (anonymous visitors are not: they are nobody)."""
    return bool(getattr(user, "is_authenticated", False) and getattr(user, "is_guest", False))


def refusal() -> str:
    """What a guest reads when they try what only registered players may do."""
    # Translators: a guest (a visitor playing without an account) tried to chat, befriend, invite, play by turns, play the daily deal or sit with other people.
    return _("Guests play live against bots. Sign up (it is free) to do this, and keep your games.")


def guest_create(*, language: str = "") -> User:
    """A new guest, named "Guest-<4 to 6 digits>" (a free name, tried a few times)."""
    User = get_user_model()
    for digits in (4, 4, 5, 5, 6, 6, 6):
        name = f"Guest-{secrets.randbelow(9 * 10 ** (digits - 1)) + 10 ** (digits - 1)}"
        try:
            with transaction.atomic():
                user = User(username=name, is_guest=True, language=language)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue
    raise RuntimeError("no free guest name")


def guests_remove_unused(*, now: datetime.datetime | None = None) -> int:
    """Delete the guests who have not played for GUEST_UNUSED_DAYS (made
    before then, and no game of theirs moved since), with their tables,
    games and figures (the rows cascade). Returns how many went."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=GUEST_UNUSED_DAYS)
    active = Q(seats__table__games__last_move_at__gte=cutoff) | Q(last_login__gte=cutoff)
    stale = get_user_model().objects.filter(is_guest=True, date_joined__lt=cutoff).exclude(active)
    ids = list(stale.values_list("pk", flat=True)[:10_000])
    get_user_model().objects.filter(pk__in=ids).delete()
    return len(ids)
