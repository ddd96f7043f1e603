"""The guided first hand (/learn/), start to end, by clicking: in English at
1280x800 from the home page, with a wrong move on the way, and in Arabic on
a 390 px phone (right to left) from the rules page, found by the page's
structure rather than its words. Every lesson page is checked for sideways
scrolling, some with axe, and screenshots land in var/screenshots/.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from euchre_site.tutorial import encode
from games import tutorial

from .test_accessibility import problems

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
# The lessons looked at by axe: the bidding, the discard, the keep-five, a play, the end.
AXE_STEPS = {2, 3, 5, 9, tutorial.LAST}


def _progress(page: Page) -> int:
    return int(page.locator("#lesson-progress").get_attribute("value") or 0)


def _through(page: Page, name: str, *, wrong_move_at: int | None = None) -> None:
    """Play every lesson from the first page on, clicking the lesson's move."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for index, step in enumerate(tutorial.STEPS):
        expect(page.locator("#lesson-progress")).to_have_attribute("value", str(index + 1))
        expect(page.locator(".coach-say")).not_to_be_empty()
        if index in AXE_STEPS:
            assert problems(page) == [], (name, index)
        else:
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, (name, index, overflow)
        if index in (0, 3, 5, 9, tutorial.LAST):
            page.screenshot(path=str(SHOTS / f"tutorial-{name}-{index:02d}.png"), full_page=True)
        if index == wrong_move_at:
            assert step.expect is not None
            wrong = next(
                b
                for b in page.locator("#act-form button[name=action]").all()
                if b.get_attribute("value") not in (encode(step.expect), "keep")
            )
            wrong.click()
            expect(page.locator(".coach-note")).to_be_visible()
            assert _progress(page) == index + 1  # nothing changed: the same lesson
        if step.expect is None:
            if index == tutorial.LAST:
                break
            page.locator(".next-button").click()
        elif step.expect.type == "dummy" and step.expect.keep:
            # The five are ticked for the reader: keeping them goes on.
            checked = page.locator(".card-check input:checked")
            expect(checked).to_have_count(5)
            page.locator("#act-form button[value=keep]").click()
        else:
            page.locator(f"#act-form button[name=action][value='{encode(step.expect)}']").click()
    # The end: the score from the engine, and the ways on.
    expect(page.locator(".hand-result")).to_be_visible()
    expect(page.locator(".hand-result tr.you td").nth(1)).to_have_text("+1")
    assert page.locator(".coach-end a.button").count() == 2


def test_the_guided_hand_in_english_on_a_desktop(browser: Browser, base_url: str) -> None:
    context = browser.new_context(locale="en", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base_url + "/")
    page.get_by_role("link", name="Learn by playing (2 minutes)").click()
    expect(page.get_by_role("heading", name="Your first hand")).to_be_visible()
    _through(page, "desktop", wrong_move_at=2)
    page.get_by_role("link", name="Read the rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Cutthroat Euchre")
    context.close()


def test_the_guided_hand_in_arabic_on_a_phone(browser: Browser, base_url: str) -> None:
    context = browser.new_context(locale="ar", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(base_url + "/rules/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.locator(".rules-learn a").click()
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    _through(page, "phone-ar", wrong_move_at=9)
    context.close()
