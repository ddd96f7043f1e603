"""Ratings are for what a person played (issue 21): the hand records mark the
moves bots made for a person's seat, and statistics and ratings read them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games import services as games_services
from games.models import Game, Seat
from stats import services
from stats.facts import SeatPlay, seat_play
from stats.models import GameFact, HandFact, PlayerStats, Rating, RatingEvent
from stats.templatetags.stats_tags import rating_changes
from tests.games.conftest import open_table

from .helpers import build_game

pytestmark = pytest.mark.django_db

# build_game's game: bob (seat 1) wins with 12, alice (seat 0) 4, carol (seat 2) 2.


def by_bot(game: Game, seat: int, mark: dict[str, Any], *, share: float = 1.0) -> None:
    """Mark the last `share` of `seat`'s decisions in the game as a bot's."""
    hands = list(game.hands.order_by("number"))
    mine = [(h, i) for h in hands for i, a in enumerate(h.record["actions"]) if a["seat"] == seat]
    start = len(mine) - round(share * len(mine))
    for h, i in mine[start:]:
        h.record["actions"][i].update(mark)
    for h in hands:
        h.save(update_fields=["record"])


def plays(game: Game, seat: int) -> SeatPlay:
    return seat_play([h.record for h in game.hands.order_by("number")], seat)


def stats(user: Any) -> dict[str, Any]:
    return dict(PlayerStats.objects.get(key=f"user:{user.pk}").data)


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_three_losses_in_a_row_make_the_shown_rating_fall(alice: Any, bob: Any, carol: Any) -> None:
    shown = [Rating(mu=25.0, sigma=25 / 3).display]
    for _ in range(3):
        game = build_game([alice, bob, carol])  # carol last each time
        services.after_game(game_id=game.pk)
        shown.append(Rating.objects.get(user=carol).display)
        assert rating_changes(game)[2] == shown[-1] - shown[-2] < 0
    assert shown[0] == 1500
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == 4
    series = [p["value"] for p in stats(carol)["series"]["rating"]]
    assert series == shown[1:]
    assert stats(carol)["rating"]["provisional"]  # three games: not settled yet


def test_a_seat_on_autopilot_from_the_first_move_is_not_its_persons_game(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = build_game([alice, bob, carol], bots={0: "expert"})  # alice's autopilot
    by_bot(game, 0, {"by": "autopilot"})
    services.after_game(game_id=game.pk)
    fact = GameFact.objects.get(game=game, user=alice)
    assert (fact.counted, fact.won, fact.rating_note) == (False, False, "bot_only")
    assert fact.decisions == fact.bot_decisions > 0
    assert not HandFact.objects.filter(user=alice).exists()
    assert stats(alice)["lifetime"]["games"]["played"] == 0
    assert stats(alice)["lifetime"]["hands"] == 0
    assert stats(alice)["rating"] is None
    assert not Rating.objects.filter(user=alice).exists()
    # bob and carol played the expert bot that played alice's seat.
    assert Rating.objects.get(user=None, bot_level="expert").games == 1
    assert set(rating_changes(game)) == {1, 2}
    # Nor does the average player count it.
    assert PlayerStats.objects.get(key="all").data["lifetime"]["games"]["played"] == 1.0


def test_a_person_who_never_came_is_not_counted_either(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol], bots={2: "medium"})
    by_bot(game, 2, {"by": "stand-in"})  # the stand-in...
    first = game.hands.get(number=0)
    seats = [i for i, a in enumerate(first.record["actions"]) if a["seat"] == 2][:3]
    for i in seats:  # ...after three time-outs
        first.record["actions"][i].pop("by")
        first.record["actions"][i]["auto"] = True
    first.save(update_fields=["record"])
    assert plays(game, 2).note == "bot_only"
    services.after_game(game_id=game.pk)
    assert GameFact.objects.get(user=carol).counted is False
    assert not Rating.objects.filter(user=carol).exists()


def test_a_seat_a_bot_played_more_than_half_of_is_unrated_and_never_a_win(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = build_game([alice, bob, carol], bots={1: "expert"})
    by_bot(game, 1, {"by": "autopilot"}, share=0.6)  # bob's seat wins, mostly by his bot
    play = plays(game, 1)
    assert 2 * play.by_bot > play.decisions > play.by_bot and play.note == "mostly_bot"
    services.after_game(game_id=game.pk)
    fact = GameFact.objects.get(user=bob)
    assert (fact.counted, fact.won, fact.rating_note) == (True, False, "mostly_bot")
    assert stats(bob)["lifetime"]["games"]["played"] == 1
    assert stats(bob)["lifetime"]["games"]["won"] == 0
    assert not Rating.objects.filter(user=bob).exists()
    assert 1 not in rating_changes(game)
    assert Rating.objects.get(user=None, bot_level="expert").games == 1


def test_half_or_fewer_of_the_decisions_by_a_bot_is_rated_as_played(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = build_game([alice, bob, carol], bots={1: "expert"})
    play_all = plays(game, 1).decisions
    by_bot(game, 1, {"by": "autopilot"}, share=(play_all // 2) / play_all)
    assert plays(game, 1).note == ""
    services.after_game(game_id=game.pk)
    fact = GameFact.objects.get(user=bob)
    assert (fact.counted, fact.won, fact.rating_note) == (True, True, "")
    assert rating_changes(game)[1] > 0


def test_a_player_who_left_mid_game_is_rated_last(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol], bots={1: "medium"})
    by_bot(game, 1, {"by": "stand-in"}, share=0.8)  # bob left; his stand-in won it
    assert plays(game, 1).note == "left"
    services.after_game(game_id=game.pk)
    fact = GameFact.objects.get(user=bob)
    assert (fact.counted, fact.won, fact.rating_note) == (True, False, "left")
    r = {u.username: Rating.objects.get(user=u) for u in (alice, bob, carol)}
    # alice (4 points) first, carol (2) second, bob last whatever his seat scored.
    assert r["alice"].mu > 25 and r["bob"].mu < r["carol"].mu
    changes = rating_changes(game)
    assert changes[0] > 0 > changes[1] and changes[1] < changes[2]
    assert stats(bob)["lifetime"]["games"]["won"] == 0


def test_the_history_and_the_stats_page_show_each_games_change_and_why_not_rated(
    alice: Any, bob: Any, carol: Any
) -> None:
    rated = build_game([alice, bob, carol], name="Rated table")
    services.after_game(game_id=rated.pk)
    mostly = build_game([alice, bob, carol], name="Autopilot table", bots={0: "hard"})
    by_bot(mostly, 0, {"by": "autopilot"}, share=0.75)
    services.after_game(game_id=mostly.pk)
    absent = build_game([alice, bob, carol], name="Absent table", bots={0: "hard"})
    by_bot(absent, 0, {"by": "autopilot"})
    services.after_game(game_id=absent.pk)
    left = build_game([alice, bob, carol], name="Left table", bots={0: "medium"})
    by_bot(left, 0, {"by": "stand-in"}, share=0.5)
    services.after_game(game_id=left.pk)
    change = rating_changes(rated)[0]
    c = client_for(alice)
    for url in (reverse("stats:history"), reverse("stats:player", args=["alice"])):
        html = c.get(url).content.decode()
        rows = {
            g: html.split(f'data-game="{g.pk}"')[1].split("</tr>")[0]
            for g in (rated, mostly, absent, left)
        }
        assert f"+{change}" in rows[rated] and "Unrated" not in rows[rated]
        assert "Unrated: a bot made more than half of your decisions." in rows[mostly]
        assert "Not counted: a bot played your seat from the start." in rows[absent]
        assert "Rated as last: you left, and a bot finished the game." in rows[left]
        assert f"-{-rating_changes(left)[0]}" in rows[left]
        assert 'class="delta down"' in rows[left] and "–" in rows[mostly]
    html = c.get(reverse("stats:player", args=["alice"])).content.decode()
    assert 'id="provisional"' in html and "Everybody starts at 1500" in html
    assert "OpenSkill" not in html
    # Others see neither the list nor its reasons.
    assert (
        'id="game-list"'
        not in client_for(bob).get(reverse("stats:player", args=["alice"])).content.decode()
    )


def test_the_site_marks_the_moves_bots_make_for_a_persons_seat(alice: Any, bob: Any) -> None:
    table = open_table(alice)
    games_services.table_join(table=table, user=bob, position=1)
    games_services.table_set_bot(table=table, user=alice, position=2, level="easy")
    game = table.games.get()
    # A person's autopilot; the stand-in of one who is away; after three time-outs.
    setups: list[tuple[dict[str, Any], str]] = [
        ({}, "autopilot"),
        ({"away": True}, "stand-in"),
        ({"timeouts_in_row": 3}, "stand-in"),
    ]
    seen: list[tuple[Any, Any]] = []
    while setups:
        game.refresh_from_db()
        seat = game.to_act
        assert seat is not None
        if seat == 2:  # the bot's own seat: its moves carry no mark
            expected: Any = None
        else:
            setup, expected = setups.pop(0)
            Seat.objects.filter(table=table, position=seat).update(
                bot_level="easy", away=False, timeouts_in_row=0
            )
            Seat.objects.filter(table=table, position=seat).update(**setup)
        games_services.game_act(
            game_id=game.pk, version=game.version, action=legal(game), actor=bot(seat)
        )
        seen.append((expected, last_action(game).get("by")))
    assert all(want == got for want, got in seen), seen
    # A person's own move carries none either.
    game.refresh_from_db()
    seat = game.to_act
    assert seat is not None
    if seat != 2:
        Seat.objects.filter(table=table, position=seat).update(
            bot_level="", away=False, timeouts_in_row=0
        )
        person = alice if seat == 0 else bob
        games_services.game_act(
            game_id=game.pk,
            version=game.version,
            action=legal(game),
            actor=games_services.Actor.person(person),
        )
        assert "by" not in last_action(game)


def bot(seat: int) -> games_services.Actor:
    return games_services.Actor.bot(seat)


def legal(game: Game) -> dict[str, Any]:
    state = games_services.game_state(game)
    assert state.current is not None
    action = dict(engine.legal_actions(state.current)[0].to_dict())
    action.pop("seat")
    return action


def last_action(game: Game) -> dict[str, Any]:
    hand = game.hands.order_by("-number").first()
    assert hand is not None
    actions = hand.record["actions"]
    if not actions:  # the move ended a hand: the previous one holds it
        hand = game.hands.order_by("-number")[1]
        actions = hand.record["actions"]
    return dict(actions[-1])


def test_rating_events_are_only_for_people_rated_and_the_bots_that_played(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = build_game([alice, bob, carol], bots={0: "hard", 2: "hard"})
    by_bot(game, 0, {"by": "autopilot"})
    by_bot(game, 2, {"by": "autopilot"})
    services.after_game(game_id=game.pk)
    # bob against the hard bot (both other seats: one pseudo-player).
    assert RatingEvent.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=bob).games == 1
