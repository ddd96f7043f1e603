"""Guests (issue 22): a visitor plays at once without an account, and a guest
can do nothing only registered players may (chat, friends, invitations, the
daily deal, ratings); signing up keeps the guest's games; unused guests go."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import guests
from chat import services as chat
from daily import services as daily
from euchre_site.refusal import Refusal
from social import services as social

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest(db: Any) -> Any:
    return guests.guest_create(language="el")


def test_a_guest_is_a_real_player_named_like_guest_4821(guest: Any) -> None:
    assert guests.is_guest(guest) and guest.is_guest and not guest.has_usable_password()
    assert guests.GUEST_NAME.fullmatch(guest.username) and guest.language == "el"
    assert guest.email == ""


def test_a_guest_may_not_befriend_invite_or_play_the_daily_deal(guest: Any, alice: Any) -> None:
    with pytest.raises(Refusal) as refused:
        social.friend_request_send(sender=guest, recipient=alice)
    assert refused.value.status == 403 and "Sign up" in refused.value.message
    with pytest.raises(Refusal):
        social.friend_request_send(sender=alice, recipient=guest)
    with pytest.raises(Refusal) as nobody:
        social.player_named(guest.username)  # guests are not found by name
    assert nobody.value.status == 404
    with pytest.raises(Refusal) as no_daily:
        daily.attempt_start(user=guest)
    assert no_daily.value.status == 403
    from daily.models import Entry

    assert not Entry.objects.exists()


def test_a_guest_may_not_write_in_a_chat(guest: Any, alice: Any, bob: Any) -> None:
    from tests.games.conftest import open_table

    table = open_table(alice)
    with pytest.raises(Refusal) as refused:
        chat.message_send(table=table, user=guest, phrase="gg")
    assert refused.value.status == 403


def test_signing_up_turns_the_guest_into_that_player(guest: Any) -> None:
    client = Client()
    client.force_login(guest)
    page = client.get(reverse("account_signup"))
    assert page.status_code == 200  # not sent away as "already signed in"
    answer = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-pass-7391",
            "password2": "a-long-pass-7391",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    User = get_user_model()
    me = User.objects.get(pk=guest.pk)  # the same row: its games stay its own
    assert me.username == "newcomer" and not me.is_guest and me.has_usable_password()
    assert User.objects.count() == 1


def test_nobody_signs_up_with_a_guests_kind_of_name(db: Any) -> None:
    answer = Client().post(
        reverse("account_signup"),
        {
            "username": "guest-1234",
            "email": "x@example.com",
            "password1": "a-long-pass-7391",
            "password2": "a-long-pass-7391",
        },
    )
    assert answer.status_code == 200 and "kept for guests" in answer.content.decode()
    assert not get_user_model().objects.exists()


def test_guests_unused_for_a_month_are_removed_with_their_tables(alice: Any) -> None:
    from games import services as games
    from games.models import Game, Table

    User = get_user_model()
    old, recent = guests.guest_create(), guests.guest_create()
    month_ago = timezone.now() - datetime.timedelta(days=31)
    User.objects.filter(pk__in=[old.pk, recent.pk]).update(date_joined=month_ago, last_login=None)
    for guest in (old, recent):
        games.table_create(
            owner=guest, name="T", rules={}, target=10, mode="live", move_seconds=None,
            visibility="private", bots={1: "easy", 2: "easy"},
        )  # fmt: skip
    Game.objects.filter(table__owner=old).update(last_move_at=month_ago)  # played long ago
    assert guests.guests_remove_unused() == 1
    assert not User.objects.filter(pk=old.pk).exists()
    assert not Table.objects.filter(owner_id=old.pk).exists()
    assert User.objects.filter(pk__in=[recent.pk, alice.pk]).count() == 2
