"""Two players chat at their table in real browsers against daphne: a quick
phrase and a typed message reach the other page live (the phrase in the
reader's language, the text as typed, escaped), the text field empties for
the next message, and a mute from a message's menu takes the sender's
messages off the page and keeps new ones away. Bob reads on a phone in
Arabic (right to left); axe finds nothing serious on either page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext
from playwright.sync_api import Browser, Page, expect

from games import services
from tests.games.wsclient import session_cookie

from .helpers import open_chat, wait_for_version
from .test_accessibility import problems

SHOTS = os.environ.get("SCREENSHOTS_DIR")  # set it to look at the pages


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator("#chat").screenshot(path=f"{SHOTS}/{name}.png")


def page_for(browser: Browser, base_url: str, user: Any, width: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 860})
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user), "url": base_url}]
    )
    return context.new_page()


def test_two_players_chat_live(
    browser: Browser, base_url: str, alice: Any, bob: Any, carol: Any
) -> None:
    table = services.table_create(
        owner=alice, name="Chat table", rules={}, target=5, mode="live", move_seconds=None,
        visibility="public",
    )  # fmt: skip
    ann = page_for(browser, base_url, alice, 1280)
    ben = page_for(browser, base_url, bob, 390)
    type(bob).objects.filter(pk=bob.pk).update(language="ar")
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    for page in (ann, ben):
        page.goto(base_url + table.get_absolute_url())
        wait_for_version(page, 1)
    assert ben.evaluate("() => document.dir") == "rtl"

    # A quick phrase: Bob reads it in his own language.
    with translation.override("ar"):
        good_game = pgettext("chat phrase", "Good game")
    ann.locator("#chat .chat-phrases").get_by_role("button", name="Good game").click()
    expect(ben.locator("#chat-log li").last).to_contain_text(good_game)
    expect(ann.locator("#chat-log li").last).to_contain_text("alice: Good game")

    # A typed message, sent with Enter: shown as typed on both pages, said to screen readers.
    open_chat(ben)  # a phone: the chat is a drawer over the felt
    text = ben.locator("#chat-text")
    text.fill("hello <b>alice</b>")
    text.press("Enter")
    expect(ann.locator("#chat-log li").last).to_contain_text("hello <b>alice</b>")
    expect(ann.locator("#chat-announcer")).to_contain_text("bob wrote: hello <b>alice</b>")
    expect(text).to_have_value("")
    expect(text).to_be_focused()
    shot(ann, "chat-desktop")
    shot(ben, "chat-ar-390")

    # Bob mutes alice from her message's menu: her messages go, new ones stay away.
    ben.locator("#chat-log li").first.locator("summary").click()
    assert problems(ann) == [] and problems(ben) == []  # axe, menu open, and no sideways scroll
    ben.locator("#chat-log li").first.locator("form.chat-mute button").click()
    expect(ben.locator("#chat-status")).to_contain_text("alice")
    expect(ben.locator("#chat-log li")).to_have_count(1)  # his own
    ann.locator("#chat .chat-phrases").get_by_role("button", name="Thanks").click()
    expect(ann.locator("#chat-log li")).to_have_count(3)
    ben.wait_for_timeout(500)
    expect(ben.locator("#chat-log li")).to_have_count(1)
