from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, TypedDict

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import engine, words

from .models import BOT_LEVELS, DECKS, MOVE_TIMES, Table


class TableArgs(TypedDict):
    """services.table_create's arguments but the owner (`table_kwargs`)."""

    name: str
    rules: dict[str, object]
    target: int
    mode: str
    move_seconds: int | None
    visibility: str
    hints: bool
    bots: dict[int, str]


# Translators: a choice for an empty seat of a new table: a person will take it (rather than a bot).
SEAT_CHOICES = [("", gettext_lazy("Open for a player")), *BOT_LEVELS]
# A newcomer who just opens a table expects to play: a seat nobody chose for
# goes to a medium bot ("Open for a player" waits for a person).
DEFAULT_SEAT = "medium"

# Characters that turn text around or hide in it: bidi embeddings, overrides,
# isolates and marks, and zero-width characters. A table's name is shown to
# everyone in the lobby and at the table, so none of these may be in it.
HIDDEN_CHARACTERS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # LRE RLE PDF LRO RLO
    "\u2066\u2067\u2068\u2069"  # LRI RLI FSI PDI
    "\u200e\u200f\u061c"  # LRM RLM ALM
    "\u200b\u200c\u200d\u2060\ufeff"  # ZWSP ZWNJ ZWJ WJ BOM
)


def is_hidden_character(ch: str) -> bool:
    """A direction control, a zero-width character or a control character (Cc)."""
    return ch in HIDDEN_CHARACTERS or unicodedata.category(ch) == "Cc"


def without_hidden_characters(text: str) -> str:
    """`text` with every hidden character taken out (for a name made before
    they were refused, such as the old table's name when playing again)."""
    return "".join(ch for ch in text if not is_hidden_character(ch))


def validate_table_name(value: str) -> None:
    if any(is_hidden_character(ch) for ch in value):
        raise ValidationError(
            # Translators: a form error: the table name typed holds invisible characters (such as right-to-left or left-to-right marks, or zero-width spaces) that change how text around it is shown.
            gettext_lazy(
                "A table name cannot contain invisible characters (direction marks or"
                " zero-width spaces): type it again without them."
            ),
            code="hidden_characters",
        )


class TableForm(forms.Form):
    # The labels and choices are lazy: the form speaks the request's language.
    name = forms.CharField(
        max_length=60,
        # Translators: the name proposed for a new table; "cutthroat" is the usual name of three-handed Euchre, where everyone plays for themselves.
        initial=gettext_lazy("Cutthroat table"),
        # Translators: a form label: the name of a new table, shown in the lobby.
        label=pgettext_lazy("table", "Name"),
        validators=[validate_table_name],
    )
    # Translators: a form label: the deck of cards the table plays with.
    deck = forms.ChoiceField(choices=DECKS, initial="24", label=gettext_lazy("Deck"))
    target = forms.IntegerField(
        min_value=engine.TARGET_MIN,
        max_value=engine.TARGET_MAX,
        initial=engine.TARGET_DEFAULT,
        # Translators: a form label: the score that wins the game.
        label=gettext_lazy("Play to (points)"),
    )
    stick_the_dealer = forms.BooleanField(
        required=False,
        # Translators: a form label: "stick the dealer" is a Euchre rule: when all three players pass in both rounds of bidding, the dealer must choose trump.
        label=gettext_lazy("Stick the dealer (the dealer must name trump if all pass twice)"),
    )
    second_round_turned_suit = forms.BooleanField(
        required=False,
        # Translators: a form label: the turned-down suit is the suit of the up card that everyone passed on in the first round of bidding.
        label=gettext_lazy("The turned-down suit may be named in the second round"),
    )
    lone_maker_march = forms.TypedChoiceField(
        choices=[
            # Translators: a choice of points; the number is fixed, write the noun in the form it takes.
            (3, gettext_lazy("3 points")),
            # Translators: a choice of points; the number is fixed, write the noun in the form it takes.
            (4, gettext_lazy("4 points")),
        ],
        coerce=int,
        initial=3,
        # Translators: a form label: a march is taking all five tricks; a lone maker played without the dummy.
        label=gettext_lazy("A lone maker's march scores"),
    )
    mode = forms.ChoiceField(
        choices=Table.Mode.choices,
        initial=Table.Mode.LIVE,
        widget=forms.RadioSelect,
        # Translators: a form label: live (one sitting) or by turns (a time limit per move).
        label=pgettext_lazy("table", "Mode"),
    )
    move_seconds = forms.TypedChoiceField(
        choices=MOVE_TIMES,
        coerce=int,
        initial=86400,
        required=False,
        # Translators: a form label: the time limit of each move at a table played by turns.
        label=gettext_lazy("Time per move (by turns)"),
    )
    visibility = forms.ChoiceField(
        choices=Table.Visibility.choices,
        initial=Table.Visibility.PUBLIC,
        widget=forms.RadioSelect,
        # Translators: a form label: public (listed in the lobby) or private (by invitation link).
        label=pgettext_lazy("table", "Visibility"),
    )
    hints = forms.BooleanField(
        required=False,
        # Translators: a form label: a table option for learners: a "Hint" button shows what the strongest computer player would do and why; games with hints do not change anyone's rating.
        label=gettext_lazy(
            "Hints: a button shows what the hard bot would do, and why (games are not rated)"
        ),
    )
    # Translators: a form label: who sits in the second seat of a new table (a bot, or a player who joins).
    seat_2 = forms.ChoiceField(
        choices=SEAT_CHOICES, required=False, initial=DEFAULT_SEAT, label=gettext_lazy("Seat 2")
    )
    # Translators: a form label: who sits in the third seat of a new table (a bot, or a player who joins).
    seat_3 = forms.ChoiceField(
        choices=SEAT_CHOICES, required=False, initial=DEFAULT_SEAT, label=gettext_lazy("Seat 3")
    )

    @classmethod
    def with_defaults(cls, **values: str) -> TableForm:
        """The form as if posted untouched (every field at its initial value),
        but for `values`: the lobby's "Play the computer" is this form with
        its defaults, so the two cannot drift apart."""
        blank = cls()
        data: dict[str, object] = {
            name: blank.get_initial_for_field(field, name) for name, field in blank.fields.items()
        }
        data.update(values)
        # An unticked box is not posted; a lazy label's initial is text.
        return cls({k: str(v) for k, v in data.items() if v is not None and v is not False})

    def rules(self) -> dict[str, object]:
        d = self.cleaned_data
        return {
            "deck": d["deck"],
            "stick_the_dealer": d["stick_the_dealer"],
            "second_round_turned_suit": d["second_round_turned_suit"],
            "lone_maker_march": d["lone_maker_march"],
        }

    def table_kwargs(self) -> TableArgs:
        """services.table_create's arguments (but the owner), once valid."""
        d = self.cleaned_data
        return {
            "name": d["name"],
            "rules": self.rules(),
            "target": d["target"],
            "mode": d["mode"],
            "move_seconds": d["move_seconds"],
            "visibility": d["visibility"],
            "hints": d["hints"],
            "bots": {1: d["seat_2"], 2: d["seat_3"]},
        }


class PlayComputerForm(forms.Form):
    """The lobby's one click: a live table against two bots of one level,
    with the full form's defaults for everything else (TableForm.with_defaults)."""

    # Its fields are posted as "play-level": the create view tells the two forms apart by it.
    PREFIX = "play"

    level = forms.ChoiceField(
        choices=[(code, words.BOT_LEVELS[code]) for code in words.BOT_LEVEL_CODES],
        initial=DEFAULT_SEAT,
        widget=forms.RadioSelect,
        # Translators: a form label in the lobby's "Play the computer": how well the two bots (computer players) play: easy, medium, hard or expert.
        label=gettext_lazy("Level of the bots"),
    )

    # Django's Form takes its arguments as it likes (data, files, prefix, ...).
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", self.PREFIX)
        super().__init__(*args, **kwargs)

    @classmethod
    def posted(cls, data: Mapping[str, object]) -> bool:
        """Whether `data` (request.POST) comes from this form rather than the full one."""
        return f"{cls.PREFIX}-level" in data

    def target(self) -> int:
        """The score its games are played to (the full form's default)."""
        return int(TableForm.base_fields["target"].initial)

    def deck(self) -> str:
        """Its deck in words (the full form's default), "24 cards (9 to ace)"."""
        return str(dict(DECKS)[TableForm.base_fields["deck"].initial])

    def table_kwargs(self) -> TableArgs:
        """services.table_create's arguments (but the owner), once valid."""
        level = self.cleaned_data["level"]
        table = TableForm.with_defaults(seat_2=level, seat_3=level)
        if not table.is_valid():  # the full form's own defaults: cannot happen
            raise ValueError(table.errors.as_text())
        return table.table_kwargs()
