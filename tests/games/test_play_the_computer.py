"""Issue 22, "play the computer in one click": the lobby's first form opens a
live table against two bots of one level with the full form's defaults
(through the one service that opens tables); the full form waits behind
"More options" with a medium bot in each empty seat by default; and the
owner of a table that waits for players fills its open seats with bots at
once (only the owner; anything else changes nothing)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from games import engine
from games.forms import PlayComputerForm, TableForm
from games.models import Game, Seat, Table

from .conftest import open_table
from .test_views import HTMX, logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _caps(settings: Any) -> None:
    settings.MAX_EXPERT_TABLES = 2


def bots(table: Table) -> list[str]:
    return [s.bot_level for s in Seat.objects.filter(table=table).order_by("position")][1:]


def play(user: Any, level: str, **headers: Any) -> Any:
    return logged_in(user).post(reverse("games:create"), {"play-level": level}, headers=headers)


# --------------------------------------------------------------------- the lobby


def test_the_lobby_offers_the_computer_first_and_the_full_form_behind_more_options(
    alice: Any,
) -> None:
    html = logged_in(alice).get(reverse("games:lobby")).content.decode()
    play_at = html.index('id="play-computer"')
    more = html.index("<summary>More options</summary>")
    assert play_at < html.index('name="play-level"') < more < html.index('id="new-table"')
    assert html.index('name="seat_2"') < html.index('id="open-tables"')
    assert not re.search(r'<details class="more-options"[^>]* open', html)  # closed at first
    levels = re.findall(r'<input type="radio" name="play-level" value="(\w+)"[^>]*>', html)
    assert levels == ["easy", "medium", "hard", "expert"]
    checked = re.findall(r'name="play-level" value="(\w+)"[^>]* checked', html)
    assert checked == ["medium"]
    for label in ("Easy", "Medium", "Hard", "Expert"):  # the site's names of the levels
        assert f"<span>{label}</span>" in html
    assert "<legend>Level of the bots</legend>" in html
    assert "A live game against two bots: 24 cards (9 to ace), to 10 points." in html
    assert re.search(r"<button type=\"submit\">Play</button>", html)


def test_an_empty_seat_of_the_full_form_is_a_medium_bot_unless_left_open(alice: Any) -> None:
    form = TableForm()
    assert [form.fields[s].initial for s in ("seat_2", "seat_3")] == ["medium", "medium"]
    html = logged_in(alice).get(reverse("games:lobby")).content.decode()
    for seat in ("seat_2", "seat_3"):
        select = re.search(rf'<select name="{seat}".*?</select>', html, re.S)
        assert select is not None
        assert '<option value="">Open for a player</option>' in select.group(0)
        assert '<option value="medium" selected>Medium bot</option>' in select.group(0)


def test_the_full_forms_defaults_are_one_valid_post() -> None:
    form = TableForm.with_defaults()
    assert form.is_valid(), form.errors
    kwargs = form.table_kwargs()
    assert kwargs["bots"] == {1: "medium", 2: "medium"}
    assert kwargs["rules"] == engine.Rules().to_dict()
    assert (kwargs["target"], kwargs["mode"], kwargs["visibility"], kwargs["hints"]) == (
        engine.TARGET_DEFAULT,
        "live",
        "public",
        False,
    )


# --------------------------------------------------------------------- play the computer


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_one_click_opens_a_live_table_against_two_bots_of_the_level(alice: Any, level: str) -> None:
    response = play(alice, level)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert (table.owner, table.status, table.mode) == (alice, Table.Status.PLAYING, "live")
    assert bots(table) == [level, level]
    assert Seat.objects.get(table=table, position=0).user == alice
    assert table.rules == engine.Rules().to_dict() and table.rules["deck"] == "24"
    assert (table.target, table.move_seconds, table.hints) == (10, None, False)
    # The same table the full form opens when posted untouched, but for the bots.
    full = TableForm.with_defaults(seat_2=level, seat_3=level)
    assert full.is_valid()
    d = full.table_kwargs()
    assert (table.name, table.visibility) == (d["name"], d["visibility"])
    assert table.games.get().status == Game.Status.PLAYING
    page = logged_in(alice).get(response["Location"]).content.decode()
    assert 'data-version="' in page and f"{level.capitalize()} bot 2" in page


def test_the_play_form_speaks_the_table_defaults() -> None:
    form = PlayComputerForm()
    assert (form.target(), form.deck()) == (10, "24 cards (9 to ace)")
    assert PlayComputerForm.posted({"play-level": "easy"})
    assert not PlayComputerForm.posted({"name": "x", "seat_2": "easy"})


def test_an_unknown_level_is_refused_on_the_lobby_and_opens_nothing(alice: Any) -> None:
    response = play(alice, "grandmaster")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Select a valid choice" in html and 'id="play-computer"' in html
    assert not Table.objects.exists()


def test_the_expert_cap_is_refused_on_the_lobby_and_opens_nothing(alice: Any) -> None:
    assert settings.MAX_EXPERT_TABLES == 2
    assert play(alice, "expert").status_code == 302
    assert play(alice, "expert").status_code == 302
    tables, seats = Table.objects.count(), Seat.objects.count()
    response = play(alice, "expert")
    assert response.status_code == 409
    html = response.content.decode()
    alert = re.search(r'<div class="message error" role="alert">(.*?)</div>', html, re.S)
    assert alert is not None and "2 tables with expert bots at a time" in alert.group(1)
    assert html.index('id="play-computer"') < alert.start() < html.index('class="more-options"')
    # What she chose stays chosen; the full form is as it was, closed.
    assert re.search(r'name="play-level" value="expert"[^>]* checked', html)
    assert not re.search(r'<details class="more-options"[^>]* open', html)
    assert (Table.objects.count(), Seat.objects.count()) == (tables, seats)
    # Another level is welcome.
    assert play(alice, "hard").status_code == 302


def test_the_full_forms_refusal_opens_more_options(alice: Any) -> None:
    response = logged_in(alice).post(reverse("games:create"), {"name": "", "deck": "24"})
    assert response.status_code == 400
    assert re.search(r'<details class="more-options"[^>]* open', response.content.decode())
    assert not Table.objects.exists()


def test_play_needs_a_signed_in_post(alice: Any, client: Any) -> None:
    response = client.post(reverse("games:create"), {"play-level": "easy"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert logged_in(alice).get(reverse("games:create")).status_code == 405
    assert not Table.objects.exists()


def test_the_lobby_in_arabic_names_every_control(alice: Any) -> None:
    alice.language = "ar"
    alice.save(update_fields=["language"])
    html = logged_in(alice).get(reverse("games:lobby")).content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    for radio in re.findall(r'<input type="radio" name="play-level"[^>]*id="([^"]+)"', html):
        assert f'<label class="level-choice" for="{radio}">' in html


# --------------------------------------------------------------------- fill with bots


def fill(user: Any, table: Table, level: str = "medium", **headers: Any) -> Any:
    return logged_in(user).post(
        reverse("games:fill", args=[table.pk]), {"level": level}, headers=headers
    )


def test_the_owner_of_a_waiting_table_is_offered_to_fill_it(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    html = logged_in(alice).get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form[^>]*class="fill-bots".*?</form>', html, re.S)
    assert form is not None
    assert f'action="{reverse("games:fill", args=[table.pk])}"' in form.group(0)
    assert '<label class="visually-hidden" for="fill-level">' in form.group(0)
    assert '<option value="medium" selected>Medium bot</option>' in form.group(0)
    assert ">Fill the empty seats with bots</button>" in form.group(0)
    # Not to anyone else.
    assert "fill-bots" not in logged_in(bob).get(table.get_absolute_url()).content.decode()


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_filling_seats_bots_in_every_open_seat_and_starts_the_game(alice: Any, level: str) -> None:
    table = open_table(alice)
    response = fill(alice, table, level)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert bots(table) == [level, level]
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert table.games.count() == 1


def test_filling_leaves_a_taken_seat_and_answers_htmx_with_the_table(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    logged_in(bob).post(reverse("games:join", args=[table.pk]), {"position": "1"})
    response = fill(alice, table, "easy", **HTMX)
    assert response.status_code == 200 and 'id="table"' in response.content.decode()
    seats = {s.position: (s.user, s.bot_level) for s in Seat.objects.filter(table=table)}
    assert seats == {0: (alice, ""), 1: (bob, ""), 2: (None, "easy")}
    assert table.games.count() == 1


def test_a_seat_held_for_an_invitee_stays_held(alice: Any, bob: Any) -> None:
    from social import services as social

    table = open_table(alice)
    social.invitation_send(table=table, inviter=alice, name="bob", position=1)
    assert fill(alice, table).status_code == 302
    assert bots(table) == ["", "medium"]
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    # The button is gone: no seat is open; a forged request changes nothing.
    html = logged_in(alice).get(table.get_absolute_url()).content.decode()
    assert "fill-bots" not in html
    response = fill(alice, table)
    assert response.status_code == 409 and "No seat is open for a bot." in response.content.decode()
    assert bots(table) == ["", "medium"]


def test_only_the_owner_may_fill(alice: Any, bob: Any, carol: Any) -> None:
    table = open_table(alice)
    logged_in(bob).post(reverse("games:join", args=[table.pk]), {"position": "1"})
    response = fill(bob, table)  # seated, but not the owner
    assert response.status_code == 403
    assert "Only the table&#x27;s creator can seat bots." in response.content.decode()
    private = open_table(alice, name="Private", visibility="private")
    assert fill(carol, private).status_code == 404  # cannot even see it
    assert bots(table) == ["", ""] and bots(private) == ["", ""]
    assert not Game.objects.exists()


def test_forged_fills_change_nothing(alice: Any, client: Any) -> None:
    table = open_table(alice)
    assert fill(alice, table, "").status_code == 400
    assert fill(alice, table, "grandmaster").status_code == 400
    assert client.post(reverse("games:fill", args=[table.pk]), {"level": "easy"}).status_code == 302
    assert logged_in(alice).get(reverse("games:fill", args=[table.pk])).status_code == 405
    assert bots(table) == ["", ""]
    started = open_table(alice, name="Started", bots={1: "easy", 2: "easy"})
    assert fill(alice, started, "hard").status_code == 409
    assert bots(started) == ["easy", "easy"]


def test_the_expert_cap_refuses_a_fill_whole(alice: Any) -> None:
    open_table(alice, name="one", bots={1: "expert"})
    open_table(alice, name="two", bots={1: "expert"})
    table = open_table(alice, name="three")
    response = fill(alice, table, "expert")
    assert response.status_code == 409
    assert "2 tables with expert bots at a time" in response.content.decode()
    assert bots(table) == ["", ""]
    assert fill(alice, table, "hard").status_code == 302
    assert bots(table) == ["hard", "hard"]
