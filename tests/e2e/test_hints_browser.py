"""The Hint button at a table with hints, as a player uses it: "Thinking…"
at once, then the hard bot's choice and why (worked out by the worker, come
over the socket) appear by the hand and are said in the live region; the
next move takes them away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .helpers import open_a_table_against_bots, take_a_turn, version
from .test_table_frames import MY_TURN

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"  # to be looked at


def game_id(page: Page) -> str:
    return page.locator("#table").get_attribute("data-game") or ""


def test_a_hint_is_shown_said_and_gone_after_the_move(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    open_a_table_against_bots(page, base_url, "hana", "Learning", 10, ("easy", "easy"), hints=True)
    expect(page.locator("#table .rules")).to_contain_text("games are not rated")
    expect(page.locator(MY_TURN).first).to_be_visible(timeout=20000)
    v = version(page)
    page.get_by_role("button", name="Hint").click()
    box = page.locator(".hint-box")
    expect(box).to_contain_text("deals the bot imagined", timeout=30000)  # the worker's
    expect(page.locator("#hint-inbox")).to_have_attribute("data-for", f"{game_id(page)}-{v}")
    expect(page.locator("#table .hint-form")).to_have_count(0)  # the answer replaced the button
    expect(page.locator("#hint-status")).to_have_text("")  # "Thinking…" is over
    advice = box.locator("strong").inner_text()
    expect(page.locator("#table-announcer")).to_contain_text(advice)
    assert version(page) == v  # asking changed nothing
    SHOTS.mkdir(parents=True, exist_ok=True)
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "table-hint.png"))
    take_a_turn(page)
    expect(page.locator("#table")).not_to_have_attribute("data-version", str(v))
    expect(box).to_have_count(0)
    # The hint is still in the inbox, but never shown in a later table.
    expect(page.locator("#hint-inbox")).to_have_attribute("data-for", f"{game_id(page)}-{v}")
