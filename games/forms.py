from django import forms

from games import engine

from .models import BOT_LEVELS, DECKS, MOVE_TIMES, Table

SEAT_CHOICES = [("", "Open for a player"), *BOT_LEVELS]


class TableForm(forms.Form):
    name = forms.CharField(max_length=60, initial="Cutthroat table")
    deck = forms.ChoiceField(choices=DECKS, initial="24")
    target = forms.IntegerField(
        min_value=engine.TARGET_MIN,
        max_value=engine.TARGET_MAX,
        initial=engine.TARGET_DEFAULT,
        label="Play to (points)",
    )
    stick_the_dealer = forms.BooleanField(
        required=False, label="Stick the dealer (the dealer must name trump if all pass twice)"
    )
    second_round_turned_suit = forms.BooleanField(
        required=False, label="The turned-down suit may be named in the second round"
    )
    lone_maker_march = forms.TypedChoiceField(
        choices=[(3, "3 points"), (4, "4 points")],
        coerce=int,
        initial=3,
        label="A lone maker's march scores",
    )
    mode = forms.ChoiceField(
        choices=Table.Mode.choices, initial=Table.Mode.LIVE, widget=forms.RadioSelect
    )
    move_seconds = forms.TypedChoiceField(
        choices=MOVE_TIMES,
        coerce=int,
        initial=86400,
        required=False,
        label="Time per move (by turns)",
    )
    visibility = forms.ChoiceField(
        choices=Table.Visibility.choices, initial=Table.Visibility.PUBLIC, widget=forms.RadioSelect
    )
    seat_2 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 2")
    seat_3 = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Seat 3")

    def rules(self) -> dict[str, object]:
        d = self.cleaned_data
        return {
            "deck": d["deck"],
            "stick_the_dealer": d["stick_the_dealer"],
            "second_round_turned_suit": d["second_round_turned_suit"],
            "lone_maker_march": d["lone_maker_march"],
        }
