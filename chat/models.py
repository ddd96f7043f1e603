"""Table chat: messages at a table (and of its game, so a finished game's
chat stays with its replay), reports of messages for the site's staff, and
each table's one chat setting.

A message is a quick phrase (a code, said in each reader's own language) or
a short free text (shown as typed, always escaped). The rules of each change
live in chat.services; what pages need in chat.selectors.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy, pgettext_lazy

MAX_TEXT = 200

# The quick phrases: stored as their code, written in each reader's language
# when shown. Add new ones at the end; never change a code.
PHRASES: dict[str, object] = {
    # Translators: a quick phrase of the table chat, said at the end of a game.
    "gg": pgettext_lazy("chat phrase", "Good game"),
    # Translators: a quick phrase of the table chat: praise for a good play.
    "wp": pgettext_lazy("chat phrase", "Well played"),
    # Translators: a quick phrase of the table chat.
    "thanks": pgettext_lazy("chat phrase", "Thanks"),
    # Translators: a quick phrase of the table chat: an apology (for a bad play, for being slow).
    "sorry": pgettext_lazy("chat phrase", "Sorry"),
    # Translators: a quick phrase of the table chat: a polite request to the player whose turn it is to move.
    "hurry": pgettext_lazy("chat phrase", "Hurry up please"),
}


class TableChat(models.Model):
    """A table's chat setting; a table without a row has the defaults."""

    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, primary_key=True, related_name="chat"
    )
    # Spectators read the chat; they write in it only when the table's owner allows.
    spectators_may_chat = models.BooleanField(
        # Translators: a table's chat setting, switched by the table's owner.
        gettext_lazy("Spectators may write in the chat"),
        default=False,
    )

    def __str__(self) -> str:
        return f"chat of table {self.table_id}"


class Message(models.Model):
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat_messages")
    # The table's latest game when it was sent (None before the first game):
    # a game's chat, "Good game" after its end included, goes with its replay.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a spectator
    phrase = models.CharField(max_length=16, blank=True, default="")
    text = models.CharField(max_length=MAX_TEXT, blank=True, default="")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]
        indexes = [
            models.Index(fields=["table", "-created"], name="chat_table_recent"),
            models.Index(fields=["sender", "-created"], name="chat_sender_recent"),
        ]
        constraints = [
            # A phrase or a text, never both, never neither.
            models.CheckConstraint(
                condition=(Q(phrase="") & ~Q(text="")) | (~Q(phrase="") & Q(text="")),
                name="chat_phrase_or_text",
            )
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} at table {self.table_id}: {self.words()[:40]}"

    def words(self) -> str:
        """What it says, in the active language (a phrase) or as typed (a text)."""
        if self.phrase:
            return str(PHRASES.get(self.phrase, self.phrase))
        return self.text


class Report(models.Model):
    """A reader reported a message to the site's staff: kept with the
    conversation around it as it stood then (`context`), so editing or
    deleting later messages changes nothing of what staff read."""

    class Reason(models.TextChoices):
        # Translators: why a chat message is reported: insults, threats, hate.
        ABUSE = "abuse", gettext_lazy("Abusive or hateful")
        # Translators: why a chat message is reported: advertising, the same words over and over.
        SPAM = "spam", gettext_lazy("Spam")
        # Translators: why a chat message is reported: players telling each other their cards or plotting together against the third.
        CHEATING = "cheating", gettext_lazy("Cheating (telling cards, teaming up)")
        # Translators: why a chat message is reported: another reason.
        OTHER = "other", pgettext_lazy("report reason", "Other")

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.ABUSE)
    created = models.DateTimeField(default=timezone.now)
    # [{"id", "sender", "seat", "phrase", "text", "words", "created", "reported"}]:
    # the messages before and after the reported one at the time of the report.
    context = models.JSONField(default=list, blank=True)
    handled = models.BooleanField(default=False)  # staff dealt with it

    class Meta:
        ordering = ["handled", "-created"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reader")
        ]

    def __str__(self) -> str:
        return f"report {self.pk} of message {self.message_id}"
