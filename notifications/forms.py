from __future__ import annotations

import zoneinfo
from functools import cache

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Preferences


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(tz, tz.replace("_", " ")) for tz in sorted(zoneinfo.available_timezones())]


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    time_zone = forms.ChoiceField(label=_("Time zone (for quiet hours)"), choices=time_zone_choices)

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
