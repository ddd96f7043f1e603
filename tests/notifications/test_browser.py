"""In Chromium against a real daphne: the badge and the toast arrive live over
the per-user socket, and the toast's link leads to its page."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from notifications import services
from tests.e2e.conftest import CHROMIUM, base_url, browser_type_launch_args  # noqa: F401
from tests.e2e.helpers import sign_up

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing"),
]


def test_a_new_notification_shows_live_and_its_link_works(page: Page, base_url: str) -> None:  # noqa: F811
    sign_up(page, base_url, "dora")
    dora: Any = get_user_model().objects.get(username="dora")
    badge = page.locator("#unread-badge")
    expect(badge).to_be_hidden()
    # The socket is open once its first badge has replaced the page's own.
    page.wait_for_selector("#unread-badge[data-live]", state="attached")

    # From another thread, as a worker would: Playwright's loop owns this one.
    tell = threading.Thread(
        target=services.notify,
        kwargs=dict(
            user=dora,
            kind="game_started",
            game=None,
            text="Your settings <changed>",
            url="/notifications/preferences/",
        ),
    )
    tell.start()
    tell.join(10)
    expect(badge).to_have_text("1 unread")
    toast = page.get_by_role("status").filter(has_text="Your settings <changed>")
    expect(toast).to_be_visible()
    toast.get_by_role("link").click()
    expect(page.get_by_role("heading", name="Notification settings")).to_be_visible()
    expect(badge).to_be_hidden()  # opened, so read

    services.notify(user=dora, kind="game_ended", game=None, text="Game over", url="/")
    services.notify(user=dora, kind="game_ended", game=None, text="Another", url="/")
    expect(badge).to_have_text("2 unread")
    page.get_by_role("link", name="Notifications").click()
    expect(page.locator(".notification.unread")).to_have_count(2)
    page.get_by_role("button", name="Mark all read").click()
    expect(page.locator(".notification.unread")).to_have_count(0)
    expect(badge).to_be_hidden()


def test_the_notification_pages_fit_a_phone_screen(page: Page, base_url: str) -> None:  # noqa: F811
    sign_up(page, base_url, "erin")
    erin: Any = get_user_model().objects.get(username="erin")
    services.notify(
        user=erin,
        kind="reminder",
        game=None,
        text="Your move at A rather long table name for a phone is due in 90 minutes.",
        url="/",
    )
    page.set_viewport_size({"width": 375, "height": 740})
    for path in ["/notifications/", "/notifications/preferences/"]:
        page.goto(f"{base_url}{path}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px on a phone"
    page.goto(f"{base_url}/notifications/")
    # Keyboard only: tab to "Mark read" and press it.
    button = page.get_by_role("button", name="Mark read")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".notification.unread")).to_have_count(0)
