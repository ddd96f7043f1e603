from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .helpers import (
    open_a_table_against_bots,
    open_more_options,
    play_against_bots_until,
    sign_up,
    take_a_turn,
    version,
    wait_for_version,
)


def test_three_players_create_join_and_play_a_whole_hand(browser: Browser, base_url: str) -> None:
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    for page, name in zip(pages, ["alice", "bob", "carol"], strict=True):
        sign_up(page, base_url, name)

    alice, bob, carol = pages
    open_more_options(alice)
    alice.get_by_label("Name:").fill("Three friends")
    alice.get_by_label("Play to (points):").fill("5")
    alice.get_by_label("Seat 2:").select_option("")  # open for a player (a bot by default)
    alice.get_by_label("Seat 3:").select_option("")
    alice.get_by_role("button", name="Open the table").click()
    expect(alice.get_by_role("heading", name="Three friends")).to_be_visible()

    # The lobby updates live: bob sees the new table without reloading.
    bob.get_by_role("link", name="Three friends").click()
    bob.get_by_role("button", name="Sit here").first.click()
    expect(alice.get_by_text("bob")).to_be_visible()  # pushed to alice's open page
    carol.goto(bob.url)
    carol.get_by_role("button", name="Sit here").first.click()

    for page in pages:
        wait_for_version(page, 1)
        expect(page.get_by_role("group", name="Your cards").locator(".card")).to_have_count(5)

    for _ in range(60):
        v = version(alice)
        if alice.locator(".hand-summary").count():
            break
        turn = [p for p in pages if p.locator("#table .status").get_by_text("Your turn.").count()]
        assert len(turn) == 1, "exactly one page says it is its turn"
        take_a_turn(turn[0])
        for page in pages:
            wait_for_version(page, v + 1)  # every page updates from the others' moves
    summary = alice.locator(".hand-summary")
    expect(summary).to_contain_text("Hand 1")
    # The whole deal: 15 dealt to the players, the dummy 5, the kitty 4, then the 1 + 5 discards.
    expect(summary.locator(".card")).to_have_count(30)
    for page in pages:
        expect(page.locator(".hand-summary")).to_contain_text(
            re.compile(r"made (clubs|diamonds|hearts|spades)")
        )
    for c in contexts:
        c.close()


def test_a_whole_game_to_five_points_against_two_bots(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    open_a_table_against_bots(page, base_url, "dave", "Me and the bots", 5, ("easy", "medium"))

    over = page.get_by_role("heading", name=re.compile(r"won the game"))
    play_against_bots_until(page, over, wait_ms=20000)
    expect(over).to_be_visible()
    expect(page.get_by_role("button", name="Rematch, same seats")).to_be_visible()
    expect(page.get_by_role("link", name="Download the game record")).to_be_visible()
