"""The table's invitation link is on the address the page is served from
(issue 22: served on another port, it pointed to http://127.0.0.1:8000/)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .helpers import open_more_options, sign_up


def test_the_invitation_link_is_on_the_pages_own_address(page: Page, base_url: str) -> None:
    sign_up(page, base_url, "hosting")
    open_more_options(page)
    page.get_by_label("Name:").fill("Waiting room")
    page.get_by_label("Seat 2:").select_option("")  # open for a player
    page.get_by_role("button", name="Open the table").click()
    link = page.locator("a.invite-link")
    expect(link).to_have_text(f"{base_url}{link.get_attribute('href')}")
    page.goto(link.inner_text())
    expect(page.locator("#table")).to_be_visible()  # the link works where it says
