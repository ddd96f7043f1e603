"""Helpers for the daily deal's tests: a fixed policy for the person's moves,
and a game driven to its end (bots moved in this process, or by the worker)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, services, tasks
from games.models import Game, Table

NOON = datetime.datetime(2026, 12, 1, 12, 0, tzinfo=datetime.UTC)


def verified(user: Any) -> Any:
    """The user's address is verified (as allauth's confirmation leaves it)."""
    from allauth.account.models import EmailAddress

    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )
    return user


def established(user: Any) -> Any:
    """An account the day's leaderboard ranks: a verified address, made well
    before any attempt (daily.services.ranked_entries)."""
    verified(user)
    type(user).objects.filter(pk=user.pk).update(
        date_joined=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    )
    user.refresh_from_db()
    return user


# The daily tests' players are established accounts (tests/conftest.py makes
# them); tests of the unranked make their own.
@pytest.fixture
def alice(alice: Any) -> Any:
    return established(alice)


@pytest.fixture
def bob(bob: Any) -> Any:
    return established(bob)


@pytest.fixture
def carol(carol: Any) -> Any:
    return established(carol)


@pytest.fixture
def outsider(outsider: Any) -> Any:
    return established(outsider)


def policy_move(game: Game, variant: int = 0) -> dict[str, Any]:
    """The person's move from their own view, always the same for the same
    view: a legal action picked by the hand's progress (and `variant`)."""
    state = services.game_state(game)
    view = engine.game_view(state, 0)
    legal = view["legal_actions"]
    action = dict(legal[(len(view["history"]) + variant) % len(legal)])
    if view["exchange"]:
        action["keep"] = view["exchange"][:5]
    action.pop("seat", None)
    return action


def person_moves(game: Game, user: Any, variant: int = 0) -> None:
    game.refresh_from_db()
    services.game_act(
        game_id=game.pk,
        version=game.version,
        action=policy_move(game, variant),
        actor=services.Actor.person(user),
    )


def drive(game: Game | None, user: Any, *, hands: int = 5, variant: int = 0) -> Game:
    """Play until the game is over or `hands` hands are finished: the person
    by `policy_move`, the bots through their Celery task's body, here."""
    assert game is not None
    for _ in range(2000):
        game.refresh_from_db()
        finished = game.hands.filter(result__complete=True).count()
        if game.status == Game.Status.FINISHED or finished >= hands:
            return game
        assert game.to_act is not None
        if game.to_act == 0:
            person_moves(game, user, variant)
        else:
            assert tasks.play_bot_turn(game.pk, game.version) == "played"
    raise AssertionError("the game did not end")


def records(game: Game | None) -> list[dict[str, Any]]:
    assert game is not None
    return [h.record for h in game.hands.order_by("number")]


def my_points(game: Game) -> list[int]:
    """The person's (seat 0) points in each finished hand, in order."""
    results = game.hands.filter(result__complete=True).order_by("number")
    return [r["points"][0] for r in results.values_list("result", flat=True) if r]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def start(client: Client) -> Table:
    """Press "Play today's deal": the player's daily table."""
    response = client.post(reverse("daily:play"))
    assert response.status_code == 302
    return Table.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def day_url(day: datetime.date) -> str:
    return reverse("daily:day", args=[day.isoformat()])
