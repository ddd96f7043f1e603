"""In Chromium against a real daphne and worker: after a game against bots
the player finds it counted on their stats page with the rating chart, and
replays the last hand to its end."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CHROMIUM, base_url, browser_type_launch_args  # noqa: F401
from tests.e2e.helpers import open_a_table_against_bots, play_against_bots_until

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing"),
]


def test_after_a_game_against_bots_the_stats_page_counts_it_and_the_last_hand_replays(
    page: Page,
    base_url: str,  # noqa: F811
    real_celery: Any,
    celery_worker: Any,
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    open_a_table_against_bots(page, base_url, "erin", "Erin and the bots", 5, ("easy", "medium"))
    # Played by the person (a game a bot played for them would not be theirs).
    over = page.get_by_role("heading", name=re.compile(r"won the game"))
    play_against_bots_until(page, over)
    expect(over).to_be_visible()

    stats_link = page.locator("nav.nav a", has_text=re.compile(r"^Stats$"))
    expect(stats_link).to_have_count(1)  # behind the menu button on a phone
    page.goto(base_url + (stats_link.get_attribute("href") or ""))
    expect(page.get_by_role("heading", name="Your statistics")).to_be_visible()
    for _ in range(60):  # the worker's statistics task follows the game's end
        if page.locator("#games-played").count() and page.locator("#rating-chart svg").count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(page.locator("#games-played")).to_have_text("1")
    expect(page.locator("#rating-chart svg")).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("Rating over time"))).to_be_visible()

    page.get_by_role("link", name="Hand history").click()
    page.get_by_role("link", name="Replay").first.click()  # newest first: the last hand
    expect(page.locator("#step-count")).to_have_text(re.compile(r"^Step 0 of \d+$"))
    total = int((page.locator("#step-count").text_content() or "").split()[-1])
    for step in range(1, total + 1):
        page.locator("#step-next").click()
        expect(page.locator("#step-count")).to_have_text(f"Step {step} of {total}")
    expect(page.locator("#replay-result")).to_be_visible()
    expect(page.locator("#step-next")).to_have_count(0)
