"""Frames morph the table instead of replacing it: what the reader opened
stays open and the focus stays where it was, move after move, until a frame
makes it the reader's turn: then the focus goes to their hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .helpers import open_a_table_against_bots, take_a_turn, version

MY_TURN = "#act-form button[name=action]"
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator(MY_TURN).first).to_be_visible(timeout=20000)


def test_an_opened_last_trick_and_the_focus_survive_the_frames(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    open_a_table_against_bots(page, base_url, "fiona", "Frames", 10, ("easy", "easy"))
    hand = page.get_by_role("group", name="Your cards").locator(".card")
    # Play until a trick is over and at least two more are to come, at my turn.
    for _ in range(100):
        wait_for_my_turn(page)
        if page.locator("#last-trick").count() and hand.count() >= 3:
            break
        v = version(page)
        take_a_turn(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v))
    else:
        raise AssertionError("never reached the second trick at my turn")

    page.locator("#last-trick summary").click()
    expect(page.locator("#last-trick")).to_have_attribute("open", "")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-desktop.png"), full_page=True)
    page.locator("#last-trick summary").focus()
    # After each frame: its version, whether it made it my turn (then the
    # focus rightly moves to my hand), and whether the focus stayed put.
    page.evaluate("""() => {
      window.seen = [];
      document.addEventListener("htmx:wsAfterMessage", () => window.seen.push([
        Number(document.getElementById("table").dataset.version),
        !!document.querySelector("#act-form button[name=action]"),
        document.activeElement.closest("#last-trick") !== null]));
    }""")
    start = version(page)
    # Moves without moving the focus: mine through the page's own form (its
    # answer morphs the table), the bots' as frames on the socket.
    while version(page) < start + 3:
        v = version(page)
        if page.locator(MY_TURN).count():
            page.locator(f"{MY_TURN}.card-button").first.evaluate("b => b.click()")
            expect(page.locator("#table")).not_to_have_attribute("data-version", str(v))
        else:  # a bot's move, or my turn come meanwhile
            page.wait_for_function(
                """v => Number(document.getElementById('table').dataset.version) > v
                    || !!document.querySelector('#act-form button[name=action]')""",
                arg=v,
                timeout=20000,
            )
    expect(page.locator("#last-trick")).to_have_attribute("open", "")
    seen = page.evaluate("() => window.seen")
    # (Taking a trick and leading again, it stays my turn: that is no new turn.)
    other = next(i for i, (_, my_turn, _) in enumerate(seen) if not my_turn)
    turn = next((i for i in range(other, len(seen)) if seen[i][1]), len(seen))
    # The others' moves before my turn kept the focus; my turn took it to my hand.
    assert all(focused for _, _, focused in seen[:turn]), seen
    assert all(not focused for _, _, focused in seen[turn:]), seen
    # Closed by the reader, it stays closed too.
    page.locator("#last-trick summary").click()
    start = version(page)
    wait_for_my_turn(page)
    if version(page) == start:
        page.locator(f"{MY_TURN}.card-button").first.evaluate("b => b.click()")
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(start))
    if page.locator("#last-trick").count():
        expect(page.locator("#last-trick")).not_to_have_attribute("open", "")
