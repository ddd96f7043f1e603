"""A whole hand played by keyboard alone against two bots: at each of the
player's turns the focus is already in their hand (or on their choices), the
arrow keys reach every card and button, Enter plays; and the one live region
said every card played, by whom, in words."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from games.models import Game
from games.narration import describe

from .helpers import open_a_table_against_bots, version
from .test_table_frames import MY_TURN


def press_until_a_move_is_made(page: Page) -> None:
    """Arrow through the choices to the first that is not a pass (a card that
    may be played, a call, "Keep these five"), then Enter."""
    for _ in range(20):
        focused = page.evaluate(
            """() => { const el = document.activeElement;
                return el && el.matches('#act-form button[name=action]')
                    && !el.value.includes('"pass"'); }"""
        )
        if focused:
            page.keyboard.press("Enter")
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError("no move reached with the arrow keys")


def test_a_whole_hand_by_keyboard_with_every_play_announced(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    open_a_table_against_bots(page, base_url, "greta", "Keys", 10, ("easy", "easy"))
    page.evaluate("""() => {
      window.said = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) window.said.push(n.textContent);
      }).observe(document.getElementById("table-announcer"), { childList: true });
    }""")
    turns = 0
    for _ in range(40):
        expect(page.locator(f"{MY_TURN}, .hand-summary").first).to_be_visible(timeout=20000)
        if page.locator(".hand-summary").count():
            break
        # The focus came to the hand (or the choices) by itself.
        expect(page.locator("#act-form :focus")).to_have_count(1)
        v = version(page)
        press_until_a_move_is_made(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v))
        turns += 1
    else:
        raise AssertionError("the hand did not end")
    assert turns >= 3
    hand = Game.objects.get().hands.get(number=0)
    names = {0: "greta", 1: "Easy bot 2", 2: "Easy bot 3"}
    plays = [a for a in hand.record["actions"] if a["type"] == "play"]
    said = page.evaluate("() => window.said")
    if plays:  # a thrown-in hand has none
        for action in plays:
            assert describe(action, names, hand.record["dealer"]) in said, said
    # The region is the page's, not the table's: frames never replaced it.
    expect(page.locator("#table-announcer")).to_have_attribute("aria-live", "polite")
