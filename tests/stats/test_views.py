"""The pages: own stats in full, others' summary, history, the replay viewer,
records out and in, and who may see what."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Hand
from stats import services
from stats.models import ImportedGame, PlayerStats, Rating

from .helpers import GAME_HANDS, build_game

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def played(alice: Any, bob: Any, carol: Any) -> Any:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    return game


def test_own_stats_page_shows_every_section_with_the_average(played: Any, alice: Any) -> None:
    html = client_for(alice).get(reverse("stats:mine"), follow=True).content.decode()
    assert 'id="games-played">1<' in html
    for title in (
        "As maker",
        "With the dummy",
        "Going alone",
        "As defender",
        "Trump (as maker)",
        "The dealer&#x27;s pick-up",
    ):
        assert title in html
    assert "Average player" in html and "Last 30 days" in html
    assert (
        '<tr data-figure="dealer.pickup_pct"><th scope="row">Pick-up %</th><td class="num">50.0%</td>'
        in html
    )
    assert 'id="rating-chart"' in html and "<svg" in html and "Rating over time as a table" in html
    assert 'id="seat-chart"' in html and 'id="pph-chart"' in html
    # Games by mode and rules, lifetime and the last 30 days (the game was just played).
    assert "Last 30 days: played" in html
    assert re.search(
        r'<th scope="row">Live</th><td>1</td><td>\d</td><td>[\d.]+%</td><td class="muted">[^<]*</td><td>1</td>',
        html,
    )


def test_others_see_only_the_public_summary(played: Any, alice: Any, bob: Any) -> None:
    html = client_for(bob).get(reverse("stats:player", args=["alice"])).content.decode()
    assert "Games played" in html and "Win %" in html
    assert "Pick-up %" not in html and "As defender" not in html and "agreement" not in html


def test_a_player_without_games_is_told_so(alice: Any) -> None:
    html = client_for(alice).get(reverse("stats:player", args=["alice"])).content.decode()
    assert 'id="no-stats"' in html


def test_the_stats_page_reads_stored_figures_only(
    played: Any, alice: Any, django_assert_max_num_queries: Any
) -> None:
    c = client_for(alice)
    url = reverse("stats:player", args=["alice"])
    # 8 for the page, 2 for the last games and their rating changes, 5 for the
    # social panel (friends, recent games: a fixed number).
    with django_assert_max_num_queries(15):
        assert c.get(url).status_code == 200


def test_the_leaderboard_lists_established_players_and_says_how_it_rates(
    alice: Any, bob: Any, carol: Any
) -> None:
    for _ in range(20):
        services.after_game(game_id=build_game([alice, bob, carol]).pk)
    assert not any(r.provisional for r in Rating.objects.all())
    html = client_for(alice).get(reverse("stats:leaderboard")).content.decode()
    assert "Everybody starts at 1500" in html and "OpenSkill" not in html and "σ" not in html
    html = html.split('id="leaderboard"')[1]
    assert html.index(">bob<") < html.index(">alice<") < html.index(">carol<")
    Rating.objects.filter(user=carol).update(sigma=7.0)  # provisional again: not listed
    html = client_for(alice).get(reverse("stats:leaderboard")).content.decode()
    assert ">bob<" in html and ">carol<" not in html


def test_history_filters(played: Any, alice: Any) -> None:
    c = client_for(alice)
    assert c.get(reverse("stats:history")).content.decode().count("Replay</a>") == 5
    assert c.get(reverse("stats:history") + "?maker=1").content.decode().count("Replay</a>") == 1
    assert c.get(reverse("stats:history") + "?alone=1").content.decode().count("Replay</a>") == 2
    assert c.get(reverse("stats:history") + "?euchred=1").content.decode().count("Replay</a>") == 1
    assert (
        c.get(reverse("stats:history") + "?game=999999").content.decode().count("Replay</a>") == 0
    )


def test_the_replay_viewer_steps_through_a_whole_hand(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=3)
    c = client_for(alice)
    total = len(hand.record["actions"])
    seen = []
    for step in range(total + 1):
        r = c.get(reverse("stats:replay", args=[hand.pk]) + f"?step={step}", HTTP_HX_REQUEST="true")
        assert r.status_code == 200
        html = r.content.decode()
        assert f"Step {step} of {total}" in html
        seen.append(html)
    assert "The deal." in seen[0]
    assert "carol: “Assist”." in seen[2]
    assert "alice picks up the up card and discards the Queen of hearts." in seen[3]
    assert "carol uses the dummy." in seen[4] and "taken by the maker" in seen[4]
    assert 'id="replay-result"' in seen[-1] and "points 4 / 4 / 0" in seen[-1]
    assert 'id="step-next"' not in seen[-1]
    # all cards face up from the start: the first step shows every dealt card
    for code in [c for h in hand.record["deal"]["hands"] for c in h]:
        assert f'data-card="{code}"' in seen[0]


def test_a_hand_in_play_is_never_shown_or_downloadable(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol], hands=GAME_HANDS[:1])
    rec = {
        "format": "euchre3-hand/1",
        "rules": {},
        "dealer": 1,
        "deal": GAME_HANDS[0][1],
        "actions": [],
    }
    live = Hand.objects.create(game=game, number=1, record=rec, result=None)
    c = client_for(alice)
    assert c.get(reverse("stats:replay", args=[live.pk])).status_code == 404
    assert c.get(reverse("stats:hand_record", args=[live.pk])).status_code == 404
    assert c.get(reverse("stats:review", args=[live.pk])).status_code == 404


def test_outsiders_do_not_see_hands_of_private_tables(
    alice: Any, bob: Any, carol: Any, outsider: Any
) -> None:
    game = build_game([alice, bob, carol], visibility="private")
    hand = game.hands.first()
    assert hand is not None
    c = client_for(outsider)
    assert c.get(reverse("stats:replay", args=[hand.pk])).status_code == 404
    assert c.get(reverse("stats:hand_record", args=[hand.pk])).status_code == 404
    assert c.get(reverse("games:record", args=[game.pk])).status_code == 404
    assert client_for(bob).get(reverse("stats:replay", args=[hand.pk])).status_code == 200


def test_download_then_import_gives_the_same_game(played: Any, alice: Any) -> None:
    c = client_for(alice)
    downloaded = c.get(reverse("games:record", args=[played.pk]))
    assert downloaded["Content-Disposition"].startswith("attachment")
    record = json.loads(downloaded.content)
    assert engine.replay_game(record) == {
        "scores": [4, 12, 2],
        "hands": 5,
        "over": True,
        "winner": 1,
        "next_dealer": None,
    }
    r = c.post(reverse("stats:import"), {"record": downloaded.content.decode(), "name": "Friday"})
    assert r.status_code == 302
    imported = ImportedGame.objects.get(owner=alice)
    assert imported.record == record
    again = json.loads(c.get(reverse("stats:imported_record", args=[imported.pk])).content)
    assert again == record
    page = c.get(reverse("stats:imported", args=[imported.pk])).content.decode()
    assert page.split('id="imported-hands"')[1].count("<li>") == 5
    step = c.get(
        reverse("stats:imported_hand", args=[imported.pk, 0]) + "?step=99"
    ).content.decode()
    assert 'id="replay-result"' in step
    # imported games count nowhere, and are the importer's alone
    assert PlayerStats.objects.get(key=f"user:{alice.pk}").data["lifetime"]["games"]["played"] == 1
    other = client_for(played.table.seats.get(position=1).user)
    assert other.get(reverse("stats:imported", args=[imported.pk])).status_code == 404


def test_one_hand_downloads_as_its_record(played: Any, alice: Any) -> None:
    hand = played.hands.get(number=0)
    got = json.loads(client_for(alice).get(reverse("stats:hand_record", args=[hand.pk])).content)
    assert got == hand.record and dict(engine.replay_hand(got))["points"] == [0, 3, 0]


def test_a_bad_record_is_refused_with_the_reason(alice: Any) -> None:
    c = client_for(alice)
    r = c.post(reverse("stats:import"), {"record": "{nope"})
    assert r.status_code == 400 and "That is not JSON" in r.content.decode()
    bad = {
        "format": "euchre3-game/1",
        "target": 10,
        "first_dealer": 0,
        "hands": [{"format": "euchre3-hand/1"}],
    }
    r = c.post(reverse("stats:import"), {"record": json.dumps(bad)})
    assert r.status_code == 400 and "Not a valid game record (hand 1)" in r.content.decode()
    assert not ImportedGame.objects.exists()


def test_nav_has_a_stats_link(alice: Any) -> None:
    html = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("stats:mine")}"' in html


def test_games_by_mode_and_rules_beside_the_average(played: Any, alice: Any) -> None:
    html = client_for(alice).get(reverse("stats:player", args=["alice"])).content.decode()
    assert (
        '<th scope="row">Live</th><td>1</td><td>0</td><td>0.0%</td><td class="muted">33.3%</td>'
        in html
    )
    assert '<th scope="row">24-card deck</th>' in html
