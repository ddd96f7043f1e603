"""The fill_history command, tiny, on the test database: what it writes
holds together (every game replays with the engine, the counts agree) and
every page the benchmark times (benchmarks.pages) answers on it; and the
pages it made long enough to have several pages link to the next in every
language, without JavaScript."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db.models import Count, Sum
from django.test import Client
from django.utils import translation

from benchmarks.pages import page_urls
from daily.models import HANDS, DailyDeal, Entry
from games import engine
from games.models import Game, Hand, Seat, Table
from games.selectors import MY_GAMES_PAGE
from games.services import game_state
from stats import views as stats_views
from stats.models import GameFact, HandFact, PlayerStats, Rating, RatingEvent

pytestmark = pytest.mark.django_db

PLAYERS, GAMES, LIVE, DAYS, PER_DAY = 20, 120, 3, 4, 3


def fill(*extra: str) -> str:
    err = io.StringIO()
    call_command(
        "fill_history",
        *("--players", str(PLAYERS), "--games", str(GAMES), "--live", str(LIVE)),
        *("--days", str(DAYS), "--daily-entries", str(PER_DAY), "--pool", "40"),
        *extra,
        stderr=err,
    )
    return err.getvalue()


@pytest.fixture
def filled() -> str:
    return fill()


def test_the_fill_writes_games_that_replay_and_counts_that_agree(filled: str) -> None:
    assert "done:" in filled  # progress went to stderr
    normal = Game.objects.filter(table__daily_date__isnull=True, status=Game.Status.FINISHED)
    daily = Game.objects.filter(table__daily_date__isnull=False)
    assert normal.count() == GAMES
    assert daily.count() == DAYS * PER_DAY
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == LIVE
    for game in Game.objects.select_related("table"):
        state = game_state(game)  # the site's own replay of the stored records
        assert state.over == (game.status == Game.Status.FINISHED)
        assert list(state.scores) == game.scores
        if state.over:
            assert state.winner == game.winner
        else:
            assert state.current is not None and state.current.to_act == game.to_act
    hands = Hand.objects.filter(game__in=normal).count()
    assert hands >= GAMES * 5
    # One fact row per hand and person: three people at the others' tables, one at the daily.
    daily_hands = Hand.objects.filter(game__in=daily).count()
    assert daily_hands == DAYS * PER_DAY * HANDS
    assert HandFact.objects.count() == 3 * hands + daily_hands
    assert GameFact.objects.count() == 3 * GAMES + DAYS * PER_DAY
    for fact in HandFact.objects.select_related("hand")[:50]:
        assert dict(engine.replay(fact.hand.record)).get("complete") is True
    # Rated: each game once for each of its three people, in order.
    assert RatingEvent.objects.count() == 3 * GAMES
    assert Rating.objects.aggregate(n=Sum("games"))["n"] == 3 * GAMES
    assert PlayerStats.objects.filter(user__isnull=False).count() == PLAYERS
    assert not Seat.objects.values("table").annotate(n=Count("pk")).exclude(n=3).exists()
    assert Table.objects.filter(status=Table.Status.PLAYING).count() == LIVE
    # The daily deals ranked by the site's own day_results_update.
    assert DailyDeal.objects.count() == DAYS
    assert Entry.objects.filter(place__isnull=False).count() == DAYS * PER_DAY
    assert all(d.summary.get("players") == PER_DAY for d in DailyDeal.objects.all())


def test_the_fill_refuses_a_database_with_users_unless_forced(filled: str) -> None:
    with pytest.raises(CommandError, match=r"has 2[0-9] users already.*--force"):
        fill()
    assert "done:" in fill("--force", "--seed", "2")  # usernames of its own: none clash


def test_every_page_the_benchmark_times_answers_on_the_filled_database(filled: str) -> None:
    user, urls = page_urls()
    client = Client()
    client.force_login(user)
    for name, url in urls.items():
        assert client.get(url).status_code == 200, name


def _next_link(html: str) -> str:
    found = re.search(r'<a href="(\?[^"]*page=\d+)" rel="next">([^<]+)</a>', html)
    assert found, "no link to the next page"
    return found.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("lang", [code for code, _ in settings.LANGUAGES])
def test_long_lists_link_to_their_next_pages_in_every_language(
    filled: str, lang: str, monkeypatch: Any
) -> None:
    user, _urls = page_urls()
    assert Seat.objects.filter(user=user).count() > MY_GAMES_PAGE  # the busiest: two pages
    monkeypatch.setattr(stats_views, "LEADERBOARD_PAGE", 5)  # twenty players: four pages
    client = Client(headers={"accept-language": lang})
    client.force_login(user)
    user.language = lang
    user.save(update_fields=["language"])
    for path in ("/games/mine/", "/stats/leaderboard/"):
        first = client.get(path).content.decode()
        link = _next_link(first)
        second = client.get(path + link)
        assert second.status_code == 200
        html = second.content.decode()
        assert 'rel="prev"' in html
        with translation.override(lang):
            page = translation.gettext("Page %(n)s of %(total)s") % {"n": 2, "total": "§"}
        assert page.split("§")[0].strip() in html
        if lang != "en":
            english = "Older" if path == "/games/mine/" else "Lower places"
            assert f'rel="next">{english}<' not in first, f"{path} in {lang}: not translated"
