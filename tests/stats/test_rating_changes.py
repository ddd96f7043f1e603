"""The game-over screen's rating changes (`{% rating_changes game %}`), and the
push that brings them to pages open at the table once the game is rated."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template

from stats import services
from stats.models import Rating, RatingEvent
from stats.templatetags.stats_tags import rating_changes

from .helpers import build_game

START = 1500  # the shown rating of a new player: 1500 + 20 x (mu - 25), mu = 25


def shown(user: Any) -> int:
    return Rating.objects.get(user=user).display


@pytest.mark.django_db
def test_each_persons_change_is_their_new_rating_minus_the_start_after_a_first_game(
    alice: Any, bob: Any, carol: Any, django_assert_num_queries: Any
) -> None:
    game = build_game([alice, bob, carol])  # bob wins, alice second, carol last
    services.after_game(game_id=game.pk)
    with django_assert_num_queries(1):
        changes = rating_changes(game)
    assert changes == {0: shown(alice) - START, 1: shown(bob) - START, 2: shown(carol) - START}
    assert changes[1] > 0 > changes[2]
    assert all(type(k) is int and type(v) is int for k, v in changes.items())


@pytest.mark.django_db
def test_a_later_games_change_is_counted_from_the_rating_before_it(
    alice: Any, bob: Any, carol: Any
) -> None:
    first = build_game([alice, bob, carol])
    services.after_game(game_id=first.pk)
    after_first = {u.username: shown(u) for u in (alice, bob, carol)}
    # Seats turned round: alice at seat 1 wins this one.
    second = build_game([carol, alice, bob])
    services.after_game(game_id=second.pk)
    assert rating_changes(second) == {
        0: shown(carol) - after_first["carol"],
        1: shown(alice) - after_first["alice"],
        2: shown(bob) - after_first["bob"],
    }
    assert rating_changes(second)[1] > 0
    # The first game's changes stay what they were.
    assert rating_changes(first) == {p: v - START for p, v in enumerate(after_first.values())}


@pytest.mark.django_db
def test_only_the_people_at_the_table_are_listed(alice: Any, bob: Any) -> None:
    game = build_game([alice, None, bob], bots={1: "hard"})
    services.after_game(game_id=game.pk)
    assert RatingEvent.objects.filter(game=game).count() == 3  # the bot level is rated too
    assert set(rating_changes(game)) == {0, 2}
    assert rating_changes(game.pk) == rating_changes(game)  # the game's id does as well


@pytest.mark.django_db
def test_nothing_before_the_game_is_rated_nor_for_a_game_that_is_not(alice: Any) -> None:
    game = build_game([alice, None, None], bots={1: "easy", 2: "easy"})
    assert rating_changes(game) == {}  # the stats task has not run yet
    bots_only = build_game([None, None, None], bots={0: "easy", 1: "hard", 2: "hard"}, owner=alice)
    services.after_game(game_id=bots_only.pk)
    assert rating_changes(bots_only) == {}
    assert rating_changes(None) == {}


@pytest.mark.django_db
def test_the_tag_in_a_template(alice: Any, bob: Any, carol: Any) -> None:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    html = Template(
        "{% load stats_tags %}{% rating_changes game as changes %}"
        "{% for position, change in changes.items %}{{ position }}:{{ change }};{% endfor %}"
    ).render(Context({"game": game}))
    assert html == "".join(f"{p}:{shown(u) - START};" for p, u in enumerate((alice, bob, carol)))
