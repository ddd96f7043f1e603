"""The daily deal is a fair contest (issue 21): nobody sees a card of today's
deals that they did not see in their own play before the day ends at 00:00
UTC, whoever has played it, and the leaderboard ranks only established
accounts (others show, unranked; staff can hide an entry)."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from daily import services
from daily.models import DailyDeal, Entry
from games.models import Hand, Table

from .conftest import client_for, day_url, drive, established, start, verified

pytestmark = pytest.mark.django_db


def sealed_urls(hand: Hand) -> list[str]:
    return [
        reverse("stats:replay", args=[hand.pk]),
        reverse("stats:hand_record", args=[hand.pk]),
        reverse("stats:review", args=[hand.pk]),
        reverse("games:record", args=[hand.game_id]),
    ]


def end_the_day() -> None:
    """Today's deal becomes yesterday's (its rows move back a day): the day is over."""
    day = services.today()
    yesterday = day - datetime.timedelta(days=1)
    DailyDeal.objects.filter(date=day).update(date=yesterday)
    Table.objects.filter(daily_date=day).update(daily_date=yesterday)


def test_nothing_of_todays_deal_opens_to_anyone_before_the_day_ends(
    alice: Any, bob: Any, carol: Any
) -> None:
    """A throwaway's stopped attempt opens nothing; even one's own finished
    hands keep their replay and record until 00:00 UTC."""
    alice_client, bob_client, carol_client = map(client_for, (alice, bob, carol))
    alice_table = start(alice_client)
    drive(alice_table.games.get(), alice, hands=2)
    assert alice_client.post(reverse("daily:stop")).status_code == 302
    start(bob_client)  # the throwaway starts and stops at once: an attempt
    assert bob_client.post(reverse("daily:stop")).status_code == 302
    assert bob_client.post(reverse("daily:play")).status_code == 409  # played
    for entry in Entry.objects.all():
        services.entry_update(entry_id=entry.pk)
    hands = list(Hand.objects.filter(game__table=alice_table, result__complete=True))
    assert len(hands) == 2
    for hand in hands:
        for url in sealed_urls(hand):
            for client in (alice_client, bob_client, carol_client):
                assert client.get(url).status_code == 404, url
        assert bob_client.post(reverse("stats:review", args=[hand.pk])).status_code == 404
    # The day's page: totals and places, but no hand's best or average, no replay links.
    for client in (alice_client, bob_client):
        page = client.get(day_url(services.today()))
        html = page.content.decode()
        assert page.status_code == 200
        assert not any(f'href="{url}"' in html for h in hands for url in sealed_urls(h))
        assert "Average" not in html
        assert "open when the day ends at 00:00 UTC" in html
        assert "alice" in html  # the leaderboard shows the totals
    # Alice's own history says when her replays open, and links none.
    from stats import services as stats

    for hand in hands:
        stats.after_hand(hand_id=hand.pk)
    history = alice_client.get(reverse("stats:history")).content.decode()
    assert "Replay at 00:00 UTC" in history
    assert not any(f'href="{url}"' in history for h in hands for url in sealed_urls(h))

    end_the_day()
    for hand in hands:
        for client in (alice_client, bob_client, carol_client):
            assert client.get(reverse("stats:replay", args=[hand.pk])).status_code == 200
            assert client.get(reverse("stats:hand_record", args=[hand.pk])).status_code == 200
    page = bob_client.get(day_url(services.today() - datetime.timedelta(days=1)))
    html = page.content.decode()
    assert "Average" in html and reverse("stats:replay", args=[hands[0].pk]) in html


def cards_in(html: str) -> set[str]:
    return set(re.findall(r'data-card="(\w+)"', html))


def test_the_end_of_hand_summary_shows_only_what_the_player_saw(alice: Any) -> None:
    client = client_for(alice)
    table = start(client)
    game = drive(table.games.get(), alice, hands=1)
    hand = Hand.objects.get(game=game, number=0)
    deal = hand.record["deal"]
    html = client.get(table.get_absolute_url()).content.decode()
    summary = html[html.index('class="hand-summary"') :]
    summary = summary[: summary.index("</section>")]
    seen = cards_in(summary)
    played = {a["card"] for a in hand.record["actions"] if a["type"] == "play"}
    used_dummy = any(a["type"] == "dummy" and a["seat"] == 0 for a in hand.record["actions"])
    mine = set(deal["hands"][0]) | (set(deal["dummy"]) if used_dummy else set())
    # Everything shown was seen at the table: played, the up card, or the player's own.
    assert seen <= played | {deal["kitty"][0]} | mine
    assert deal["kitty"][0] in seen
    assert not (set(deal["kitty"][1:]) & seen)  # nobody sees the kitty
    for seat in (1, 2):  # a bot's unplayed cards stay hidden
        assert not ((set(deal["hands"][seat]) - played) & seen)
    if not used_dummy:
        assert not ((set(deal["dummy"]) - played) & seen)


def test_the_board_ranks_only_established_accounts_and_staff_can_hide_one(
    alice: Any, bob: Any
) -> None:
    User = get_user_model()
    fresh = User.objects.create_user("fresh", "fresh@example.com", "pw-fresh-123")
    unverified = User.objects.create_user("unverified", "unv@example.com", "pw-unv-123")
    User.objects.filter(pk=unverified.pk).update(
        date_joined=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    )
    busy = established(User.objects.create_user("busy", "busy@example.com", "pw-busy-123"))
    User.objects.filter(pk=busy.pk).update(date_joined=timezone.now())
    deal = services.deal_for_day(day=services.today())
    for user, points in ((alice, [1]), (bob, [2]), (fresh, [4]), (unverified, [4]), (busy, [3])):
        Entry.objects.create(deal=deal, user=user, points=points, total=sum(points))
    verified(fresh)  # but made today: unranked
    services.day_results_update(deal_id=deal.pk)
    places = dict(Entry.objects.values_list("user__username", "place"))
    assert places == {"bob": 1, "alice": 2, "fresh": None, "unverified": None, "busy": None}
    # Ten finished games make a new account rankable.
    finish_games(busy, 10)
    services.day_results_update(deal_id=deal.pk)
    places = dict(Entry.objects.values_list("user__username", "place"))
    assert places == {"busy": 1, "bob": 2, "alice": 3, "fresh": None, "unverified": None}
    assert client_for(alice).get(day_url(deal.date)).status_code == 403  # not over: no page yet
    Entry.objects.update(status=Entry.Status.FINISHED)
    html = client_for(alice).get(day_url(deal.date)).content.decode()
    assert html.count(">unranked<") == 2 and "fresh" in html
    assert "verified e-mail address" in html  # the day's page says how it is ranked
    # Staff hide busy's entry in the admin: off the board, the others move up.
    staff = User.objects.create_superuser("staff", "staff@example.com", "pw-staff-123")
    busy_entry = Entry.objects.get(user=busy)
    response = client_for(staff).post(
        reverse("admin:daily_entry_changelist"),
        {"action": "hide", "_selected_action": [busy_entry.pk]},
    )
    assert response.status_code == 302
    busy_entry.refresh_from_db()
    assert busy_entry.hidden and busy_entry.place is None
    assert Entry.objects.get(user=bob).place == 1
    html = client_for(alice).get(day_url(deal.date)).content.decode()
    assert "busy" not in html


def finish_games(user: Any, n: int) -> None:
    """`n` finished games the user played (stored as the site stores them)."""
    from stats import services as stats
    from tests.stats.helpers import build_game

    others = [
        get_user_model().objects.create_user(f"p{user.pk}-{k}", f"p{user.pk}-{k}@example.com")
        for k in (1, 2)
    ]
    for _ in range(n):
        assert stats.after_game(game_id=build_game([user, *others]).pk) == "done"
