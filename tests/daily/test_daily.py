"""The daily deal's rules, through its services and pages (the bots moved in
this process by their task's body; the real worker's run is in test_worker.py)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from daily import selectors, services, tasks
from daily.models import DailyDeal, Entry
from euchre_site.refusal import Code, Refusal
from games import services as games
from games.engine import Rules
from games.models import Game, Table
from stats.services import ratings_update

from .conftest import NOON, client_for, drive, my_points, records

pytestmark = pytest.mark.django_db

DAY = NOON.date()


# --------------------------------------------------------------------------- the day's deal


def test_a_day_has_one_deal_from_a_secret_seed_that_gives_its_five_deals() -> None:
    deal = services.deal_for_day(day=DAY)
    assert services.deal_for_day(day=DAY).pk == deal.pk
    assert DailyDeal.objects.count() == 1
    assert len(deal.seed) == 64 and len(deal.deals) == 5
    assert services.draw_deals(deal.seed, Rules()) == (deal.first_dealer, deal.deals)
    # The seed is not the date's: the next day's row draws another.
    later = services.deal_for_day(day=DAY + datetime.timedelta(days=1))
    assert later.seed != deal.seed and later.deals != deal.deals


def test_the_beat_task_fixes_the_day_and_ends_yesterdays_attempts(alice: Any) -> None:
    entry = services.attempt_start(user=alice, now=NOON)
    drive(entry.game, alice, hands=1)
    tomorrow = NOON + datetime.timedelta(days=1)
    deal = services.new_day(now=tomorrow)
    assert deal.date == DAY + datetime.timedelta(days=1)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.STOPPED and entry.hands_played == 1
    assert Game.objects.get(table__owner=alice).status == Game.Status.FINISHED


# --------------------------------------------------------------------------- attempts


def test_two_players_get_the_same_deals_seat_and_dealers(alice: Any, bob: Any) -> None:
    a = services.attempt_start(user=alice, now=NOON)
    b = services.attempt_start(user=bob, now=NOON)
    assert a.deal_id == b.deal_id
    for entry, user in ((a, alice), (b, bob)):
        assert entry.game is not None
        table = entry.game.table
        seats = {s.position: (s.user_id, s.bot_level) for s in table.seats.all()}
        assert seats == {0: (user.pk, ""), 1: (None, "hard"), 2: (None, "hard")}
        assert table.visibility == Table.Visibility.PRIVATE and not table.hints
        assert table.daily_date == DAY and table.target == 25
    drive(a.game, alice, hands=2)
    drive(b.game, bob, hands=2, variant=1)  # other choices: the same cards all the same
    for n in range(2):
        ra, rb = records(a.game)[n], records(b.game)[n]
        assert ra["deal"] == rb["deal"] == a.deal.deals[n]
        assert ra["dealer"] == rb["dealer"] == (a.deal.first_dealer + n) % 3


def test_a_whole_attempt_scores_five_hands_and_a_second_attempt_is_refused(alice: Any) -> None:
    entry = services.attempt_start(user=alice, now=NOON)
    game = drive(entry.game, alice)
    assert game.status == Game.Status.FINISHED and game.hands.count() == 5
    services.entry_update(entry_id=entry.pk)
    entry.refresh_from_db()
    mine = my_points(game)
    assert entry.status == Entry.Status.FINISHED
    assert entry.points == mine and entry.total == sum(mine) == game.scores[0]
    assert entry.place == 1 and entry.streak == 1
    assert not ratings_update(game=game)  # daily deals are not rated
    with pytest.raises(Refusal, match="played today's daily deal already") as refused:
        services.attempt_start(user=alice, now=NOON)
    assert refused.value.code == Code.CONFLICT and refused.value.status == 409
    assert Entry.objects.count() == 1 and Table.objects.count() == 1


def test_an_attempt_under_way_is_resumed_at_the_same_table(alice: Any) -> None:
    entry = services.attempt_start(user=alice, now=NOON)
    drive(entry.game, alice, hands=1)
    again = services.attempt_start(user=alice, now=NOON)
    assert again.pk == entry.pk and again.game_id == entry.game_id
    assert Table.objects.count() == 1


def test_leaving_half_played_counts_the_hands_played_so_far(alice: Any) -> None:
    entry = services.attempt_start(user=alice, now=NOON)
    game = drive(entry.game, alice, hands=2)
    person_or_bot_moves = game.version
    services.attempt_stop(user=alice, now=NOON)
    entry.refresh_from_db()
    game.refresh_from_db()
    two = my_points(game)
    assert len(two) == 2
    assert entry.status == Entry.Status.STOPPED and entry.points == two
    assert entry.total == sum(two)
    assert game.status == Game.Status.FINISHED and game.version == person_or_bot_moves + 1
    # The table says it is over, and takes no more moves.
    page = client_for(alice).get(game.table.get_absolute_url()).content.decode()
    assert "Your daily deal stopped after 2 hands." in page
    with pytest.raises(Refusal, match="The game is over"):
        games.game_act(
            game_id=game.pk,
            version=game.version,
            action={"type": "pass"},
            actor=games.Actor.person(alice),
        )
    with pytest.raises(Refusal, match="not playing today's daily deal") as refused:
        services.attempt_stop(user=alice, now=NOON)
    assert refused.value.code == Code.CONFLICT and refused.value.status == 409


# --------------------------------------------------------------------------- results


def finished_entry(user: Any, deal: DailyDeal, points: list[int]) -> Entry:
    """An attempt's outcome as the task stores it (the play itself is tested above)."""
    return Entry.objects.create(
        deal=deal, user=user, points=points, total=sum(points), status=Entry.Status.FINISHED
    )


def test_places_share_ties_and_each_hand_has_its_best_and_average(
    alice: Any, bob: Any, carol: Any, outsider: Any
) -> None:
    deal = services.deal_for_day(day=DAY)
    a = finished_entry(alice, deal, [1, 0, 2, 0, 3])  # 6
    b = finished_entry(bob, deal, [2, 2, 0, 1, 1])  # 6
    c = finished_entry(carol, deal, [0, 1])  # 1, stopped after two hands
    Entry.objects.filter(pk=c.pk).update(status=Entry.Status.STOPPED)
    finished_entry(outsider, deal, [])  # started, no hand yet: not placed
    summary = services.day_results_update(deal_id=deal.pk)
    assert summary is not None and summary["players"] == 3
    hands = summary["hands"]
    assert [h["best"] for h in hands] == [2, 2, 2, 1, 3]
    assert [h["players"] for h in hands] == [3, 3, 2, 2, 2]
    assert hands[0]["average"] == 1.0 and hands[1]["average"] == 1.0
    assert hands[0]["best_entry"] == b.pk and hands[2]["best_entry"] == a.pk
    places = dict(Entry.objects.values_list("user__username", "place"))
    assert places == {"alice": 1, "bob": 1, "carol": 3, "oscar": None}
    board = selectors.comparison(deal, a, replays=False)["board"]
    assert [(r["place"], r["name"], r["total"]) for r in board] == [
        (1, "alice", 6),
        (1, "bob", 6),
        (3, "carol", 1),
    ]


def test_the_streak_counts_days_played_in_a_row(alice: Any) -> None:
    days = [DAY - datetime.timedelta(days=n) for n in (5, 3, 2, 1, 0)]
    for day in days:
        entry = finished_entry(alice, services.deal_for_day(day=day), [1])
        services.entry_update(entry_id=entry.pk)
    streaks = dict(Entry.objects.values_list("deal__date", "streak"))
    assert [streaks[d] for d in days] == [1, 1, 2, 3, 4]
    assert selectors.current_streak(alice, DAY) == 4
    # Tomorrow it still stands until played; a day missed breaks it.
    assert selectors.current_streak(alice, DAY + datetime.timedelta(days=1)) == 4
    assert selectors.current_streak(alice, DAY + datetime.timedelta(days=2)) == 0


def test_the_command_fixes_today_and_verifies_a_day_against_its_seed() -> None:
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = StringIO()
    call_command("daily_deal", stdout=out)
    deal = DailyDeal.objects.get()
    assert f"daily deal of {deal.date} fixed" in out.getvalue()
    call_command("daily_deal", verify=deal.date.isoformat(), stdout=out)
    assert "the stored deals are the ones its seed gives" in out.getvalue()
    deal.deals = [deal.deals[1], deal.deals[0], *deal.deals[2:]]
    deal.save()
    with pytest.raises(CommandError, match="NOT"):
        call_command("daily_deal", verify=deal.date.isoformat())
    with pytest.raises(CommandError):
        call_command("daily_deal", verify="yesterday")


def test_the_days_figures_are_queued_once_however_many_hands_end_meanwhile() -> None:
    deal = services.deal_for_day(day=DAY)
    assert tasks.day_results_soon(deal_id=deal.pk)
    assert not tasks.day_results_soon(deal_id=deal.pk)
    assert tasks.day_results_soon(deal_id=deal.pk + 1)  # another day has its own
