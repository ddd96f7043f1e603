"""Installable (issue 22): every page registers the service worker, which
keeps the offline page at install; with the network gone a page asked for is
answered with it (in the language the worker was fetched in, styled from the
cache), and "Try again" loads the page again, as does the network coming
back. The manifest the page links speaks the page's language."""

from __future__ import annotations

from playwright.sync_api import Browser, expect


def test_a_page_asked_for_offline_gets_the_offline_page(browser: Browser, base_url: str) -> None:
    context = browser.new_context(locale="el-GR", extra_http_headers={"Accept-Language": "el"})
    page = context.new_page()
    try:
        page.goto(f"{base_url}/")
        # The worker is installed (the offline page kept) once it is active.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        manifest = page.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href, {credentials: 'include'})"
            ".then(r => r.json())"
        )
        assert manifest["lang"] == "el" and manifest["display"] == "standalone"

        context.set_offline(True)
        page.goto(f"{base_url}/rules/")
        expect(page.locator("html")).to_have_attribute("lang", "el")
        expect(page.locator("[data-reload]")).to_be_visible()
        assert page.url == f"{base_url}/rules/"  # the address kept: a reload is a retry
        # The offline page's own files came from the cache: it is styled.
        header = page.evaluate(
            "getComputedStyle(document.querySelector('.site-header')).backgroundImage"
        )
        assert "gradient" in header  # static/css/header.css
        assert (
            page.evaluate("getComputedStyle(document.querySelector('.error-ways')).display")
            == "flex"
        )

        # "Try again" while still offline: a new load, the offline page again.
        page.evaluate("window.before = true")
        page.locator("[data-reload]").click()
        page.wait_for_function("window.before === undefined")
        expect(page.locator("[data-reload]")).to_be_visible()
        # The network back: the page reloads itself (offline.js). Playwright
        # may tell the page before the worker's network is back, so that load
        # can fail once more; then a reload (what "Try again" does) is retried.
        context.set_offline(False)
        for _ in range(10):
            page.wait_for_timeout(300)
            page.wait_for_load_state()
            if page.locator("[data-reload]").count() == 0:
                break
            page.reload()
        expect(page.locator("[data-reload]")).to_have_count(0)
        expect(page.locator("#main h1").first).to_be_visible()
        assert page.url == f"{base_url}/rules/"
    finally:
        context.close()
