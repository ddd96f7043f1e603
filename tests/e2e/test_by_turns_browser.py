from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from .helpers import open_more_options, sign_up, take_a_turn, version


def test_a_by_turns_player_is_told_live_and_plays_from_the_link(
    browser: Browser, base_url: str, celery_worker: Any
) -> None:
    alice_ctx, bob_ctx = browser.new_context(), browser.new_context()
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    sign_up(alice, base_url, "alice")
    sign_up(bob, base_url, "bob")

    open_more_options(alice)
    alice.get_by_label("Name:").fill("Slow game")
    alice.get_by_role("radio", name="By turns").check()
    alice.get_by_label("Time per move (by turns):").select_option("1 day")
    alice.get_by_label("Seat 2:").select_option("")  # open for bob (a bot by default)
    alice.get_by_label("Seat 3:").select_option("medium")
    alice.get_by_role("button", name="Open the table").click()
    expect(alice.get_by_role("heading", name="Slow game")).to_be_visible()
    table_url = alice.url

    bob.goto(table_url)
    bob.get_by_role("button", name="Sit here").first.click()

    def settle(page: Page) -> None:
        """Away from the table, on "My games", with the notification socket open."""
        page.goto(f"{base_url}/games/mine/")
        page.wait_for_selector("#unread-badge[data-live]", state="attached")

    def play_from(page: Page, link: Locator) -> None:
        link.click()
        expect(page.locator("#table .status").get_by_text("Your turn.")).to_be_visible()
        expect(page.get_by_text(re.compile(r"Your time runs out"))).to_be_visible()
        v = version(page)
        take_a_turn(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v), timeout=15000)

    for page in (alice, bob):
        settle(page)
    turn_toast = re.compile(r"Your turn in Slow game")
    told_live = None
    for _ in range(10):
        for page in (alice, bob):
            try:  # a turn that comes while the player is elsewhere is pushed to them at once
                toast = page.get_by_role("status").filter(has_text=turn_toast).first
                expect(toast).to_be_visible(timeout=1500)
            except AssertionError:
                continue
            play_from(page, toast.get_by_role("link"))
            told_live = page
            break
        if told_live is not None:
            break
        # The turn came before this page listened (just after joining, say): play it from the list.
        for page in (alice, bob):
            page.reload()
            if page.locator("tr.your-turn").count():
                play_from(page, page.locator("tr.your-turn").get_by_role("link", name="Slow game"))
                settle(page)
                break
    assert told_live is not None, "no turn notification arrived live"
    expect(told_live.locator("#unread-badge")).to_be_attached()
    alice_ctx.close()
    bob_ctx.close()
