from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

PASSWORD = "browser-secret-88"


def sign_up(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Email:").fill(f"{username}@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again):").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def version(page: Page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or 0)


def wait_for_version(page: Page, v: int) -> None:
    expect(page.locator("#table")).to_have_attribute("data-version", str(v), timeout=15000)


def take_a_turn(page: Page, timeout: float | None = None) -> None:
    """Click a sensible legal action on a page whose turn it is (`timeout`:
    how long a click may wait for its button, in ms; Playwright's default)."""
    form = page.locator("#act-form")
    keep = form.get_by_role("button", name="Keep these five")
    if keep.count():
        keep.click(timeout=timeout)
        return
    for name in [
        re.compile(r"^(Order it up|Assist|Accept) "),
        re.compile(r"^Use the dummy$"),
        re.compile(r"^Don't defend alone$"),
    ]:
        button = form.get_by_role("button", name=name)
        if button.count():
            button.first.click(timeout=timeout)
            return
    cards = form.locator("button.card-button[name=action]")
    if cards.count():
        cards.first.click(timeout=timeout)
        return
    form.locator("button").first.click(timeout=timeout)


def play_against_bots_until(page: Page, over: Locator, *, wait_ms: int = 30000) -> None:
    """Take the page's turns until `over` shows (the bots move in between);
    says at which version the bots stopped if they do."""
    for _ in range(400):
        mine = page.locator("#table .status").get_by_text("Your turn.")
        try:
            expect(mine.or_(over)).to_be_visible(timeout=wait_ms)
        except AssertionError:
            raise AssertionError(f"the bots stopped at version {version(page)}") from None
        if over.count():
            return
        v = version(page)
        take_a_turn(page)
        try:
            expect(page.locator("#table")).not_to_have_attribute(
                "data-version", str(v), timeout=wait_ms // 3
            )
        except AssertionError:
            continue  # a frame replaced the form under the click: look again
    expect(over).to_be_visible()


def open_more_options(page: Page) -> None:
    """The lobby's full table form is behind "More options" (issue 22): open it."""
    more = page.locator("details.more-options")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    expect(page.get_by_role("button", name="Open the table")).to_be_visible()


def open_a_table_against_bots(
    page: Page,
    base_url: str,
    username: str,
    name: str,
    target: int,
    levels: tuple[str, str],
    hints: bool = False,
) -> None:
    """Sign up and open a live table with bots of `levels` in seats 2 and 3
    (and hints, if asked); the game starts at once."""
    sign_up(page, base_url, username)
    open_more_options(page)
    page.get_by_label("Name:").fill(name)
    page.get_by_label("Play to (points):").fill(str(target))
    page.get_by_label("Seat 2:").select_option(levels[0])
    page.get_by_label("Seat 3:").select_option(levels[1])
    if hints:
        page.get_by_label(re.compile(r"^Hints:")).check()
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#table")).to_have_attribute("data-version", re.compile(r"[1-9]\d*"))
    # #table can show while the rest of the page is still being parsed (the
    # keyboard test then found no #table-announcer to observe).
    page.wait_for_load_state("domcontentloaded")


def open_chat(page: Page) -> None:
    """On a narrow screen the chat is a drawer over the felt: open it."""
    if not page.locator("#chat").is_visible():
        page.locator(".table-tools button[popovertarget=table-side]").click()
    expect(page.locator("#chat")).to_be_visible()


def open_panels(page: Page) -> None:
    """On a narrow screen the panels beside the felt (score pad, last trick,
    "let a bot play for me") are a drawer: open it."""
    if not page.locator("#table-panels").is_visible():
        page.locator(".table-tools button[popovertarget=table-panels]").click()
    expect(page.locator("#table-panels")).to_be_visible()
