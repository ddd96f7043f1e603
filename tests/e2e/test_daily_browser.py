"""A whole daily deal in a real browser on a phone-sized screen: from the
navigation to the table, five hands against the worker's hard bots, the end
and the day's comparison (checked with axe, and for sideways scrolling)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from .helpers import play_against_bots_until, sign_up
from .test_accessibility import problems

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_a_whole_daily_deal_then_the_comparison(
    browser: Browser, base_url: str, celery_worker: Any
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    sign_up(page, base_url, "erin")
    page.get_by_label("Show menu").check()  # the phone's menu
    page.get_by_role("link", name="Daily deal").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Daily deal of "))).to_be_visible()
    assert problems(page) == []
    page.get_by_role("button", name="Play today's deal").click()
    expect(page.locator("#table")).to_have_attribute("data-version", re.compile(r"[1-9]\d*"))
    expect(page.get_by_text("Hand 1 of 5")).to_be_visible()

    over = page.get_by_role("heading", name="Your daily deal is over.")
    play_against_bots_until(page, over)
    expect(over).to_be_visible()
    scored = page.locator(".daily-over").get_by_text(re.compile(r"^You scored \d+ points?\.$"))
    expect(scored).to_be_visible()
    points = int(re.findall(r"\d+", scored.inner_text())[0])
    expect(page.get_by_role("button", name="Rematch, same seats")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "daily-over-360.png"), full_page=True)

    page.get_by_role("link", name="See how everyone did").click()
    expect(page.get_by_role("heading", name="Hand by hand")).to_be_visible()
    expect(page.locator("table.daily-hands tbody tr")).to_have_count(5)
    expect(page.locator(".daily-mine")).to_contain_text("in 5 of 5 hands")
    board = page.locator("table.daily-board")
    expect(board.locator("tr.you")).to_contain_text("erin (you)")
    expect(board.locator("tr.you td").nth(1)).to_have_text(str(points))
    assert problems(page) == []
    page.screenshot(path=str(SHOTS / "daily-comparison-360.png"), full_page=True)
    # Nothing of today's deals opens before the day ends: no replay, even one's own,
    # and erin's new, unverified account shows unranked, the page says why.
    expect(page.locator("table.daily-hands").get_by_role("link")).to_have_count(0)
    expect(page.get_by_text("open when the day ends at 00:00 UTC")).to_be_visible()
    expect(board.locator("tr.you td").first).to_have_text("unranked")
    expect(page.locator("#how-ranked")).to_contain_text("verified e-mail address")

    page.goto(f"{base_url}/daily/")
    expect(page.get_by_role("button", name="Play today's deal")).to_have_count(0)
    expect(page.get_by_text("Your streak: 1 day in a row.")).to_be_visible()
    context.close()
