"""A notification's words, written when it is read or sent, in the reader's language.

A `Notification` stores what happened: its `kind` and `params`, the facts
the sentence is made of. The words come from here, under the language that
is active (a page: the reader's own) or, for what leaves the site (e-mail,
web push, the socket's toasts), under the recipient's language
(`accounts.languages.language_of`), never the acting player's. So a
notification stored before its reader changed language reads in the new one.

The kinds and their params (extra keys are ignored):

- "turn":         {"table": str}
- "game_started": {"table": str}
- "game_ended":   {"table": str, "winner": str}, and when a bot's own seat
                  won "winner_bot" and "winner_seat" (its name is then said in
                  the reader's language: games.words.winner_name)
- "timeout":      {"table": str, "handed_over": bool}
- "reminder":     {"table": str, "minutes": int}  (minutes left when it was sent)
- "invitation":   {"table": str, "inviter": str}
- "friend_request":  {"sender": str}
- "friend_accepted": {"friend": str}
- "chat":         {"table": str}  (new messages in a by-turns table's chat; one
                  unread at a time per table and reader)

A notification whose params are empty or lack a key shows its stored `text`
(the English words of rows from before params); with no text either, the
kind's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from django.utils import translation
from django.utils.translation import gettext, ngettext

from accounts.languages import language_of
from accounts.models import User
from games.words import winner_name  # a bot's name in the active language

# A notification's params: stored JSON whose keys depend on its kind (the list
# above); each sentence checks what it reads (`sentence` turns a fault into None).
Params = Mapping[str, object]


class Notification(Protocol):
    """What the words are made of: a notifications.models.Notification (this
    module does not import the models, which call it for their words)."""

    @property
    def kind(self) -> str: ...
    @property
    def params(self) -> Params | None: ...
    @property
    def text(self) -> str: ...
    @property
    def user(self) -> User: ...
    def get_kind_display(self) -> str: ...


def _turn(p: Params) -> str:
    # Translators: a notification (in the site, by e-mail, as a browser notification): it is the reader's move. %(table)s is the table's name as its owner typed it.
    return gettext("Your turn in %(table)s.") % {"table": _name(p["table"])}


def _game_started(p: Params) -> str:
    # Translators: a notification: a game at the reader's table began. %(table)s is the table's name.
    return gettext("%(table)s: the game has started.") % {"table": _name(p["table"])}


def _game_ended(p: Params) -> str:
    _name(p["winner"])
    # Translators: a notification: a game at the reader's table ended. %(table)s is the table's name, %(winner)s a player's user name or a bot's name ("Easy bot 1").
    return gettext("%(table)s: the game is over, %(winner)s won.") % {
        "table": _name(p["table"]),
        "winner": winner_name(dict(p)),
    }


def _timeout(p: Params) -> str:
    table = _name(p["table"])
    if p.get("handed_over"):
        # Translators: a notification: the reader did not move in time (a game played by turns over days), a bot moved for them, and since it was their third time in a row the bot keeps playing their seat until they take it back at the table.
        return gettext(
            "Your time ran out in %(table)s: the medium bot moved for you. After three "
            "time-outs in a row it now plays your seat; take it back from the table."
        ) % {"table": table}
    # Translators: a notification: the reader did not move in time (a game played by turns over days), so a bot of medium strength made that one move for them.
    return gettext("Your time ran out in %(table)s: the medium bot moved for you.") % {
        "table": table
    }


def _reminder(p: Params) -> str:
    table = _name(p["table"])
    minutes = max(1, _whole(p["minutes"]))
    if minutes <= 90:
        # Translators: a notification sent before a deadline: the reader's move at %(table)s must be made within %(minutes)d minutes (counted when it was sent).
        return ngettext(
            "Your move at %(table)s is due in %(minutes)d minute.",
            "Your move at %(table)s is due in %(minutes)d minutes.",
            minutes,
        ) % {"table": table, "minutes": minutes}
    hours = round(minutes / 60)
    # Translators: a notification sent before a deadline: the reader's move at %(table)s must be made within about %(hours)d hours (counted when it was sent).
    return ngettext(
        "Your move at %(table)s is due in about %(hours)d hour.",
        "Your move at %(table)s is due in about %(hours)d hours.",
        hours,
    ) % {"table": table, "hours": hours}


def _invitation(p: Params) -> str:
    # Translators: a notification: another player invites the reader to sit at their table. %(inviter)s is that player's user name, %(table)s the table's name.
    return gettext("%(inviter)s invites you to a seat at %(table)s.") % {
        "inviter": _name(p["inviter"]),
        "table": _name(p["table"]),
    }


def _friend_request(p: Params) -> str:
    # Translators: a notification: another player asks the reader to be friends on the site. %(sender)s is their user name.
    return gettext("%(sender)s would like to be your friend.") % {"sender": _name(p["sender"])}


def _friend_accepted(p: Params) -> str:
    # Translators: a notification: a player accepted the reader's friend request. %(friend)s is their user name.
    return gettext("%(friend)s accepted your friend request.") % {"friend": _name(p["friend"])}


def _chat(p: Params) -> str:
    # Translators: a notification (in the site, by e-mail, as a browser notification): players wrote in the chat of a table the reader plays at by turns. %(table)s is the table's name.
    return gettext("New messages in the chat at %(table)s.") % {"table": _name(p["table"])}


SENTENCES: dict[str, Callable[[Params], str]] = {
    "turn": _turn,
    "game_started": _game_started,
    "game_ended": _game_ended,
    "timeout": _timeout,
    "reminder": _reminder,
    "invitation": _invitation,
    "friend_request": _friend_request,
    "friend_accepted": _friend_accepted,
    "chat": _chat,
}


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("a name must be a string")
    return value


def _whole(value: object) -> int:
    """`int(value)` of a stored number (or its text)."""
    if not isinstance(value, (int, float, str)):
        raise TypeError("a count must be a number")
    return int(value)


def sentence(kind: str, params: Params) -> str | None:
    """`kind` told with `params` in the active language; None if they do not make one."""
    make = SENTENCES.get(kind)
    if make is None or not params:
        return None
    try:
        return make(params)
    except (KeyError, TypeError, ValueError):
        return None


def words(note: Notification) -> str:
    """The notification's words in the active language (see the module's docstring)."""
    said = sentence(note.kind, note.params or {})
    if said is not None:
        return said
    if note.text:
        return note.text
    return str(note.get_kind_display())


def render(note: Notification, language: str | None = None) -> str:
    """The words in `language`, by default the recipient's (`language_of(note.user)`)."""
    with translation.override(language or language_of(note.user)):
        return words(note)


@contextmanager
def in_language_of(user: User) -> Iterator[str]:
    """Everything inside speaks `user`'s language (e-mail, push, socket frames)."""
    language = language_of(user)
    with translation.override(language):
        yield language
