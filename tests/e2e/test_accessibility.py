"""axe-core (through axe-playwright-python) on every page type, and on the
table in each phase (bidding, maker's choice, keeping five, play, a hand
just over, game over), at desktop and phone width: no serious or critical
violation. Every page is also checked for sideways scrolling at 360 px."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import Browser, Page

from daily import services as daily
from games import services
from games.models import Game
from social import services as social
from stats import services as stats_services
from tests.games.conftest import open_table, play_one, players, state_of, to_act
from tests.games.wsclient import session_cookie
from tests.stats.helpers import build_game

WIDTHS = {"desktop": 1280, "phone": 360}
AXE = Axe()
# label-content-name-mismatch is one of axe's experimental rules, off by
# default: a control's accessible name must contain its visible label (the
# card buttons' names start with what their corner shows).
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def problems(page: Page) -> list[str]:
    """Serious and critical axe violations, and sideways scrolling on a phone."""
    found = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in AXE.run(page, options=AXE_OPTIONS).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    if overflow > 0:
        found.append(f"scrolls sideways by {overflow}px")
    return found


def phase(game: Game) -> str | None:
    cur = state_of(game).current
    return cur.phase if cur is not None else None


def tricks_taken(game: Game) -> int:
    cur = state_of(game).current
    return sum(cur.tricks_won) if cur is not None else 0


def advance(game: Game, until: Callable[[Game], bool], prefer: str, rng: random.Random) -> None:
    for _ in range(200):
        if until(game):
            return
        play_one(game, rng, prefer=prefer)
    raise AssertionError("the phase was never reached")


@pytest.fixture
def signed_in(browser: Browser, base_url: str) -> Iterator[Callable[[Any, int], Page]]:
    contexts = []

    def page_for(user: Any, width: int) -> Page:
        cookie = session_cookie(user)
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}]
        )
        contexts.append(context)
        return context.new_page()

    yield page_for
    for c in contexts:
        c.close()


def test_every_page_type_passes_axe_at_both_widths(
    browser: Browser, base_url: str, signed_in: Any, alice: Any, bob: Any, carol: Any
) -> None:
    for _ in range(10):
        stats_services.after_game(game_id=build_game([alice, bob, carol]).pk)
    hand = build_game([alice, bob, carol]).hands.get(number=0)
    waiting = open_table(bob, name="Waiting room")
    # The friends page with a friend, a request and an invitation waiting.
    social.friend_request_send(sender=carol, recipient=alice)
    social.friend_request_answer(recipient=alice, sender=carol, accept=True)
    social.friend_request_send(sender=bob, recipient=alice)
    invitation = social.invitation_send(table=waiting, inviter=bob, name="alice", position=2)
    today = reverse("daily:today")
    daily_game = daily.attempt_start(user=carol).game
    assert daily_game is not None
    daily_table = daily_game.table.get_absolute_url()
    public = ["home", "rules", "account_login", "account_signup"]
    private = [
        reverse("games:lobby"), waiting.get_absolute_url(), reverse("games:my_games"),
        reverse("stats:mine"), reverse("stats:leaderboard"), reverse("stats:history"),
        reverse("stats:player", args=["bob"]), reverse("stats:replay", args=[hand.pk]),
        reverse("stats:import"), reverse("notifications:centre"),
        reverse("notifications:preferences"), reverse("accounts:profile"),
        reverse("social:friends"), reverse("social:players") + "?q=o",
        invitation.get_absolute_url(), today,
    ]  # fmt: skip
    found = {}
    for label, width in WIDTHS.items():
        anonymous = browser.new_page(viewport={"width": width, "height": 900})
        for name in public:
            anonymous.goto(base_url + reverse(name))
            if wrong := problems(anonymous):
                found[f"{name} {label}"] = wrong
        anonymous.close()
        page = signed_in(alice, width)
        for url in private:
            page.goto(base_url + url)
            if wrong := problems(page):
                found[f"{url} {label}"] = wrong
        # A daily deal's table, as its player sees it (no chat there).
        page = signed_in(carol, width)
        response = page.goto(base_url + daily_table)
        assert response is not None and response.ok
        if wrong := problems(page):
            found[f"{daily_table} {label}"] = wrong
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_the_table_in_every_phase_passes_axe_at_both_widths(
    signed_in: Any, base_url: str, alice: Any, bob: Any, carol: Any, celery_worker: Any
) -> None:
    # The Hint button and its answer too (the worker's, over the socket).
    table = open_table(alice, target=5, hints=True)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    game = Game.objects.select_related("table").get(table=table)
    users = players(table)
    rng = random.Random(5)
    found: dict[str, list[str]] = {}

    def check(name: str, viewer: Any, hint: bool = False) -> None:
        for label, width in WIDTHS.items():
            page = signed_in(viewer, width)
            page.goto(base_url + table.get_absolute_url())
            if hint:
                page.get_by_role("button", name="Hint").click()
                page.locator(".hint-box").wait_for(timeout=30000)
            if wrong := problems(page):
                found[f"{name} {label}"] = wrong
            page.close()

    check("bidding", users[to_act(game)])
    advance(game, lambda g: phase(g) == "maker_choice", "order", rng)
    check("maker's choice", users[to_act(game)])
    play_one(game, rng, prefer="dummy")  # use the dummy: keep five of ten
    if phase(game) == "dummy_keep":
        check("keeping five", users[to_act(game)])
    advance(game, lambda g: phase(g) == "play" and tricks_taken(g) > 0, "pass", rng)
    check("play", users[to_act(game)], hint=True)
    advance(game, lambda g: g.hands.count() > 1, "play", rng)
    check("hand over", users[0])
    advance(game, lambda g: state_of(g).over, "order", rng)
    check("game over", users[0])
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())
