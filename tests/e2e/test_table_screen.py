"""The table as a player sees it (issue 20): one steady screen at every size,
motion that tells what happened, a hand's result that stays, and a felt whose
geometry is physical in every language.

Each game is played against two bots on the real daphne and Celery worker,
the bots answering at once (the test servers' pauses are 0)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import pgettext
from playwright.sync_api import Page, expect

from .helpers import open_a_table_against_bots, open_chat, open_panels, take_a_turn, version

SIZES = [(1280, 800), (1366, 768), (390, 844), (360, 640)]

# Recorded in the page from its first script on: the cumulative layout shift
# (shifts not caused by the player's own input), each card's arrival in the
# trick with the motion it came with, each complete trick's words, each lead,
# and how long each hand's result was on the screen.
RECORDER = """
(() => {
  const m = window.__table = { cls: 0, travels: [], events: [], results: {}, ready: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) m.cls += e.value;
  }).observe({ type: "layout-shift", buffered: true });
  const seen = new Set();
  let lastTrick = "";
  const look = () => {
    const felt = document.querySelector(".felt");
    if (!felt) return;
    const zone = felt.querySelector(".trick-zone");
    const cards = [...felt.querySelectorAll(".trick li[data-card]")];
    for (const li of cards) {
      const key = felt.dataset.hand + "/" + li.dataset.card;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!m.ready) continue;
      const where = ["left", "right", "bottom"].find((w) => li.classList.contains("slot-" + w));
      let dx = null, dy = null;
      for (const a of li.querySelector(".card").getAnimations()) {
        const first = a.effect.getKeyframes()[0];
        const t = /translate\\((-?[\\d.]+)px, (-?[\\d.]+)px\\)/.exec(first.transform || "");
        if (t) { dx = Number(t[1]); dy = Number(t[2]); }
      }
      m.travels.push({ where, dx, dy });
    }
    const state = felt.dataset.hand + ":" + cards.map((li) => li.dataset.card).join(",")
      + (zone.classList.contains("done") ? ":done" : "");
    if (state !== lastTrick) {
      lastTrick = state;
      const note = zone.querySelector(".trick-note");
      if (zone.classList.contains("done")) {
        m.events.push({ kind: "done", text: note.textContent.trim(), visible: note.checkVisibility() });
      } else if (cards.length === 1) {
        const taken = [...felt.querySelectorAll(".plate")].some((p) => p.dataset.tricks !== "0");
        m.events.push({ kind: "lead", after: taken });
      }
    }
  };
  const watchResult = () => {
    const box = document.querySelector("#hand-result");
    const now = performance.now();
    for (const r of Object.values(m.results)) if (r.open) { r.open = false; r.until = now; }
    if (box && box.checkVisibility()) {
      const r = m.results[box.dataset.result] || (m.results[box.dataset.result] = { from: now });
      r.open = true; r.until = now;
    }
  };
  document.addEventListener("htmx:wsAfterMessage", () => { m.ready = true; });
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
    look();
    window.setInterval(watchResult, 50);
  });
})();
"""

# What must lie inside the window, without scrolling, at every turn of the player.
ONE_SCREEN = """() => {
  const out = [];
  const [vw, vh] = [window.innerWidth, window.innerHeight];
  const inside = (el, what) => {
    if (!el) { out.push(what + ": missing"); return; }
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) out.push(what + ": not drawn");
    else if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
      out.push(`${what}: outside the window (${[r.left, r.top, r.right, r.bottom].map(Math.round)})`);
  };
  const felt = document.querySelector(".felt");
  for (const p of felt.querySelectorAll(".plate")) {
    const who = p.querySelector(".plate-name .who");
    inside(who, "the name of seat " + p.dataset.seat);
    inside(p.querySelector(".plate-score"), "the score of seat " + p.dataset.seat);
    inside(p.querySelector(".plate-tricks"), "the tricks of seat " + p.dataset.seat);
    if (who.scrollWidth > who.clientWidth + 1 || who.scrollHeight > who.clientHeight + 1)
      out.push("the name of seat " + p.dataset.seat + " is cut");
    if (!p.classList.contains("you") && p.querySelector(".fan .card"))
      inside(p.querySelector(".fan"), "the cards of seat " + p.dataset.seat);
  }
  inside(felt.querySelector(".status"), "the status line");
  const bidding = /phase-(bid1|joker_suit|dealer_pickup)\\b/.test(felt.className);
  inside(felt.querySelector(bidding ? ".up-card .card" : ".trump"), bidding ? "the up card" : "trump");
  inside(felt.querySelector(".trick-zone"), "the trick");
  inside(felt.querySelector(".hand"), "your hand");
  for (const b of document.querySelectorAll("#act-form button[name=action], #act-form .card-check"))
    inside(b, "the control " + (b.getAttribute("aria-label") || b.textContent.trim()));
  const result = document.querySelector("#hand-result");
  if (result && result.checkVisibility()) {  // the last hand's result, over the felt
    inside(result.querySelector(".result-close"), "the result's Continue button");
    if (result.scrollHeight > result.clientHeight + 1 || result.scrollWidth > result.clientWidth + 1)
      out.push(`the hand's result scrolls (${result.scrollWidth}x${result.scrollHeight} in ${result.clientWidth}x${result.clientHeight})`);
  }
  const page = document.scrollingElement;
  if (page.scrollHeight > page.clientHeight + 1 || window.scrollY) out.push("the page scrolls");
  return out;
}"""


def play_the_game(page: Page, *, check: bool = True) -> list[str]:
    """Take the player's turns until the game is over; at each, what of the
    one screen is missing or out of the window."""
    wrong: list[str] = []
    over = page.locator(".game-over")
    mine = page.locator(".felt.your-turn #act-form")
    for _ in range(400):
        expect(mine.or_(over)).to_be_visible(timeout=30000)
        if over.count():
            return wrong
        if check:
            wrong += [f"v{version(page)}: {w}" for w in page.evaluate(ONE_SCREEN)]
        v = version(page)
        take_a_turn(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v), timeout=30000)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_whole_game_fits_one_steady_screen(
    page: Page, base_url: str, celery_worker: Any, size: tuple[int, int]
) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(RECORDER)
    # A name as long as the site allows (30 characters): it wraps or shrinks, never cut.
    name = f"a-rather-long-player-name-{width}"[:30]
    open_a_table_against_bots(page, base_url, name, "Fits", 5, ("hard", "medium"))
    wrong = play_the_game(page)
    shift = page.evaluate("() => window.__table.cls")
    print(f"\nlayout shift over a whole game at {width}x{height}: {shift:.4f}")
    assert not wrong, "\n".join(wrong[:20])
    assert shift < 0.1
    # The end: the final standings, a rematch and the way back to the lobby, on the screen.
    over = page.locator(".game-over")
    expect(over.locator("table.standings tbody tr")).to_have_count(3)
    # The rating change comes from the worker's statistics task, a moment later.
    expect(over.locator("tr.you .delta")).to_have_text(re.compile(r"^[+-]\d+$"), timeout=20000)
    for control in (
        page.get_by_role("button", name="Rematch, same seats"),
        page.get_by_role("link", name="Back to the lobby"),
    ):
        expect(control).to_be_in_viewport(ratio=1)


def test_the_play_is_shown_in_motion_and_a_hand_result_stays(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.add_init_script(RECORDER)
    open_a_table_against_bots(page, base_url, "mover", "Motion", 10, ("easy", "medium"))
    result = page.locator("#hand-result")
    mine = page.locator(".felt.your-turn #act-form")
    for _ in range(60):
        expect(mine.or_(result).first).to_be_visible(timeout=30000)
        if result.is_visible():
            break
        v = version(page)
        take_a_turn(page)
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v), timeout=30000)
    # The hand's result is on the felt, and stays at least 4 s in a live game
    # while nothing else happens (the bots, here instant, wait for the player).
    expect(result).to_be_visible()
    expect(result.get_by_role("heading")).to_have_text(re.compile(r"Hand 1: (thrown in|.+ made )"))
    page.wait_for_timeout(4100)  # what is measured is time itself
    shown = page.evaluate(
        "(key) => window.__table.results[key]", result.get_attribute("data-result")
    )
    assert shown["until"] - shown["from"] >= 4000, shown

    m = page.evaluate("() => window.__table")
    others = [t for t in m["travels"] if t["where"] != "bottom"]
    assert len(others) >= 6, m["travels"]
    for t in others:  # from the seat's side: the left seat's card comes from the left
        assert t["dx"] is not None, f"a card of the {t['where']} seat appeared without motion"
        assert (t["dx"] < 0) == (t["where"] == "left"), t
    mine_played = [t for t in m["travels"] if t["where"] == "bottom"]
    assert mine_played and all(t["dy"] is not None and t["dy"] > 0 for t in mine_played)
    # Every complete trick is named in words before the next lead.
    events = m["events"]
    leads = [i for i, e in enumerate(events) if e["kind"] == "lead" and e["after"]]
    assert len(leads) >= 3, events
    for i in leads:
        before = next(e for e in reversed(events[:i]) if e["kind"] in ("done", "lead"))
        assert before["kind"] == "done", events[: i + 1]
        assert before["visible"] and re.fullmatch(r"★ .+ wins the trick\.", before["text"]), before


def test_in_arabic_cards_read_left_to_right_and_left_is_left(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_a_table_against_bots(page, base_url, "layla", "Arabic", 10, ("easy", "medium"))
    with page.expect_navigation():  # the language menu's Arabic button (a plain form post)
        page.evaluate(
            """() => document.querySelector('.language-menu button[lang="ar"]').click()"""
        )
    with translation.override("ar"):
        on_your_left = pgettext("seat", "on your left")
    for _ in range(8):  # some turns, so that cards lie in the trick too
        page.reload()
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        outside = page.evaluate(
            """() => [...document.querySelectorAll(".felt .card:not(.back)")].flatMap((card) => {
              const box = card.getBoundingClientRect();
              return [...card.querySelectorAll("use[href^='#face-']")].filter((t) => {
                const r = t.getBoundingClientRect();
                return r.left < box.left - 0.5 || r.right > box.right + 0.5;
              }).map((t) => card.dataset.card + ": " + t.getAttribute("href"));
            })"""
        )
        assert not outside, outside
        # Each stack of card backs (the dummy, the kitty, a seat's hand) stays
        # in its own box: in Arabic it once spilled over the dummy's label by
        # 17 px. (A seat's fan tilts its cards by a few degrees: 3 px of slack.)
        spilled = page.evaluate(
            """() => [...document.querySelectorAll(".felt .pile-cards, .felt .fan")].flatMap((stack) => {
              const box = stack.getBoundingClientRect();
              const cards = [...stack.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
              if (!cards.length) return [];
              const [left, right] = [Math.min(...cards.map((r) => r.left)), Math.max(...cards.map((r) => r.right))];
              return left < box.left - 3 || right > box.right + 3
                ? [`${stack.closest("[aria-label], .plate").className}: ${left}-${right} in ${box.left}-${box.right}`] : [];
            })"""
        )
        assert not spilled, spilled
        expect(page.locator(".plate-left")).to_contain_text(on_your_left)
        x = page.evaluate(
            """() => Object.fromEntries([".plate-left", ".plate-right", ".slot-left", ".slot-right"]
              .map((s) => [s, document.querySelector(s).getBoundingClientRect().left]))"""
        )
        assert x[".plate-left"] < x[".plate-right"] and x[".slot-left"] < x[".slot-right"], x
        mine = page.locator(".felt.your-turn #act-form")
        expect(mine.or_(page.locator(".game-over"))).to_be_visible(timeout=30000)
        if not mine.count():
            break
        v = version(page)
        mine.locator(".card-button[name=action], .actions button").first.click()
        expect(page.locator("#table")).not_to_have_attribute("data-version", str(v))


def test_on_a_phone_the_panels_and_the_chat_open_as_drawers_over_the_felt(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_a_table_against_bots(page, base_url, "drawers", "Drawers", 10, ("easy", "medium"))
    panels, side = page.locator("#table-panels"), page.locator("#table-side")
    expect(panels).to_be_hidden()
    expect(side).to_be_hidden()
    open_panels(page)
    expect(page.get_by_role("button", name="Let a bot play for me")).to_be_in_viewport()
    page.keyboard.press("Escape")
    expect(panels).to_be_hidden()
    open_chat(page)
    expect(page.locator("#chat-text")).to_be_in_viewport()
    page.get_by_role("button", name="Close").click()
    expect(side).to_be_hidden()
    # Wide: both sit beside the felt, no button needed.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(panels).to_be_visible()
    expect(side).to_be_visible()
    expect(page.locator(".table-tools")).to_be_hidden()
