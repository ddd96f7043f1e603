"""Two people become friends, one invites the other to a seat by name, and
they play a hand together (with a bot in the third seat), chatting with a
quick phrase and a typed message that each sees live."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import open_chat, open_more_options, sign_up, take_a_turn, version


def wait_past(page: Page, v: int) -> None:
    """Until the table is past version `v` (a bot may move twice in a row)."""
    page.wait_for_function(
        "v => +document.querySelector('#table').dataset.version > v", arg=v, timeout=30000
    )


SHOTS = os.environ.get("SCREENSHOTS_DIR")  # set it to look at the pages (README: screenshots)


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_friends_invite_by_name_and_play_a_hand(
    browser: Browser, base_url: str, celery_worker: Any
) -> None:
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 900}),
        browser.new_context(viewport={"width": 390, "height": 844}),
    ]
    ann, ben = (c.new_page() for c in contexts)
    sign_up(ann, base_url, "ann")
    sign_up(ben, base_url, "ben")

    # Ann finds ben by name and asks to be friends.
    ann.get_by_role("link", name="Friends").click()
    ann.get_by_role("navigation", name="Friends and players").get_by_role(
        "link", name="Find players"
    ).click()
    ann.get_by_label("Player's user name").fill("BE")
    ann.get_by_role("button", name="Search").click()
    ann.get_by_role("link", name="ben", exact=True).click()
    ann.get_by_role("button", name="Add friend").click()
    expect(ann.get_by_text("Friend request sent to ben.")).to_be_visible()
    shot(ann, "profile-request-sent")

    # Ben is told live (the badge) and accepts on his friends page.
    expect(ben.locator("#unread-badge")).to_contain_text("1")
    ben.get_by_label("Show menu").check()  # a phone: the menu opens first
    ben.get_by_role("link", name="Friends").click()
    shot(ben, "friends-request-phone")
    ben.get_by_role("button", name="Accept").click()
    expect(ben.get_by_text("You and ann are now friends.")).to_be_visible()
    # Ben's page is counted once its socket is open (the badge it sends says so).
    expect(ben.locator("#unread-badge[data-live]")).to_be_attached()
    ann.get_by_role("link", name="Friends").click()
    friend_row = ann.locator(".friend", has_text="ben")
    expect(friend_row).to_contain_text("online now")  # ben's page is open
    shot(ann, "friends-online")

    # Ann opens a table with a bot in seat 3 and invites ben to seat 2 by name.
    ann.get_by_role("link", name="Lobby").click()
    open_more_options(ann)
    ann.get_by_label("Name:").fill("Ann and Ben")
    ann.get_by_label("Play to (points):").fill("5")
    ann.get_by_label("Seat 2:").select_option("")  # open, to invite ben (a bot by default)
    ann.get_by_label("Seat 3:").select_option("easy")
    ann.get_by_role("button", name="Open the table").click()
    invite = ann.get_by_role("group", name="Invite a player")
    invite.get_by_label(re.compile("User name")).fill("ben")
    invite.get_by_label("Seat").select_option("1")
    invite.get_by_role("button", name="Invite").click()
    expect(ann.locator(".seat-list")).to_contain_text("held for ben")
    shot(ann, "table-seat-held")

    # Ben accepts in one click from the notification's page: seated, the game starts.
    expect(ben.locator("#unread-badge")).to_contain_text("2")  # the request, the invitation
    ben.get_by_label("Show menu").check()
    ben.get_by_role("link", name=re.compile("^Notifications")).click()
    ben.get_by_role("link", name="ann invites you to a seat at Ann and Ben.").click()
    shot(ben, "invitation-phone")
    ben.get_by_role("button", name="Accept and sit down").click()
    pages = [ann, ben]
    for page in pages:
        wait_past(page, 0)  # the game started (a bot may have moved already)
        # Five cards, or six for a dealer picking up the up card the bot ordered.
        page.wait_for_function(
            "[5, 6].includes(document.querySelectorAll('#table .hand .card').length)"
        )

    # They chat while they play: a quick phrase and a typed message, each seen live.
    ann.locator("#chat .chat-phrases").get_by_role("button", name="Well played").click()
    expect(ben.locator("#chat-log li").last).to_contain_text("ann: Well played")
    open_chat(ben)  # a phone: the chat is a drawer over the felt
    ben.locator("#chat-text").fill("thanks for the invite!")
    ben.locator("#chat-text").press("Enter")
    expect(ann.locator("#chat-log li").last).to_contain_text("ben: thanks for the invite!")
    ben.keyboard.press("Escape")  # the chat's drawer closes: back to the felt
    expect(ben.locator("#chat")).to_be_hidden()

    # One hand together (the bot moves by itself).
    for _ in range(80):
        if ann.locator(".hand-summary").count():
            break
        v = max(version(p) for p in pages)
        for p in pages:  # both pages up to date before asking whose turn it is
            wait_past(p, v - 1)
        turn = [p for p in pages if p.locator("#table .status").get_by_text("Your turn.").count()]
        if not turn:
            wait_past(ann, v)  # the bot's move
            continue
        turn[0].set_default_timeout(5000)
        try:
            take_a_turn(turn[0])
        except PlaywrightTimeout:
            continue  # a frame replaced the form under the click: look again
        finally:
            turn[0].set_default_timeout(30000)
        wait_past(ann, v)  # the move
    expect(ann.locator(".hand-summary")).to_contain_text("Hand 1")
    expect(ben.locator(".hand-summary")).to_contain_text("Hand 1")
    for c in contexts:
        c.close()
