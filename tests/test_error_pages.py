"""Error pages that help (issue 22): 400, 403, 404, 410, 429 and 500/503 in
the site's layout and the reader's language, with a way back, under DEBUG=0;
a closed invitation says so before any log-in or sign-up; the site is
installable (manifest, icons) and its service worker keeps an offline page."""

from __future__ import annotations

import datetime
import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.utils import timezone, translation
from django.utils.html import escape

from euchre_site import pwa, views
from games import services as game_services
from games.models import Table
from social import selectors as social_selectors
from social.models import Invitation

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code, _ in settings.LANGUAGES]
User = get_user_model()

# What each status's page is asked with (tests/error_pages_urls.py adds the failing views).
PAGES = {
    400: "/",  # with a Host that ALLOWED_HOSTS does not list
    403: "/test-errors/403/",
    404: "/no-such-page/",
    410: "/test-errors/410/",
    429: "/test-errors/429/",
    500: "/test-errors/500/",
    503: "/test-errors/503/",
}


@pytest.fixture(autouse=True)
def production(settings: Any) -> None:
    settings.DEBUG = False


def ask(path: str, language: str, **extra: Any) -> Any:
    client = Client(raise_request_exception=False, headers={"accept-language": language})
    return client.get(path, **extra)


def fetch(status: int, language: str) -> Any:
    extra = {"HTTP_HOST": "evil.example"} if status == 400 else {}
    return ask(PAGES[status], language, **extra)


def h1(html: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", html, re.S)
    assert found, "no heading"
    return found.group(1).strip()


def assert_site_layout(html: str, language: str) -> None:
    """The site's header, footer and ways back, in `language`."""
    assert f'<html lang="{language}" dir="{"rtl" if language == "ar" else "ltr"}">' in html
    assert 'class="site-header"' in html and 'class="brand" href="/"' in html
    assert 'class="site-footer"' in html
    assert '<a class="button" href="/">' in html  # home
    assert 'href="/lobby/"' in html
    assert "Traceback" not in html and "DEBUG = True" not in html


@pytest.mark.urls("tests.error_pages_urls")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("status", sorted(PAGES))
def test_each_error_page_is_in_the_layout_and_language(status: int, language: str, db: Any) -> None:
    response = fetch(status, language)
    assert response.status_code == status
    assert response["Content-Language"] == language
    html = response.content.decode()
    assert_site_layout(html, language)
    _, heading, message = views.ERRORS[status]
    with translation.override(language):
        assert h1(html) == escape(str(heading))
        assert escape(str(message)) in html
    assert "a reason no visitor should read" not in html
    assert "a bug no visitor should read about" not in html


@pytest.mark.urls("tests.error_pages_urls")
def test_the_pages_that_need_no_database_still_look_like_the_site(db: Any) -> None:
    """500 and 503 come from templates/error.html, rendered without the
    request's context; 4xx from error_page.html inside base.html (with the
    language menu and the visitor's links)."""
    for status in (500, 503):
        html = fetch(status, "en").content.decode()
        assert 'class="language-menu' not in html and "csrfmiddlewaretoken" not in html
    for status in (400, 403, 404, 410, 429):
        assert 'class="menu language-menu"' in fetch(status, "en").content.decode()
    assert fetch(503, "en")["Retry-After"] == "5"


@pytest.mark.urls("tests.error_pages_urls")
def test_a_signed_in_players_own_language_wins(alice: Any) -> None:
    alice.language = "ru"
    alice.save(update_fields=["language"])
    client = Client(headers={"accept-language": "el"})
    client.force_login(alice)
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Language"] == "ru"
    html = response.content.decode()
    assert_site_layout(html, "ru")
    assert "alice" in html  # the page knows who reads it (base.html's header)


@pytest.mark.urls("tests.error_pages_urls")
def test_rate_limits_answer_429_in_the_layout(db: Any) -> None:
    """allauth's limits (its respond_429 calls the urlconf's handler429) and a
    django-ratelimit Ratelimited (a PermissionDenied) both get the 429 page."""
    for path in ("/test-errors/429/", "/test-errors/429-allauth/"):
        response = ask(path, "el")
        assert response.status_code == 429
        assert_site_layout(response.content.decode(), "el")


@pytest.mark.urls("tests.error_pages_urls")
@pytest.mark.parametrize("status", [403, 404, 410, 429, 500, 503])
def test_htmx_gets_the_sentence_as_plain_text(status: int, db: Any) -> None:
    """static/js/site.js shows a text/plain error body in the page's messages."""
    response = ask(PAGES[status], "ar", headers={"hx-request": "true"})
    assert response.status_code == status
    assert response["Content-Type"].startswith("text/plain")
    with translation.override("ar"):
        assert response.content.decode() == str(views.ERRORS[status][2])


def test_a_form_with_a_stale_token_gets_the_403_page_that_says_what_to_do(db: Any) -> None:
    """euchre_site.views.csrf_failure, for CSRF_FAILURE_VIEW."""
    request = RequestFactory().post("/", headers={"accept-language": "ar"})
    response = views.csrf_failure(request, reason="CSRF token missing.")
    assert response.status_code == 403
    html = response.content.decode()
    assert_site_layout(html, "ar")
    with translation.override("ar"):
        assert escape(str(views.CSRF_FAILED)) in html
    assert "CSRF token missing" not in html


# --------------------------------------------------------------------------- invitations


def open_table(owner: Any, **kw: Any) -> Table:
    return game_services.table_create(
        owner=owner,
        name="Friday table",
        rules={},
        target=5,
        mode=Table.Mode.LIVE,
        move_seconds=None,
        visibility=kw.pop("visibility", Table.Visibility.PRIVATE),
    )


def assert_invitation_closed(response: Any, reason: str, language: str = "en") -> str:
    assert response.status_code == 410
    html = response.content.decode()
    assert_site_layout(html, language)
    assert f'data-reason="{reason}"' in html
    with translation.override(language):
        assert h1(html) == escape(translation.gettext("This invitation is closed"))
    return html


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_or_revoked_table_link_is_closed_not_a_404(language: str, alice: Any) -> None:
    table = open_table(alice)
    old = table.invite_url()
    game_services.table_revoke_invitation(table=table, user=alice)
    for link in (old, "/invite/never-was-a-token/"):
        response = ask(link, language)
        assert_invitation_closed(response, "revoked", language)


def test_a_visitor_sees_a_closed_table_link_before_any_log_in(alice: Any) -> None:
    table = open_table(alice)
    link = table.invite_url()
    response = ask(link, "en")  # open: log in (or sign up) first, then back here
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={link}"
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    html = assert_invitation_closed(ask(link, "en"), "ended")
    assert "The game at this table has ended" in html
    assert 'href="/accounts/login/' not in html.split("<main", 1)[1]


def test_a_visitor_following_an_open_link_sees_the_table_after_logging_in(
    alice: Any, bob: Any
) -> None:
    table = open_table(alice)
    client = Client()
    assert client.get(table.invite_url()).status_code == 302
    client.force_login(bob)
    response = client.get(table.invite_url())
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert client.get(table.get_absolute_url()).status_code == 200


def invitation(table: Table, inviter: Any, **kw: Any) -> Invitation:
    return Invitation.objects.create(
        table=table,
        position=1,
        inviter=inviter,
        email="newcomer@example.com",
        expires=kw.pop("expires", timezone.now() + datetime.timedelta(days=7)),
        **kw,
    )


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (Invitation.Status.CANCELLED, "cancelled"),
        (Invitation.Status.EXPIRED, "expired"),
        (Invitation.Status.DECLINED, "answered"),
        (Invitation.Status.ACCEPTED, "answered"),
    ],
)
def test_a_closed_emailed_invitation_says_so_before_any_sign_up(
    status: str, reason: str, alice: Any
) -> None:
    inv = invitation(open_table(alice), alice, status=status)
    client = Client(headers={"accept-language": "th"})
    response = client.get(inv.get_absolute_url())
    assert_invitation_closed(response, reason, "th")
    assert social_selectors.SIGNUP_INVITATION_KEY not in client.session


def test_an_invitation_past_its_days_or_unknown_is_closed_too(alice: Any, bob: Any) -> None:
    late = invitation(open_table(alice), alice, expires=timezone.now() - datetime.timedelta(1))
    assert_invitation_closed(ask(late.get_absolute_url(), "en"), "expired")
    assert_invitation_closed(ask("/invitations/no-such-token/", "en"), "gone")
    signed_in = Client()
    signed_in.force_login(bob)
    assert_invitation_closed(signed_in.get(late.get_absolute_url()), "expired")


def test_an_open_emailed_invitation_still_leads_to_sign_up(alice: Any) -> None:
    inv = invitation(open_table(alice), alice)
    client = Client()
    response = client.get(inv.get_absolute_url())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/signup/")
    assert client.session[social_selectors.SIGNUP_INVITATION_KEY] == inv.token


# --------------------------------------------------------------------------- installable


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def served(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return bytes(response.getvalue())  # whitenoise streams its files


def test_the_manifest_makes_the_site_installable(client: Client, db: Any) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] == "Cutthroat Euchre" and manifest["short_name"]
    home = client.get("/").content.decode()
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', home)
    assert theme and manifest["theme_color"] == theme.group(1)
    assert '<link rel="manifest" href="/manifest.webmanifest"' in home
    sizes = set()
    for icon in manifest["icons"]:
        data = served(client, icon["src"])
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_manifest_speaks_the_readers_language(language: str, db: Any) -> None:
    manifest = json.loads(ask("/manifest.webmanifest", language).content)
    assert manifest["lang"] == language
    assert manifest["dir"] == ("rtl" if language == "ar" else "ltr")
    with translation.override(language):
        assert manifest["name"] == translation.gettext("Cutthroat Euchre")


def test_the_offline_page_is_the_sites_and_nobody_elses(alice: Any) -> None:
    alice.language = "el"
    alice.save(update_fields=["language"])
    client = Client()
    client.force_login(alice)
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert_site_layout(html, "el")
    with translation.override("el"):
        assert h1(html) == escape(str(pwa.OFFLINE_HEADING))
    assert "data-reload" in html and "js/offline.js" in html
    # The browser keeps it for every visitor of this browser: nothing of alice's.
    assert "alice" not in html and "csrfmiddlewaretoken" not in html


def test_the_service_worker_keeps_the_offline_page_and_answers_with_it(
    client: Client, db: Any
) -> None:
    worker = client.get("/sw.js").content.decode()
    assert 'addEventListener("install"' in worker and "cache.addAll(" in worker
    assert 'addEventListener("fetch"' in worker and 'request.mode === "navigate"' in worker
    assert 'const OFFLINE_URL = "/offline/";' in worker
    assets = json.loads(re.search(r"const OFFLINE_ASSETS = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    assert assets == pwa.offline_assets()
    for url in assets:  # cache.addAll fails (and so the install) if one is missing
        served(client, url)
    # Every page registers the worker (base.html), for its whole scope.
    home = client.get("/").content.decode()
    assert 'src="/static/js/service-worker.js" data-worker="/sw.js"' in home


def test_the_icons_script_makes_every_icon_the_manifest_names() -> None:
    script = (ROOT / "scripts" / "make-icons").read_text()
    for path, _, _ in pwa.ICONS:
        name = path.removeprefix("icons/")
        assert f'"{name}"' in script
        assert (ROOT / "static" / path).is_file()
