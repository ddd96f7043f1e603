"""The one type of a refused request: nothing changed, and the person is told
why. Every app raises `Refusal` (or says one of its codes); views,
consumers and tasks catch only this type.

- `code`: one member of `Code`, the stable name of the reason (tests, JSON
  answers and logs use it);
- `message`: what the person reads, in the request's language; when a
  raise site gives none, the code's own message (`MESSAGES`) is used;
- `status`: the 4xx that answers it, the code's own unless given;
- `rule`: the anchor of the rules page (/rules/#...) that explains it, or
  None.

tests/test_refusal.py checks that every code has a status and a message, and
that the message is translated in every language the site speaks.
"""

from __future__ import annotations

from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class Code(StrEnum):
    """Every reason the site refuses a request, one name each."""

    INVALID = "invalid"  # the request is not well formed, or not allowed as asked
    FORBIDDEN = "forbidden"  # not this person's to do
    NOT_FOUND = "not_found"  # no such thing, or not one this person may see
    CONFLICT = "conflict"  # the thing is not in the state the request expects
    STALE = "stale"  # the table moved on since the page was drawn
    MOVE_REFUSED = "move_refused"  # the rules do not allow this move now
    TOO_MANY = "too_many"  # a rate limit or a cap was reached
    GUEST = "guest"  # a guest account may not do this; sign up first


STATUS: dict[Code, int] = {
    Code.INVALID: 400,
    Code.FORBIDDEN: 403,
    Code.NOT_FOUND: 404,
    Code.CONFLICT: 409,
    Code.STALE: 409,
    Code.MOVE_REFUSED: 400,
    Code.TOO_MANY: 429,
    Code.GUEST: 403,
}

MESSAGES: dict[Code, Promise] = {
    Code.INVALID: _("That request could not be carried out as asked."),
    Code.FORBIDDEN: _("You cannot do that here."),
    Code.NOT_FOUND: _("There is nothing here, or it is not yours to see."),
    Code.CONFLICT: _("That cannot be done now."),
    Code.STALE: _("The table has moved on; here it is as it stands now."),
    Code.MOVE_REFUSED: _("The rules do not allow that move now."),
    Code.TOO_MANY: _("Too many tries; wait a little and try again."),
    Code.GUEST: _("Sign up to do this: guests cannot."),
}


class Refusal(Exception):
    """A request refused as asked: nothing changed (see the module's text)."""

    code: Code = Code.INVALID

    def __init__(
        self,
        message: str | Promise | None = None,
        status: int | None = None,
        *,
        code: Code | None = None,
        rule: str | None = None,
    ) -> None:
        if code is not None:
            self.code = code
        text = str(message if message is not None else MESSAGES[self.code])
        super().__init__(text)
        self.message = text
        self.status = status if status is not None else STATUS[self.code]
        self.rule = rule
