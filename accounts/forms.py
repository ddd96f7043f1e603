"""The profile's table preferences and time zone, and the e-mail change."""

from __future__ import annotations

from allauth.account.forms import AddEmailForm
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django import forms
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext_lazy

from . import timezones
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


class TimeZoneForm(forms.ModelForm):  # type: ignore[type-arg]
    """The profile's zone menu: cities grouped by country, in the reader's
    language, each with its offset now (accounts.timezones.menu)."""

    # Translators: a profile option: the time zone every date and time of the site is shown in (and quiet hours follow).
    time_zone = forms.ChoiceField(label=gettext_lazy("Time zone"), choices=())

    class Meta:
        model = User
        fields = ["time_zone"]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        current = timezones.valid(self.instance.time_zone) or "UTC"
        self.initial["time_zone"] = current
        field = self.fields["time_zone"]
        field.choices = timezones.choices(translation.get_language() or "en", current)  # type: ignore[attr-defined]

    def clean_time_zone(self) -> str:
        zone = timezones.valid(self.cleaned_data.get("time_zone"))
        if zone is None:
            # Translators: an error under a time zone menu: the name sent is not one of the list's.
            raise forms.ValidationError(gettext_lazy("Choose a time zone from the list."))
        return zone


class ChangeEmailForm(AddEmailForm):
    """allauth's e-mail change (ACCOUNT_CHANGE_EMAIL), except that a player
    whose current address is not verified keeps it until the new one is:
    allauth's own replaces the newest unverified address, which for them is
    the current one, so the change took effect at once. The new address is
    pending (unverified, not primary) and replaces every other address only
    when its link is followed (allauth's verify_email)."""

    def save(self, request: HttpRequest) -> EmailAddress:
        assert self.user is not None
        with transaction.atomic():
            # An earlier change still pending gives way to this one.
            EmailAddress.objects.filter(
                user_id=self.user.pk, verified=False, primary=False
            ).delete()
            address = EmailAddress.objects.create(
                user=self.user, email=self.cleaned_data["email"].lower()
            )
        send_verification_email_to_address(request, address)
        return address
