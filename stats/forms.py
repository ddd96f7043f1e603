"""The query-string forms of the stats pages: what a filter may hold, and the
sentence a player reads when it holds something else."""

from __future__ import annotations

from django import forms
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy

MAX_ID = 2**63 - 1  # a database id (a signed 64-bit integer)


class HistoryFilterForm(forms.Form):
    """The hand history's filters (?maker=1&euchred=1&alone=1&game=12)."""

    maker = forms.BooleanField(required=False)
    euchred = forms.BooleanField(required=False)
    alone = forms.BooleanField(required=False)
    game = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        error_messages={
            # Translators: the hand history's filter by game was given something other than a game's number.
            "invalid": gettext_lazy("The game filter takes a game number, such as 12."),
            # Translators: the hand history's filter by game was given a number no game can have.
            "min_value": gettext_lazy("There is no game with that number."),
            "max_value": gettext_lazy("There is no game with that number."),
        },
    )

    def message(self) -> str:
        """The errors as one sentence for the page (call after is_valid())."""
        return " ".join(str(e) for errors in self.errors.values() for e in errors)

    def query(self) -> str:
        """The valid filters as a query string, for the paging links."""
        data: dict[str, object] = self.cleaned_data
        return urlencode(
            {k: (str(v) if k == "game" else "1") for k, v in data.items() if v not in (None, False)}
        )
