"""The reader's time zone (issue 22): told by the browser on the first visit
(the tz cookie), kept in the profile, chosen again from a localized menu, and
used for every time a page, a table's socket frame or quiet hours show."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import timezones
from games import frames, groups, realtime, selectors, services
from games.models import Game
from notifications import services as notifications

pytestmark = pytest.mark.django_db

# 15:50 UTC on a Monday in January: 17:50 in Athens (EET), 22:50 in Bangkok.
DEADLINE = datetime.datetime(2030, 1, 7, 15, 50, tzinfo=datetime.UTC)


def logged_in(user: Any, **cookies: str) -> Client:
    client = Client()
    client.force_login(user)
    for name, value in cookies.items():
        client.cookies[name] = value
    return client


@pytest.fixture
def turns_game(alice: Any, bob: Any, carol: Any) -> Game:
    table = services.table_create(
        owner=alice,
        name="Friday table",
        rules={},
        target=5,
        mode="turns",
        move_seconds=86400,
        visibility="public",
    )
    services.table_join(table=table, user=bob, position=1)
    game = services.table_join(table=table, user=carol, position=2)
    assert game is not None
    Game.objects.filter(pk=game.pk).update(deadline=DEADLINE)
    game.refresh_from_db()
    return game


def deadline_line(html: str) -> str:
    found = re.search(r'<p class="deadline small">(.*?)</p>', html, re.S)
    assert found is not None, "no deadline on the table"
    return found[1]


# The first visit's zone, and forged ones


def test_the_first_visits_zone_is_kept_in_the_profile(alice: Any) -> None:
    assert alice.time_zone == ""
    page = logged_in(alice, tz="Europe/Athens").get(reverse("accounts:profile"))
    assert page.status_code == 200
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Athens"
    # The page tells its script the zone it was shown in (no second load).
    assert 'data-zone="Europe/Athens"' in page.content.decode()


def test_a_later_cookie_does_not_replace_the_profiles_zone(alice: Any) -> None:
    alice.time_zone = "Asia/Bangkok"
    alice.save()
    logged_in(alice, tz="Europe/Athens").get(reverse("accounts:profile"))
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Bangkok"


@pytest.mark.parametrize(
    "forged", ["Mars/Olympus", "../../etc/passwd", "Europe/Athens\x00", "x" * 200, "", "utc "]
)
def test_a_forged_cookie_is_ignored(alice: Any, forged: str) -> None:
    response = logged_in(alice, tz=forged).get(reverse("accounts:profile"))
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.time_zone == ""
    assert timezones.valid(forged) is None


def test_a_visitor_without_an_account_reads_the_cookies_zone(client: Client) -> None:
    client.cookies["tz"] = "Asia/Bangkok"
    page = client.get("/")
    assert page.status_code == 200
    assert 'data-zone="Asia/Bangkok"' in page.content.decode()
    client.cookies["tz"] = "Nowhere/Atlantis"
    assert 'data-zone=""' in client.get("/").content.decode()


# A deadline in the reader's zone: the page and the seat's socket frame


def test_a_deadline_reads_in_the_readers_zone_on_the_page(turns_game: Game, alice: Any) -> None:
    alice.time_zone = "Europe/Athens"
    alice.save()
    page = logged_in(alice).get(turns_game.table.get_absolute_url()).content.decode()
    line = deadline_line(page)
    assert "17:50 EET" in line and "15:50" not in line and "UTC" not in line
    assert 'datetime="2030-01-07T17:50:00+02:00"' in line


def test_a_deadline_reads_in_each_seats_zone_in_its_socket_frame(
    turns_game: Game, alice: Any, bob: Any, carol: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice.time_zone = "Europe/Athens"
    alice.save()
    bob.time_zone = "Asia/Bangkok"
    bob.save()
    everyone = {alice.pk, bob.pk, carol.pk}
    monkeypatch.setattr(realtime.presence, "watching", lambda table_id, ids: (everyone, False))
    sent: list[list[tuple[str, dict[str, Any]]]] = []
    monkeypatch.setattr(realtime, "_send", sent.append)
    realtime.broadcast_game(turns_game.pk)
    frames = {group: frame["html"] for group, frame in sent[0]}
    by_seat = {seat: frames[groups.game_group(turns_game.pk, seat)] for seat in (0, 1, 2)}
    assert "17:50 EET" in deadline_line(by_seat[0])
    assert "22:50 +07" in deadline_line(by_seat[1])
    assert "15:50 UTC" in deadline_line(by_seat[2])  # carol's zone is not known yet
    # Rendering for a seat changes nothing for the next one (the zone was only overridden).
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_sockets_first_frame_is_in_its_players_zone(turns_game: Game, alice: Any) -> None:
    alice.time_zone = "Europe/Athens"
    alice.save()
    table = selectors.with_seats(type(turns_game.table).objects.filter(pk=turns_game.table_id))[0]
    html = frames.render_table(table, turns_game, 0, oob=True, user=alice)
    assert "17:50 EET" in deadline_line(html)


# The profile's menu


def test_the_profiles_menu_lists_zones_in_the_readers_language(alice: Any) -> None:
    alice.language = "el"
    alice.time_zone = "Europe/Athens"
    alice.save()
    page = logged_in(alice).get(reverse("accounts:profile")).content.decode()
    menu = re.search(r'<select name="time_zone"[^>]*>(.*?)</select>', page, re.S)
    assert menu is not None
    options = re.findall(r'<option value="([^"]+)"', menu[1])
    assert len(options) > 300 and "UTC" in options and "America/Port-au-Prince" in options
    assert len(options) == len(set(options))
    assert '<optgroup label="Ελλάδα">' in menu[1]  # Greece, in Greek
    assert re.search(r'<option value="Europe/Athens" selected>Αθήνα \(UTC\+0[23]:00\)', menu[1])
    assert 'data-zone-filter="id_time_zone"' in page


def test_the_menu_names_cities_in_each_language() -> None:
    for language, athens in {
        "en": "Athens",
        "ru": "Афины",
        "ar": "أثينا",
        "th": "เอเธนส์",
        "ht": "Athènes",
    }.items():
        labels = dict(zone for _, zones in timezones.menu(language) for zone in zones)
        assert labels["Europe/Athens"].startswith(f"{athens} (UTC+0")


def test_the_profile_saves_a_zone_and_refuses_a_forged_one(alice: Any) -> None:
    client = logged_in(alice)
    url = reverse("accounts:time_zone")
    response = client.post(url, {"time_zone": "America/Port-au-Prince"})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile")
    alice.refresh_from_db()
    assert alice.time_zone == "America/Port-au-Prince"
    for forged in ["Mars/Olympus", "", "Europe/Athens; rm -rf"]:
        assert client.post(url, {"time_zone": forged}).status_code == 400
    alice.refresh_from_db()
    assert alice.time_zone == "America/Port-au-Prince"
    assert Client().post(url, {"time_zone": "UTC"}).status_code == 302  # to the log-in page


# Quiet hours


def test_quiet_hours_use_the_profiles_zone(alice: Any) -> None:
    prefs = notifications.preferences_for(alice)
    prefs.quiet_start, prefs.quiet_end = datetime.time(22, 0), datetime.time(7, 0)
    prefs.time_zone = "UTC"
    prefs.save()
    alice.time_zone = "Asia/Bangkok"
    alice.save()
    prefs = notifications.preferences_for(alice)
    late_in_bangkok = datetime.datetime(2030, 1, 7, 16, 0, tzinfo=datetime.UTC)  # 23:00 there
    morning_in_bangkok = datetime.datetime(2030, 1, 7, 2, 0, tzinfo=datetime.UTC)  # 09:00 there
    assert notifications.in_quiet_hours(prefs, late_in_bangkok)
    assert not notifications.in_quiet_hours(prefs, morning_in_bangkok)
    assert notifications.quiet_hours_end(prefs, late_in_bangkok) == datetime.datetime(
        2030, 1, 8, 0, 0, tzinfo=datetime.UTC
    )


def test_the_notification_settings_change_the_profiles_zone(alice: Any) -> None:
    client = logged_in(alice)
    response = client.post(
        reverse("notifications:preferences"),
        {"reminder_minutes": "120", "time_zone": "Europe/Athens"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Athens"
    page = client.get(reverse("notifications:preferences")).content.decode()
    assert re.search(r'<option value="Europe/Athens" selected>', page)
