from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, expect

from .helpers import sign_up, take_a_turn, version


def test_a_by_turns_player_is_told_live_and_plays_from_the_link(
    browser: Browser, base_url: str, celery_worker: Any
) -> None:
    alice_ctx, bob_ctx = browser.new_context(), browser.new_context()
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    sign_up(alice, base_url, "alice")
    sign_up(bob, base_url, "bob")

    alice.get_by_label("Name:").fill("Slow game")
    alice.get_by_role("radio", name="By turns").check()
    alice.get_by_label("Time per move (by turns):").select_option("1 day")
    alice.get_by_label("Seat 3:").select_option("medium")
    alice.get_by_role("button", name="Open the table").click()
    expect(alice.get_by_role("heading", name="Slow game")).to_be_visible()
    table_url = alice.url

    bob.goto(table_url)
    bob.get_by_role("button", name="Sit here").first.click()

    # Both go elsewhere; whoever's turn comes is told on whatever page they are.
    for page in (alice, bob):
        page.goto(f"{base_url}/games/mine/")
        page.wait_for_selector("#unread-badge[data-live]", state="attached")

    turn_toast = re.compile(r"Your turn in Slow game")
    toasts = {p: p.get_by_role("status").filter(has_text=turn_toast) for p in (alice, bob)}
    # The bot moves first if the deal says so; then a person's turn comes and is pushed live.
    told = None
    for _ in range(40):  # each page waits on its own socket in turn, up to ~40 s in all
        for page in (alice, bob):
            try:
                expect(toasts[page].first).to_be_visible(timeout=500)
            except AssertionError:
                continue
            told = page
            break
        if told is not None:
            break
    assert told is not None, "nobody was told of their turn"
    expect(told.locator("#unread-badge")).to_be_visible()

    told.get_by_role("status").filter(has_text=turn_toast).first.get_by_role("link").click()
    expect(told.get_by_text("Your turn.")).to_be_visible()
    expect(told.get_by_text(re.compile(r"Your time runs out"))).to_be_visible()
    v = version(told)
    take_a_turn(told)
    expect(told.locator("#table")).not_to_have_attribute("data-version", str(v), timeout=15000)
    alice_ctx.close()
    bob_ctx.close()
