from __future__ import annotations

from typing import Any

from playwright.sync_api import ConsoleMessage, Page, expect

from .helpers import sign_up, take_a_turn, version


def test_the_pages_work_under_the_content_security_policy(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    violations: list[str] = []

    def watch(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            violations.append(f"{page.url}: {message.text}")

    page.on("console", watch)
    response = page.goto(f"{base_url}/")
    assert response is not None and "script-src 'self'" in (
        response.headers.get("content-security-policy") or ""
    )
    sign_up(page, base_url, "csp-tester")
    page.get_by_role("radio", name="Easy").check()  # the lobby's "Play the computer"
    page.get_by_role("button", name="Play", exact=True).click()
    for _ in range(3):  # htmx posts and websocket pushes, both under the policy
        expect(page.locator("#table .status").get_by_text("Your turn.")).to_be_visible(
            timeout=20000
        )
        v = version(page)
        take_a_turn(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v), timeout=15000)
    for path in [
        "/games/mine/",
        "/notifications/",
        "/notifications/preferences/",
        "/profile/",
        "/lobby/",
    ]:
        page.goto(f"{base_url}{path}")
        page.wait_for_selector("#unread-badge[data-live]", state="attached")  # the socket connected
    assert violations == []
