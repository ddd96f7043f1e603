"""The front page's "Play now" (issue 22): a visitor is at a table against two
medium bots in one click, as a guest; guests stay at their own bot tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import guests
from euchre_site.refusal import Code
from games import services
from games.models import Game, Table
from tests.games.refusals import refused_with

pytestmark = pytest.mark.django_db


def test_play_now_seats_a_visitor_as_a_guest_against_two_medium_bots(settings: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="el")
    home = client.get("/").content.decode()
    assert 'action="/play-now/"' in home
    answer = client.post(reverse("games:play_now"))
    assert answer.status_code == 302
    table = Table.objects.get()
    assert answer["Location"] == table.get_absolute_url()
    owner = table.owner
    assert guests.is_guest(owner) and owner.language == "el"
    seats = {s.position: (s.user_id, s.bot_level) for s in table.seats.all()}
    assert seats == {0: (owner.pk, ""), 1: (None, "medium"), 2: (None, "medium")}
    assert table.mode == Table.Mode.LIVE and table.visibility == Table.Visibility.PRIVATE
    assert table.target == 10 and str(table.rules["deck"]) == "24"
    assert Game.objects.filter(table=table).exists()  # the bots filled it: it started
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="table"' in page and 'href="/accounts/signup/?next=' in page  # keep your games
    # Again: the same guest, a second table.
    assert client.post(reverse("games:play_now")).status_code == 302
    assert Table.objects.filter(owner=owner).count() == 2


def test_new_guests_are_limited_per_address(settings: Any) -> None:
    settings.GUEST_RATE = "2/d"
    for _ in range(2):
        assert Client().post(reverse("games:play_now")).status_code == 302
    refused = Client().post(reverse("games:play_now"))
    assert refused.status_code == 429 and "Many guests" in refused.content.decode()
    assert Table.objects.count() == 2


def test_a_guest_plays_only_live_against_bots_at_their_own_tables(alice: Any) -> None:
    guest = guests.guest_create()
    kwargs: dict[str, Any] = dict(
        name="T", rules={}, target=10, move_seconds=None, visibility="public"
    )
    with refused_with(Code.FORBIDDEN):  # by turns
        services.table_create(
            owner=guest, **{**kwargs, "mode": "turns", "move_seconds": 86400},
            bots={1: "easy", 2: "easy"},
        )  # fmt: skip
    with refused_with(Code.FORBIDDEN):  # a seat open for a person
        services.table_create(owner=guest, mode="live", bots={1: "easy", 2: ""}, **kwargs)
    assert not Table.objects.filter(owner=guest).exists()
    theirs = services.table_create(owner=alice, mode="live", bots={1: "", 2: ""}, **kwargs)
    with refused_with(Code.FORBIDDEN):  # somebody else's table
        services.table_join(table=theirs, user=guest, position=1)
    assert not theirs.seats.filter(user=guest).exists()


def test_a_guest_sees_no_chat_and_is_not_in_the_lobby(client: Client) -> None:
    client.post(reverse("games:play_now"))
    table = Table.objects.get()
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="chat"' not in page
    lobby = Client()
    from django.contrib.auth import get_user_model

    lobby.force_login(get_user_model().objects.create_user("dora", "d@example.com", "pw-d-1234"))
    assert f"/tables/{table.pk}/" not in lobby.get(reverse("games:lobby")).content.decode()
