"""The site header: one compact bar on every page, in every language.

At most 64 px tall at 1280 px and 56 px on phones (390x844, 360x640), in
the six site languages, signed in and out, everything on one row (nothing
wraps or spills out of the bar). The phone's menu and the language menu
open over the page instead of pushing it down, and choosing a language from
the menu works without JavaScript.

Screenshots of the lobby's header land in var/screenshots/ to be looked at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, BrowserContext, Page, expect

from notifications.models import Notification
from tests.games.wsclient import session_cookie

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
LANGS = [code for code, _ in settings.LANGUAGES]
NAMES = dict(settings.LANGUAGES)
# (width, height) -> the tallest the header may be
VIEWPORTS = {(1280, 800): 64, (390, 844): 56, (360, 640): 56}
HEIGHTS: dict[tuple[int, str], list[float]] = {}

MEASURE = """() => {
  const header = document.querySelector('.site-header');
  const nav = header.querySelector('.nav');
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
  // What sits in the bar: the brand, the menu button, the language menu, and
  // the links when they are in the bar (not folded into the phone's menu).
  const links = header.querySelector('.nav-links');
  const inBar = getComputedStyle(links).position !== 'absolute';
  const items = [...nav.querySelectorAll(
    ':scope > .brand, :scope > .nav-toggle-label, :scope > .nav-tools .menu-summary'
    + (inBar ? ', :scope > .nav-links > li' : ''))].filter(shown);
  const bar = header.getBoundingClientRect();
  const outside = items.filter((e) => {
    const r = e.getBoundingClientRect();
    return r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5 || r.left < -0.5
      || r.right > document.documentElement.clientWidth + 0.5;
  }).map((e) => e.textContent.trim());
  const middles = new Set(items.map((e) => {
    const r = e.getBoundingClientRect(); return Math.round((r.top + r.bottom) / 2 / 4);
  }));
  return {
    height: bar.height, rows: middles.size, outside, linksInBar: inBar,
    spills: nav.scrollWidth - nav.clientWidth,
  };
}"""


def main_top(page: Page) -> float:
    return float(page.evaluate("() => document.getElementById('main').getBoundingClientRect().top"))


@pytest.fixture
def player(db: Any) -> Any:
    """A signed-in player with a longish name and unread notifications (the badge shows)."""
    user = get_user_model().objects.create_user(
        "konstantina_papadopoulou", "kp@example.com", "pw-kp-123"
    )
    for _ in range(3):
        Notification.objects.create(user=user, kind="game_ended", params={}, url="/")
    return user


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for c in made:
        c.close()


def signed_in_page(
    browser: Browser, contexts: list[BrowserContext], base_url: str, user: Any, lang: str,
    viewport: tuple[int, int], **options: Any,
) -> Page:  # fmt: skip
    type(user).objects.filter(pk=user.pk).update(language=lang)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **options)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user), "url": base_url}]
    )
    contexts.append(context)
    return context.new_page()


def check_header(page: Page, limit: int, where: str, wrong: dict[str, Any]) -> float:
    m = page.evaluate(MEASURE)
    if m["height"] > limit:
        wrong[f"{where}: height"] = m["height"]
    if m["rows"] != 1:
        wrong[f"{where}: rows"] = m["rows"]
    if m["outside"]:
        wrong[f"{where}: outside the bar"] = m["outside"]
    if m["spills"] > 0:
        wrong[f"{where}: the bar's content is wider than the bar by"] = m["spills"]
    if page.viewport_size and page.viewport_size["width"] >= 1280 and not m["linksInBar"]:
        wrong[f"{where}: the links are folded into the menu at 1280 px"] = True
    return float(m["height"])


def check_overlays(page: Page, where: str, wrong: dict[str, Any]) -> None:
    """The phone's menu (where there is one) and the language menu open over
    the page: the page does not move, the header keeps its height, and the
    menus' targets are at least 44 px tall and inside the window."""
    top = main_top(page)
    height = page.locator(".site-header").bounding_box()["height"]  # type: ignore[index]
    toggle = page.locator(".nav-toggle-label")
    if toggle.is_visible():
        toggle.click()
        links = page.locator(".nav-links")
        if not links.is_visible():
            wrong[f"{where}: the menu button shows no links"] = True
        elif links.evaluate("e => getComputedStyle(e).position") != "absolute":
            wrong[f"{where}: the phone's menu is not over the page"] = True
        small = links.locator("a, button").evaluate_all(
            "es => es.filter(e => e.getBoundingClientRect().height < 44).map(e => e.textContent.trim())"
        )
        if small:
            wrong[f"{where}: menu targets under 44 px"] = small
        if main_top(page) != top:
            wrong[f"{where}: the phone's menu pushes the page down"] = main_top(page) - top
        toggle.click()
        expect(links).to_be_hidden()
    page.locator(".language-summary").click()
    panel = page.locator(".language-form")
    expect(panel).to_be_visible()
    boxes = panel.locator("button").evaluate_all(
        "es => es.map(e => { const r = e.getBoundingClientRect(); return [r.height, r.left, r.right]; })"
    )
    width = page.evaluate("() => document.documentElement.clientWidth")
    if len(boxes) != len(LANGS):
        wrong[f"{where}: language buttons"] = len(boxes)
    if any(h < 44 or left < 0 or right > width for h, left, right in boxes):
        wrong[f"{where}: language buttons small or outside the window"] = boxes
    if main_top(page) != top:
        wrong[f"{where}: the language menu pushes the page down"] = main_top(page) - top
    if page.locator(".site-header").bounding_box()["height"] != height:  # type: ignore[index]
        wrong[f"{where}: the language menu makes the header taller"] = True
    page.locator(".language-summary").click()
    expect(panel).to_be_hidden()


@pytest.mark.parametrize("viewport", list(VIEWPORTS), ids=lambda v: f"{v[0]}x{v[1]}")
def test_the_header_is_one_compact_row_in_every_language(
    browser: Browser, base_url: str, player: Any, contexts: list[BrowserContext],
    viewport: tuple[int, int],
) -> None:  # fmt: skip
    limit = VIEWPORTS[viewport]
    wrong: dict[str, Any] = {}
    for lang in LANGS:
        heights = HEIGHTS.setdefault((viewport[0], lang), [])
        page = signed_in_page(browser, contexts, base_url, player, lang, viewport)
        for path in ("/lobby/", "/", "/rules/"):
            page.goto(base_url + path)
            assert page.evaluate("() => document.documentElement.lang") == lang
            where = f"{lang} {path} signed in"
            heights.append(check_header(page, limit, where, wrong))
            if path == "/lobby/":
                check_overlays(page, where, wrong)
        anonymous = browser.new_context(
            locale=lang, viewport={"width": viewport[0], "height": viewport[1]}
        )
        contexts.append(anonymous)
        page = anonymous.new_page()
        for path in ("/", "/accounts/login/"):
            page.goto(base_url + path)
            assert page.evaluate("() => document.documentElement.lang") == lang
            where = f"{lang} {path} signed out"
            heights.append(check_header(page, limit, where, wrong))
            if path == "/":
                check_overlays(page, where, wrong)
    print(f"\nheader heights at {viewport[0]}x{viewport[1]} (px, limit {limit}):")
    for lang in LANGS:
        print(f"  {lang}: {sorted(set(HEIGHTS[(viewport[0], lang)]))}")
    assert wrong == {}


def test_choosing_a_language_from_the_menu_works_without_javascript(
    browser: Browser, base_url: str, player: Any, contexts: list[BrowserContext]
) -> None:
    page = signed_in_page(
        browser, contexts, base_url, player, "", (390, 844), java_script_enabled=False
    )
    page.goto(base_url + "/lobby/")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    summary = page.locator(".language-summary")
    expect(summary).to_have_accessible_name("Language: English")
    summary.click()
    current = page.locator(".language-form button[aria-current]")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("lang", "en")
    greek = page.get_by_role("button", name=NAMES["el"])
    expect(greek).to_have_attribute("lang", "el")
    greek.click()
    page.wait_for_url(base_url + "/lobby/")
    assert page.evaluate("() => [document.documentElement.lang, document.dir]") == ["el", "ltr"]
    expect(summary).to_have_accessible_name(f"Γλώσσα: {NAMES['el']}")
    player.refresh_from_db()
    assert player.language == "el"  # the player's own choice, for e-mails and pushes too

    # Signed out, the language cookie carries the choice: Arabic, right to left.
    anonymous = browser.new_context(
        java_script_enabled=False, viewport={"width": 1280, "height": 800}
    )
    contexts.append(anonymous)
    page = anonymous.new_page()
    page.goto(base_url + "/rules/")
    page.locator(".language-summary").click()
    page.get_by_role("button", name=NAMES["ar"]).click()
    page.wait_for_url(base_url + "/rules/")
    assert page.evaluate("() => [document.documentElement.lang, document.dir]") == ["ar", "rtl"]
    expect(page.locator(".language-form button[aria-current]")).to_have_attribute("lang", "ar")


def test_the_language_menu_closes_like_a_menu(
    browser: Browser, base_url: str, player: Any, contexts: list[BrowserContext]
) -> None:
    """With JavaScript: Escape closes it and gives the focus back to its
    button; so does a click elsewhere; the keyboard reaches every language."""
    page = signed_in_page(browser, contexts, base_url, player, "", (1280, 800))
    page.goto(base_url + "/lobby/")
    menu = page.locator("details.language-menu")
    summary = menu.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    expect(menu.locator("button").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(summary).to_be_focused()
    summary.click()
    expect(menu.locator(".language-form")).to_be_visible()
    page.locator("#main").click(position={"x": 5, "y": 5})
    expect(menu.locator(".language-form")).to_be_hidden()


def test_screenshots_of_the_header(
    browser: Browser, base_url: str, player: Any, contexts: list[BrowserContext]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "ar"):
        for width, height in ((1280, 800), (390, 844)):
            page = signed_in_page(browser, contexts, base_url, player, lang, (width, height))
            page.goto(base_url + "/lobby/")
            name = f"header-{lang}-{width}"
            page.screenshot(path=str(SHOTS / f"{name}.png"))
            page.locator(".language-summary").click()
            expect(page.locator(".language-form")).to_be_visible()
            page.wait_for_timeout(300)  # the chevron's turn
            page.screenshot(path=str(SHOTS / f"{name}-language.png"))
            page.keyboard.press("Escape")
            toggle = page.locator(".nav-toggle-label")
            if toggle.is_visible():
                toggle.click()
                page.screenshot(path=str(SHOTS / f"{name}-menu.png"))
