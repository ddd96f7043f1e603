"""The profile's table preferences."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from .models import User


class TablePreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["four_colour_deck", "play_only_card"]
        labels = {
            # Translators: a profile option: the cards' suits in four colours (clubs green, diamonds blue) instead of two (red and black).
            "four_colour_deck": gettext_lazy("Four-colour deck"),
            # Translators: a profile option: when the player has only one card they may play (they must follow suit and hold one card of it), the site plays it for them.
            "play_only_card": gettext_lazy("Play my only legal card for me"),
        }
        help_texts = {
            # Translators: help for the profile option "Four-colour deck".
            "four_colour_deck": gettext_lazy(
                "Clubs green and diamonds blue, so no two suits share a colour."
            ),
            # Translators: help for the profile option "Play my only legal card for me".
            "play_only_card": gettext_lazy(
                "When only one of your cards may be played, it is played at once."
            ),
        }
