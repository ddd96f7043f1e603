"""A visitor presses "Play now", plays a hand as a guest against the
worker's bots, signs up from the table and finds the game in their games
(issue 22), on a phone-sized screen."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import take_a_turn, version


def test_play_now_as_a_guest_then_sign_up_and_keep_the_game(
    browser: Browser, base_url: str, celery_worker: Any
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url)
    expect(page.get_by_role("figure")).to_be_visible()  # the picture of the table
    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#table")).to_have_attribute("data-version", re.compile(r"[1-9]\d*"))
    table_url = page.url

    # One hand against the bots: its summary is on the page (in the phone's
    # panel drawer) once it is over, however briefly its result showed.
    summary = page.locator(".hand-summary")
    for _ in range(200):
        if summary.count():
            break
        v = version(page)
        if page.locator("#table .status").get_by_text("Your turn.").is_visible():
            try:
                take_a_turn(page, timeout=5000)
            except PlaywrightTimeout:
                continue  # the button went with a frame that replaced the table: look again
        try:
            expect(page.locator("#table")).not_to_have_attribute(
                "data-version", str(v), timeout=10000
            )
        except AssertionError:
            continue  # a click the table replaced under it: look again
    expect(summary).to_be_attached()

    page.get_by_label("Show menu").check()  # the phone's menu
    page.get_by_role("link", name="Sign up to keep your games").click()
    page.get_by_label("Username:").fill("newcomer")
    page.get_by_label("Email:").fill("newcomer@example.com")
    page.get_by_label("Password:", exact=True).fill("a-long-pass-7391")
    page.get_by_label("Password (again):").fill("a-long-pass-7391")
    page.get_by_role("button", name="Sign Up").click()
    expect(page).to_have_url(table_url)  # back at the table, as newcomer
    page.get_by_label("Show menu").check()
    page.get_by_role("link", name="My games").click()
    expect(page.get_by_role("main")).to_contain_text(re.compile("table", re.IGNORECASE))
    expect(page.locator(f'a[href="{table_url.removeprefix(base_url)}"]').first).to_be_visible()
    context.close()
