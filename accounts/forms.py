"""The profile's table preferences."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from .models import User


class TablePreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["four_colour_deck"]
        labels = {
            # Translators: a profile option: the cards' suits in four colours (clubs green, diamonds blue) instead of two (red and black).
            "four_colour_deck": gettext_lazy("Four-colour deck"),
        }
        help_texts = {
            # Translators: help for the profile option "Four-colour deck".
            "four_colour_deck": gettext_lazy(
                "Clubs green and diamonds blue, so no two suits share a colour."
            ),
        }
