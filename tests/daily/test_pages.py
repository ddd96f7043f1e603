"""The daily deal's pages and who may see what: another player's table never,
the day's totals once one's own attempt is over (or the day is); bad input is
a 4xx that changes nothing. What opens only when the day ends: test_fairness."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from chat.models import Message
from daily import services
from daily.models import DailyDeal, Entry
from games.models import Game, Table

from .conftest import client_for, day_url, drive, start

pytestmark = pytest.mark.django_db


def test_today_page_offers_the_deal_and_play_opens_the_players_own_table(alice: Any) -> None:
    client = client_for(alice)
    page = client.get(reverse("daily:today"))
    assert page.status_code == 200 and "Play today's deal" in page.content.decode()
    assert DailyDeal.objects.filter(date=services.today()).exists()
    table = start(client)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "Daily deal of" in html and "Hand 1 of 5" in html
    assert "Let a bot play for me" not in html and "Stop the daily deal here" in html
    # Asking again resumes the same table.
    assert start(client).pk == table.pk
    assert "Back to your table" in client.get(reverse("daily:today")).content.decode()
    # Not in the lobby.
    assert table.name not in client.get(reverse("games:lobby")).content.decode()


def test_nobody_else_sees_a_daily_table_not_even_with_its_invitation_link(
    alice: Any, bob: Any
) -> None:
    table = start(client_for(alice))
    bob_client = client_for(bob)
    assert bob_client.get(table.get_absolute_url()).status_code == 404
    bob_client.get(table.invite_url())
    assert bob_client.get(table.get_absolute_url()).status_code == 404


def test_a_daily_table_has_no_chat(alice: Any) -> None:
    """One player against two bots: no chat panel, and a forged message is refused."""
    client = client_for(alice)
    table = start(client)
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'id="chat"' not in html and "Table chat" not in html
    for fields in ({"phrase": "gg"}, {"text": "hello"}):
        response = client.post(reverse("chat:send", args=[table.pk]), fields)
        assert response.status_code == 403
        assert "There is no chat at a daily deal&#x27;s table." in response.content.decode()
    assert not Message.objects.filter(table=table).exists()


def test_the_comparison_opens_after_ones_own_attempt_and_a_second_attempt_is_refused(
    alice: Any,
) -> None:
    client = client_for(alice)
    table = start(client)
    today = services.today()
    assert client.get(day_url(today)).status_code == 403
    drive(table.games.get(), alice, hands=1)
    response = client.post(reverse("daily:stop"))
    assert response.status_code == 302 and response["Location"] == day_url(today)
    services.entry_update(entry_id=Entry.objects.get().pk)
    page = client.get(day_url(today)).content.decode()
    assert "Hand by hand" in page and "The day's leaderboard" in page
    assert "The day's seed" not in page  # only once the day is over
    game = Game.objects.get()
    before = (Entry.objects.count(), Table.objects.count(), game.version)
    again = client.post(reverse("daily:play"))
    assert again.status_code == 409
    assert "You have played today&#x27;s daily deal already" in again.content.decode()
    assert client.post(reverse("daily:stop")).status_code == 409
    game.refresh_from_db()
    assert (Entry.objects.count(), Table.objects.count(), game.version) == before
    # Neither a rematch nor a bot for the player at the daily table.
    assert client.post(reverse("games:rematch", args=[table.pk])).status_code == 409
    assert client.post(
        reverse("games:autopilot", args=[table.pk]), {"level": "hard"}
    ).status_code in (403, 409)


@pytest.mark.parametrize(
    "day",
    ["2026-13-45", "2026-02-30", "२०२६-१२-०१", "20261201", "9999-12-31", "0001-01-01", "x" * 5000],
)
def test_forged_days_are_404(alice: Any, day: str) -> None:
    assert client_for(alice).get(f"/daily/{day}/").status_code == 404


def test_wrong_methods_and_anonymous_visitors_change_nothing(alice: Any) -> None:
    client = client_for(alice)
    assert client.get(reverse("daily:play")).status_code == 405
    assert client.get(reverse("daily:stop")).status_code == 405
    assert client.post(reverse("daily:today")).status_code == 405
    anonymous = Client()
    assert anonymous.post(reverse("daily:play")).status_code == 302  # to the log-in page
    assert anonymous.get(reverse("daily:today")).status_code == 302
    assert not Entry.objects.exists() and not Table.objects.exists()


def test_the_daily_link_is_in_the_navigation(alice: Any) -> None:
    html = client_for(alice).get(reverse("home")).content.decode()
    assert f'href="{reverse("daily:today")}"' in html


def test_the_comparison_counts_a_finished_attempt_the_worker_has_not_counted_yet(
    alice: Any,
) -> None:
    client = client_for(alice)
    game = drive(start(client).games.get(), alice)
    assert Entry.objects.get().status == Entry.Status.PLAYING  # no worker in this test
    page = client.get(day_url(services.today()))
    assert page.status_code == 200
    entry = Entry.objects.get()
    assert entry.status == Entry.Status.FINISHED and entry.total == game.scores[0]
    assert f"You scored {entry.total} point" in page.content.decode()
    assert entry.place == 1


@pytest.mark.django_db(transaction=True)  # the socket's consumer runs in another thread
def test_the_table_socket_refuses_everyone_but_the_player(alice: Any, bob: Any) -> None:
    from asgiref.sync import async_to_sync

    from tests.games.wsclient import acommunicator

    table = start(client_for(alice))

    async def run() -> None:
        ws = await acommunicator(f"/ws/tables/{table.pk}/", bob)
        assert not (await ws.connect())[0]
        ws = await acommunicator(f"/ws/tables/{table.pk}/", alice)
        assert (await ws.connect())[0]
        assert "Hand 1 of 5" in await ws.receive_from(timeout=5)
        await ws.disconnect()

    async_to_sync(run)()
