"""The site's own pages speak the reader's language: the layout, the front
page, the error page, the profile's language choice, the account pages
(allauth's catalogs) and the scripts' catalog, within the CSP."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from euchre_site import views

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def alice() -> Any:
    return User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)">', html)
    assert match, html[:200]
    return match.group(1)


def test_every_page_loads_the_script_catalog_first_from_the_site_itself(client: Client) -> None:
    response = client.get(reverse("home"))
    html = response.content.decode()
    scripts = re.findall(r"<script\b([^>]*)>", html)
    sources = [re.search(r'src="([^"]+)"', s) for s in scripts]
    assert all(sources), "no inline scripts (the CSP allows only the site's files)"
    urls = [m.group(1) for m in sources if m]
    assert urls[0] == reverse("javascript-catalog") == "/jsi18n/"
    assert urls.index("/jsi18n/") < urls.index("/static/js/site.js")
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_script_catalog_is_javascript_in_the_pages_language(client: Client) -> None:
    response = client.get("/jsi18n/", headers={"accept-language": "ru"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert "django.gettext" in body and "django.interpolate" in body
    assert response["Content-Language"] == "ru"


@pytest.mark.parametrize(("language", "direction"), [("el", "ltr"), ("ar", "rtl"), ("th", "ltr")])
def test_the_front_page_follows_accept_language(
    client: Client, language: str, direction: str
) -> None:
    html = client.get(reverse("home"), headers={"accept-language": language}).content.decode()
    assert f'<html lang="{language}" dir="{direction}">' in html


def test_the_nav_and_the_front_page_link_to_the_rules(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert reverse("rules") == "/rules/"
    nav = html[html.index('<nav class="nav"') : html.index("</nav>")]
    assert '<a href="/rules/" >Rules</a>' in nav
    main = html[html.index('<main id="main"') : html.index("</main>")]
    assert '<a href="/rules/">How to play</a>' in main
    # The rules page marks its own nav link as the current page.
    rules = client.get("/rules/").content.decode()
    assert '<a href="/rules/" aria-current="page">Rules</a>' in rules


def test_the_skip_link_footer_and_menu_label_are_there(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert '<a class="skip-link" href="#main">Skip to content</a>' in html
    assert 'aria-label="Show menu"' in html and 'aria-label="Main"' in html
    assert "Three-handed Euchre: you against two, then two against you." in html


def test_the_account_pages_come_in_allauths_own_greek(client: Client) -> None:
    html = client.get(reverse("account_login"), headers={"accept-language": "el"}).content.decode()
    assert html_lang(html) == "el"
    assert "Είσοδος" in html  # allauth's "Sign In", from allauth's catalog


def test_the_profile_names_the_language_and_changes_it(client: Client, alice: Any) -> None:
    alice.language = "el"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert html_lang(html) == "el"
    assert '<dd lang="el">Ελληνικά</dd>' in html
    form = html[html.index('id="profile-language"') - 400 :]
    assert f'action="{reverse("set_language")}"' in form
    assert '<option value="el" lang="el" selected>Ελληνικά</option>' in form
    with translation.override("el"):
        days = ngettext(
            "Pause your deadlines in by-turns games while you are away (%(left)s of "
            "%(total)s days left this year).",
            "Pause your deadlines in by-turns games while you are away (%(left)s of "
            "%(total)s days left this year).",
            14,
        ) % {"left": 14, "total": 14}
    assert days in html
    response = client.post(reverse("set_language"), {"language": "ht", "next": "/profile/"})
    assert response.status_code == 302 and response["Location"] == "/profile/"
    alice.refresh_from_db()
    assert alice.language == "ht"
    html = client.get(reverse("accounts:profile")).content.decode()
    assert html_lang(html) == "ht" and '<dd lang="ht">Kreyòl ayisyen</dd>' in html


def test_the_server_error_page_speaks_the_browsers_language() -> None:
    request = RequestFactory().get("/", headers={"accept-language": "ar"})
    response = views.server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert response["Content-Language"] == "ar"
    with translation.override("ar"):
        assert str(views.SERVER_ERROR) in html
    htmx = RequestFactory().get("/", headers={"accept-language": "ru", "hx-request": "true"})
    response = views.server_error(htmx)
    assert response["Content-Language"] == "ru"
    with translation.override("ru"):
        assert response.content.decode() == str(views.SERVER_ERROR)
