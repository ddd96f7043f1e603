"""Every figure of a hand-built game, known in advance."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.utils import timezone

from stats import services
from stats.facts import seat_facts
from stats.models import GameFact, HandFact, PlayerStats, Rating, RatingEvent

from .helpers import FINAL_SCORES, GAME_HANDS, build_game, hand_record

pytestmark = pytest.mark.django_db


def facts_of(n: int) -> list[dict[str, Any]]:
    dealer, deal, acts = GAME_HANDS[n]
    rec = hand_record(dealer, deal, acts)
    from games import engine

    return seat_facts(rec, dict(engine.replay_hand(rec)))


# The HandFact columns that hand_facts_store fills from elsewhere than seat_facts.
NOT_FROM_SEAT_FACTS = {"id", "hand", "game", "user", "finished", "mode", "rules_key"}


def test_a_lone_march_by_left_of_dealer() -> None:
    f = facts_of(0)
    columns = {c.name for c in HandFact._meta.concrete_fields} - NOT_FROM_SEAT_FACTS
    assert [set(row) for row in f] == [columns] * 3  # every seat: one whole fact row
    assert f[1] == {
        "seat": 1, "position": 1, "thrown_in": False,
        "maker": True, "call_round": 1, "maker_alone": True, "maker_dummy": False,
        "made": True, "march": True, "euchred": False,
        "defender": False, "defender_euchre": False,
        "defended_alone": False, "defended_alone_won": False, "defended_alone_march": False,
        "sat_out": False, "trump": "H", "dealer_chance": False, "dealer_pickup": False,
        "tricks": 5, "points": 3,
    }  # fmt: skip
    alice = f[0]
    assert alice["defender"] and alice["position"] == 0
    assert alice["dealer_chance"] and not alice["dealer_pickup"]
    assert not alice["defender_euchre"] and alice["points"] == 0


def test_a_thrown_in_hand_has_no_maker_and_no_defenders() -> None:
    for f in facts_of(1):
        assert f["thrown_in"] and not f["maker"] and not f["defender"] and f["points"] == 0


def test_a_lone_maker_without_trump_is_euchred_in_the_second_round() -> None:
    alice, bob, carol = facts_of(2)
    assert alice["maker"] and alice["call_round"] == 2 and alice["position"] == 1
    assert (
        alice["euchred"] and alice["maker_alone"] and alice["trump"] == "C" and alice["tricks"] == 0
    )
    assert bob["defender_euchre"] and carol["defender_euchre"]
    assert (bob["points"], carol["points"]) == (2, 2)
    assert not carol["dealer_chance"]  # called in the second round


def test_the_dealer_picks_up_and_defends_alone_against_the_dummy() -> None:
    alice, bob, carol = facts_of(3)
    assert carol["maker"] and carol["maker_dummy"] and carol["position"] == 2 and carol["euchred"]
    assert alice["dealer_chance"] and alice["dealer_pickup"]
    assert alice["defended_alone"] and alice["defended_alone_won"] and alice["defended_alone_march"]
    assert bob["sat_out"] and not bob["defended_alone"]
    assert (alice["points"], bob["points"], carol["points"]) == (4, 4, 0)


def test_the_dealer_accepting_is_no_pick_up_chance() -> None:
    _alice, bob, _carol = facts_of(4)
    assert bob["maker"] and bob["position"] == 0 and bob["march"] and bob["points"] == 3
    assert not bob["dealer_chance"] and not bob["dealer_pickup"]


@pytest.fixture
def played(alice: Any, bob: Any, carol: Any) -> Any:
    game = build_game([alice, bob, carol])
    assert game.scores == FINAL_SCORES and game.winner == 1
    assert services.after_game(game_id=game.pk) == "done"
    return game


def stats(user: Any) -> dict[str, Any]:
    return PlayerStats.objects.get(key=f"user:{user.pk}").data


def test_alice_every_figure(played: Any, alice: Any) -> None:
    life = stats(alice)["lifetime"]
    assert life["games"] == {
        "played": 1, "won": 0, "win_pct": 0.0,
        "by_mode": {"live": {"played": 1, "won": 0, "win_pct": 0.0}},
        "by_rules": {"24": {"played": 1, "won": 0, "win_pct": 0.0}},
    }  # fmt: skip
    assert (life["hands"], life["points"], life["points_per_hand"], life["thrown_in"]) == (
        5,
        4,
        0.8,
        1,
    )
    m = life["maker"]
    assert (m["calls"], m["calls_per_hand"], m["round1"], m["round2"]) == (1, 0.2, 0, 1)
    assert (m["made"], m["make_pct"], m["marches"], m["euchred"], m["euchred_pct"]) == (
        0,
        0.0,
        0,
        1,
        100.0,
    )
    assert m["by_position"] == {
        "left": {"hands": 1, "calls": 1, "calls_per_hand": 1.0, "make_pct": 0.0},
        "second": {"hands": 2, "calls": 0, "calls_per_hand": 0.0, "make_pct": None},
        "dealer": {"hands": 2, "calls": 0, "calls_per_hand": 0.0, "make_pct": None},
    }
    assert m["alone"] == {
        "calls": 1,
        "made": 0,
        "make_pct": 0.0,
        "marches": 0,
        "euchred": 1,
        "euchred_pct": 100.0,
    }
    assert m["dummy"]["calls"] == 0 and m["dummy"]["make_pct"] is None
    d = life["defender"]
    assert (d["hands"], d["euchres"], d["euchre_pct"]) == (3, 1, 33.3)
    assert d["alone"] == {"attempts": 1, "won": 1, "won_pct": 100.0, "marches": 1, "lost": 0}
    assert life["trump"]["C"] == {"calls": 1, "made": 0, "make_pct": 0.0}
    assert life["trump"]["H"] == {"calls": 0, "made": 0, "make_pct": None}
    assert life["dealer"] == {"chances": 2, "pickups": 1, "pickup_pct": 50.0}
    assert stats(alice)["recent"] == life


def test_bob_every_figure(played: Any, bob: Any) -> None:
    life = stats(bob)["lifetime"]
    assert (life["games"]["played"], life["games"]["won"], life["games"]["win_pct"]) == (
        1,
        1,
        100.0,
    )
    assert (life["hands"], life["points"], life["points_per_hand"]) == (5, 12, 2.4)
    m = life["maker"]
    assert (m["calls"], m["round1"], m["made"], m["make_pct"], m["marches"], m["euchred"]) == (
        2,
        2,
        2,
        100.0,
        2,
        0,
    )
    assert m["by_position"]["left"]["calls"] == 1 and m["by_position"]["dealer"]["calls"] == 1
    assert m["alone"] == {
        "calls": 2,
        "made": 2,
        "make_pct": 100.0,
        "marches": 2,
        "euchred": 0,
        "euchred_pct": 0.0,
    }
    d = life["defender"]
    assert (d["hands"], d["euchres"], d["euchre_pct"], d["alone"]["attempts"]) == (2, 2, 100.0, 0)
    assert life["trump"]["H"] == {"calls": 2, "made": 2, "make_pct": 100.0}
    assert life["dealer"] == {"chances": 0, "pickups": 0, "pickup_pct": None}


def test_carol_every_figure(played: Any, carol: Any) -> None:
    life = stats(carol)["lifetime"]
    assert (life["games"]["played"], life["games"]["won"], life["points"]) == (1, 0, 2)
    m = life["maker"]
    assert m["dummy"] == {
        "calls": 1,
        "made": 0,
        "make_pct": 0.0,
        "marches": 0,
        "euchred": 1,
        "euchred_pct": 100.0,
    }
    assert m["by_position"]["second"] == {
        "hands": 2,
        "calls": 1,
        "calls_per_hand": 0.5,
        "make_pct": 0.0,
    }
    assert (life["defender"]["hands"], life["defender"]["euchres"]) == (3, 1)


def test_the_average_player(played: Any) -> None:
    avg = PlayerStats.objects.get(key="all").data["lifetime"]
    assert (avg["games"]["played"], avg["games"]["won"], avg["games"]["win_pct"]) == (1, 0.3, 33.3)
    assert (avg["hands"], avg["points"], avg["points_per_hand"]) == (5, 6, 1.2)
    assert (avg["maker"]["calls"], avg["maker"]["make_pct"]) == (1.3, 50.0)
    assert avg["defender"]["euchres"] == 1.3 and avg["defender"]["euchre_pct"] == 50.0


def test_the_last_30_days_leave_older_hands_out(played: Any, alice: Any) -> None:
    old = timezone.now() - datetime.timedelta(days=40)
    HandFact.objects.filter(hand__number=0).update(finished=old)
    services.player_stats_recompute(user_id=alice.pk)
    data = stats(alice)
    assert data["lifetime"]["hands"] == 5 and data["recent"]["hands"] == 4
    assert data["recent"]["dealer"] == {"chances": 1, "pickups": 1, "pickup_pct": 100.0}


def test_facts_are_stored_once(played: Any) -> None:
    assert HandFact.objects.count() == 15 and GameFact.objects.count() == 3
    services.after_game(game_id=played.pk)
    assert HandFact.objects.count() == 15 and GameFact.objects.count() == 3
    assert RatingEvent.objects.count() == 3


def test_the_series_for_the_charts(played: Any, bob: Any) -> None:
    series = stats(bob)["series"]
    assert [p["value"] for p in series["points_per_hand"]] == [2.4]
    assert len(series["rating"]) == 1 and series["rating"][0]["game"] == played.pk
    assert stats(bob)["rating"]["games"] == 1


def test_the_winner_gains_rating_and_the_others_lose(
    played: Any, alice: Any, bob: Any, carol: Any
) -> None:
    r = {u.username: Rating.objects.get(user=u) for u in (alice, bob, carol)}
    assert (
        r["bob"].mu > r["alice"].mu > 25 > r["carol"].mu
    )  # second place (alice, 4) gains a little
    assert all(x.sigma < 25 / 3 and x.games == 1 for x in r.values())
    assert not services.ratings_update(game=played)  # once per game


def test_bots_are_rated_one_pseudo_player_per_level(alice: Any, bob: Any) -> None:
    game = build_game([alice, bob, None], bots={2: "hard"})
    services.after_game(game_id=game.pk)
    bot = Rating.objects.get(user=None, bot_level="hard")
    assert bot.games == 1 and bot.name == "Hard bot"
    assert Rating.objects.count() == 3


def test_a_game_against_two_bots_of_one_level_is_rated(alice: Any) -> None:
    game = build_game([alice, None, None], bots={1: "easy", 2: "easy"})
    services.after_game(game_id=game.pk)
    assert Rating.objects.get(user=alice).games == 1
    assert Rating.objects.get(user=None, bot_level="easy").games == 1  # one pseudo-player
    assert RatingEvent.objects.filter(game=game).count() == 2
    assert GameFact.objects.filter(user=alice).count() == 1


def test_a_game_of_bots_only_is_not_rated(alice: Any) -> None:
    game = build_game([None, None, None], bots={0: "easy", 1: "hard", 2: "hard"}, owner=alice)
    services.after_game(game_id=game.pk)
    assert not Rating.objects.exists() and not GameFact.objects.exists()


def test_ranks_share_places_on_equal_scores() -> None:
    assert services.ranks_of([10, 4, 4]) == [1, 2, 2]
    assert services.ranks_of([3, 11, 7]) == [3, 1, 2]


def test_the_leaderboard_lists_established_ratings_only(alice: Any, bob: Any, carol: Any) -> None:
    for _ in range(10):
        services.after_game(game_id=build_game([alice, bob, carol]).pk)
    Rating.objects.filter(user=carol).update(games=9)  # too few games
    Rating.objects.filter(user=alice).update(sigma=6.0)  # settled
    Rating.objects.filter(user=bob).update(sigma=7.5)  # ten games, but still uncertain
    board = services.leaderboard()
    assert [r.user.username for r in board if r.user] == ["alice"]
    assert all(not r.provisional for r in board)
    assert Rating.objects.get(user=bob).provisional and Rating.objects.get(user=carol).provisional
    Rating.objects.filter(user=bob).update(sigma=6.5)
    board = services.leaderboard()
    assert [r.user.username for r in board if r.user] == ["bob", "alice"]  # by the shown rating
    assert board[0].display > board[1].display


def test_the_rebuild_command_fills_everything_from_stored_games(
    alice: Any, bob: Any, carol: Any
) -> None:
    from django.core.management import call_command

    build_game([alice, bob, carol])
    call_command("stats_rebuild", stdout=io.StringIO())
    assert HandFact.objects.count() == 15 and GameFact.objects.count() == 3
    assert RatingEvent.objects.count() == 3 and PlayerStats.objects.count() == 4
    assert PlayerStats.objects.get(key=f"user:{bob.pk}").data["lifetime"]["points"] == 12
    call_command("stats_rebuild", stdout=io.StringIO())  # idempotent
    assert RatingEvent.objects.count() == 3 and Rating.objects.get(user=bob).games == 1
