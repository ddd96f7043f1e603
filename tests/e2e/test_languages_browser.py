"""A whole hand played in Arabic on phones (360 px, right to left) and one in
Thai, driven without a word of English: the pages are found by their
structure (the acting seat has the move buttons), and every page is checked
for its language, its direction and that nothing scrolls sideways.

Screenshots of each language's table land in var/screenshots/ to be looked at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import services
from tests.games.wsclient import session_cookie

from .helpers import version, wait_for_version

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def seated_pages(
    browser: Browser,
    base_url: str,
    users: list[Any],
    *,
    locale: str,
    width: int,
    profile_language: list[str],
) -> tuple[list[BrowserContext], list[Page], Any]:
    """Three players at a live table, each in a browser whose Accept-Language
    is `locale` and whose profile language is the matching entry ("" for
    none: then the browser's language is the one that counts)."""
    contexts, pages = [], []
    for user, chosen in zip(users, profile_language, strict=True):
        cookie = session_cookie(user)
        # Logging in remembers the request's language; set what the test wants.
        type(user).objects.filter(pk=user.pk).update(language=chosen)
        context = browser.new_context(locale=locale, viewport={"width": width, "height": 780})
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}]
        )
        contexts.append(context)
        pages.append(context.new_page())
    table = services.table_create(
        owner=users[0], name="طاولة", rules={}, target=5, mode="live", move_seconds=None,
        visibility="public",
    )  # fmt: skip
    for position, user in enumerate(users[1:], start=1):
        services.table_join(table=table, user=user, position=position)
    for page in pages:
        page.goto(base_url + table.get_absolute_url())
        wait_for_version(page, 1)
    return contexts, pages, table


def in_language(message: str, language: str) -> str:
    with translation.override(language):
        text = gettext(message)
    assert text != message, f"{message!r} has no {language} translation"
    return text


def speaks(page: Page, language: str, direction: str) -> None:
    """The page says its language and direction, and does not scroll sideways."""
    assert page.evaluate("() => [document.documentElement.lang, document.dir]") == [
        language,
        direction,
    ]
    no_sideways_scroll(page)


def no_sideways_scroll(page: Page) -> None:
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def play_one_hand(pages: list[Page], check: Any) -> None:
    """Each move by whichever page has the move buttons (its first choice
    that is not a pass, so the hand is played out: the first card, the first
    call, the five cards offered to keep), until the hand's summary shows; `check(page)` runs on every page after
    every move."""
    first = pages[0]
    for _ in range(80):
        if first.locator(".hand-summary").count():
            return
        v = version(first)
        acting = [p for p in pages if p.locator("#act-form button[name=action]").count()]
        assert len(acting) == 1, "exactly one page has the move buttons"
        moves = acting[0].locator("#act-form button[name=action]")
        not_pass = acting[0].locator("#act-form button[name=action]:not([value*='\"pass\"'])")
        (not_pass if not_pass.count() else moves).first.click()
        for page in pages:
            wait_for_version(page, v + 1)
            check(page)
    raise AssertionError("the hand did not end in 80 moves")


def assert_played_out(table: Any) -> None:
    """The first hand was made and its five tricks played (not thrown in)."""
    result = table.games.get().hands.get(number=0).result
    assert result["complete"] and not result["thrown_in"]
    assert sum(result["tricks"]) == 5


def test_a_whole_hand_in_arabic_on_a_phone_reads_right_to_left(
    browser: Browser, base_url: str, alice: Any, bob: Any, carol: Any
) -> None:
    contexts, pages, table = seated_pages(
        browser, base_url, [alice, bob, carol], locale="ar", width=360,
        profile_language=["ar", "ar", ""],
    )  # fmt: skip

    def check(page: Page) -> None:
        speaks(page, "ar", "rtl")

    for page in pages:
        check(page)
        # The text runs from the right (the status line starts there), while the
        # felt's geometry stays physical (test_table_screen: left is left).
        status = page.locator("#table .status").bounding_box()
        felt = page.locator(".felt").bounding_box()
        assert status and felt and status["x"] + status["width"] >= felt["x"] + felt["width"] - 20
        expect(page.locator(".felt")).to_have_attribute(
            "aria-label", in_language("The table", "ar")
        )
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages[0].screenshot(path=str(SHOTS / "table-ar-360.png"), full_page=True)
    play_one_hand(pages, check)
    pages[0].screenshot(path=str(SHOTS / "hand-over-ar-360.png"), full_page=True)
    for page in pages:  # the hand's result on the felt (its details are in the drawer)
        expect(page.locator("#hand-result")).to_be_visible()
        expect(page.locator(".hand-summary")).to_be_attached()
    assert_played_out(table)
    for c in contexts:
        c.close()


def test_a_whole_hand_in_thai(
    browser: Browser, base_url: str, alice: Any, bob: Any, carol: Any
) -> None:
    contexts, pages, table = seated_pages(
        browser, base_url, [alice, bob, carol], locale="th", width=1024,
        profile_language=["th", "", "th"],
    )  # fmt: skip

    def check(page: Page) -> None:
        speaks(page, "th", "ltr")
        # Thai wraps without clipping: no text box is cut short by its own width.
        clipped = page.evaluate(
            """() => [...document.querySelectorAll('#table button, #table .tag, #table .status')]
                .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())"""
        )
        assert clipped == []

    expect(pages[1].locator(".felt")).to_have_attribute(
        "aria-label", in_language("The table", "th")
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages[1].screenshot(path=str(SHOTS / "table-th.png"), full_page=True)
    play_one_hand(pages, check)
    pages[1].screenshot(path=str(SHOTS / "hand-over-th.png"), full_page=True)
    for page in pages:
        expect(page.locator(".hand-summary")).to_be_visible()
    assert_played_out(table)
    for c in contexts:
        c.close()
