from __future__ import annotations

from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import timezones

from .models import Preferences


def time_zone_choices() -> list[tuple[str, Any]]:
    """The profile's menu (accounts.timezones): cities by country, in the reader's language."""
    return timezones.choices(translation.get_language() or "en")


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    """The player's zone has one home, their profile (User.time_zone): this
    form shows and changes that one, and keeps Preferences.time_zone the same."""

    time_zone = forms.ChoiceField(
        label=_("Time zone (for quiet hours)"),
        choices=time_zone_choices,
        # Translators: help under the time zone of the notification settings.
        help_text=_("The same as on your profile: every time on the site is shown in it."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own = timezones.valid(getattr(self.instance.user, "time_zone", ""))
        if own:
            self.initial["time_zone"] = own
        current = str(self.initial.get("time_zone") or "")
        self.fields["time_zone"].choices = timezones.choices(  # type: ignore[attr-defined]
            translation.get_language() or "en", current
        )

    def clean_time_zone(self) -> str:
        zone = timezones.valid(self.cleaned_data.get("time_zone"))
        if zone is None:
            # Translators: an error under a time zone menu: the name sent is not one of the list's.
            raise forms.ValidationError(_("Choose a time zone from the list."), code="time_zone")
        return zone

    def save(self, commit: bool = True) -> Preferences:
        prefs: Preferences = super().save(commit=commit)
        user = prefs.user
        if commit and user.time_zone != prefs.time_zone:
            user.time_zone = prefs.time_zone
            user.save(update_fields=["time_zone"])
        return prefs

    class Meta:
        model = Preferences
        fields = [
            "email_enabled",
            "push_enabled",
            "reminder_minutes",
            "daily_digest",
            "quiet_start",
            "quiet_end",
            "time_zone",
        ]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }
        help_texts = {
            "email_enabled": _(
                "When it is your turn and you are not at the table: one message for several games."
            ),
            "push_enabled": _("Needs this browser's permission: use the button below."),
            "daily_digest": _("Each morning, the games waiting for your move."),
            "quiet_start": _(
                "No e-mail or browser notification between these times; e-mails wait until the end."
            ),
        }

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if bool(data.get("quiet_start")) != bool(data.get("quiet_end")):
            raise forms.ValidationError(
                _("Give both ends of the quiet hours, or neither."), code="quiet_hours"
            )
        return data
