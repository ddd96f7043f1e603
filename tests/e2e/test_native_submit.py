"""A form from a pushed table carries no CSRF token (the worker renders it
without the reader's session); if it is submitted natively, before htmx
bound it, the page adds the token and the post goes through."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .helpers import open_a_table_against_bots


def test_a_pushed_form_submitted_natively_still_carries_the_token(
    page: Page, base_url: str, celery_worker: Any
) -> None:
    open_a_table_against_bots(page, base_url, "nico", "Native", 10, ("easy", "easy"))
    # The form as a frame brings it (no token), posted natively (not by htmx).
    page.evaluate("""() => {
      const form = document.querySelector("form.autopilot");
      const copy = form.cloneNode(true);
      copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((i) => i.remove());
      copy.removeAttribute("hx-post");
      form.replaceWith(copy);
    }""")
    page.locator("form.autopilot button").click()
    expect(page.get_by_text("A bot is playing your seat.")).to_be_visible()
    expect(page.get_by_text("CSRF verification failed")).to_have_count(0)
