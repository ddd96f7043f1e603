from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from notifications import services
from notifications.models import Notification, PushSubscription

pytestmark = pytest.mark.django_db


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def tell(
    user: Any, text: str = "Your turn in Friday table.", url: str = "/tables/1/"
) -> Notification:
    note = services.notify(user=user, kind="game_started", game=None, text=text, url=url)
    assert note is not None
    return note


def test_the_centre_lists_newest_first_with_links_and_unread_marked(alice: Any) -> None:
    first = tell(alice, "First <b>news</b>", "/tables/7/")
    second = tell(alice, "Second news", "/tables/8/")
    services.mark_read(alice, second.pk)
    html = logged_in(alice).get(reverse("notifications:centre")).content.decode()
    assert html.index("Second news") < html.index("First")
    assert f'<a href="/notifications/{first.pk}/">First &lt;b&gt;news&lt;/b&gt;</a>' in html
    assert 'class="notification unread"' in html
    assert html.count("Mark read</button>") == 1


def badge_tag(html: str) -> str:
    match = re.search(r'<span id="unread-badge"[^>]*>', html)
    assert match, "no badge"
    return match.group(0)


def test_the_nav_badge_shows_the_unread_count_and_links_to_the_centre(alice: Any) -> None:
    client = logged_in(alice)
    html = client.get(reverse("games:lobby")).content.decode()
    assert badge_tag(html).endswith(" hidden>")
    assert f'href="{reverse("notifications:centre")}"' in html
    assert 'ws-connect="/ws/notifications/"' in html
    assert 'id="notification-toasts"' in html
    tell(alice)
    tell(alice)
    html = client.get(reverse("games:lobby")).content.decode()
    assert "hidden" not in badge_tag(html)
    assert re.search(r'<span id="unread-badge"[^>]*>2<', html)


def test_anonymous_pages_have_no_notification_socket(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert "/ws/notifications/" not in html
    assert client.get(reverse("notifications:centre")).status_code == 302


def test_mark_read_with_htmx_returns_the_item(alice: Any, bob: Any) -> None:
    note = tell(alice)
    client = logged_in(alice)
    response = client.post(
        reverse("notifications:mark_read", args=[note.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    item, badge = html.split("</li>")
    assert f'id="notification-{note.pk}"' in item and "unread" not in item
    assert 'id="unread-badge"' in badge and 'hx-swap-oob="true"' in badge
    assert services.unread_count(alice) == 0
    # Someone else's notification is not found, and stays unread.
    other = tell(bob)
    assert client.post(reverse("notifications:mark_read", args=[other.pk])).status_code == 404
    assert services.unread_count(bob) == 1


def test_opening_a_notification_marks_it_read_and_follows_its_link(alice: Any, bob: Any) -> None:
    note = tell(alice, url="/tables/7/")
    client = logged_in(alice)
    response = client.get(reverse("notifications:open", args=[note.pk]))
    assert response.status_code == 302 and response["Location"] == "/tables/7/"
    assert services.unread_count(alice) == 0
    assert client.get(reverse("notifications:open", args=[tell(bob).pk])).status_code == 404
    elsewhere = tell(alice, url="https://evil.example.com/")
    response = client.get(reverse("notifications:open", args=[elsewhere.pk]))
    assert response["Location"] == reverse("notifications:centre")


def test_mark_all_read_without_javascript_redirects_back(alice: Any) -> None:
    tell(alice)
    tell(alice)
    response = logged_in(alice).post(reverse("notifications:mark_all_read"))
    assert response.status_code == 302 and response["Location"] == reverse("notifications:centre")
    assert services.unread_count(alice) == 0


def test_marking_needs_a_post(alice: Any) -> None:
    note = tell(alice)
    client = logged_in(alice)
    assert client.get(reverse("notifications:mark_read", args=[note.pk])).status_code == 405
    assert client.get(reverse("notifications:mark_all_read")).status_code == 405


def test_preferences_are_saved_from_the_form(alice: Any) -> None:
    client = logged_in(alice)
    url = reverse("notifications:preferences")
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "email_enabled": "on",
            "reminder_minutes": "30",
            "daily_digest": "on",
            "quiet_start": "22:00",
            "quiet_end": "07:00",
            "time_zone": "Europe/Paris",
        },
    )
    assert response.status_code == 302
    prefs = services.preferences_for(alice)
    assert prefs.reminder_minutes == 30 and prefs.daily_digest and prefs.email_enabled
    assert prefs.time_zone == "Europe/Paris" and prefs.quiet_start is not None
    assert not prefs.push_enabled


def test_quiet_hours_need_both_ends(alice: Any) -> None:
    response = logged_in(alice).post(
        reverse("notifications:preferences"),
        {"reminder_minutes": "120", "quiet_start": "22:00", "time_zone": "UTC"},
    )
    assert response.status_code == 200
    assert "Give both ends of the quiet hours" in response.content.decode()


def test_unsubscribe_get_asks_and_one_click_post_works_without_login_or_csrf(alice: Any) -> None:
    token = services.preferences_for(alice).unsubscribe_token
    url = reverse("notifications:unsubscribe", args=[token])
    assert url == f"/notifications/unsubscribe/{token}/"
    client = Client(enforce_csrf_checks=True)
    page = client.get(url)
    assert page.status_code == 200 and b'<button type="submit">Unsubscribe</button>' in page.content
    assert services.preferences_for(alice).email_enabled  # a GET changes nothing
    # What a mail client sends for List-Unsubscribe-Post (RFC 8058).
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and b"E-mail is off" in response.content
    assert not services.preferences_for(alice).email_enabled


def test_an_unknown_unsubscribe_token_is_not_found(client: Client) -> None:
    url = reverse("notifications:unsubscribe", args=["nope"])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404


def test_the_browser_subscription_is_saved_and_deleted(alice: Any, dns: dict[str, Any]) -> None:
    dns["push.example.com"] = ["93.184.215.14"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("notifications:push_subscription")
    keys = {"p256dh": b64url(b"\x04" + bytes(range(64))), "auth": b64url(bytes(range(16)))}
    body = {"endpoint": "https://push.example.com/abc", "keys": keys}
    assert client.post(url, json.dumps(body), content_type="application/json").status_code == 403
    client.get(reverse("notifications:preferences"))  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        url, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.json() == {"ok": True, "subscribed": True}
    assert PushSubscription.objects.get(user=alice).endpoint == "https://push.example.com/abc"
    assert services.preferences_for(alice).push_enabled
    bad = client.post(url, "{}", content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert bad.status_code == 400
    gone = {"endpoint": "https://push.example.com/abc", "delete": True}
    client.post(url, json.dumps(gone), content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert not PushSubscription.objects.exists()
    assert not services.preferences_for(alice).push_enabled


def test_the_service_worker_is_served_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b"notificationclick" in response.content and b"showNotification" in response.content


def test_the_preferences_page_offers_push_only_with_vapid_keys(alice: Any, settings: Any) -> None:
    client = logged_in(alice)
    url = reverse("notifications:preferences")
    assert b"push-subscribe" not in client.get(url).content
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "BPublicKey", "private"
    html = client.get(url).content.decode()
    assert 'data-vapid-key="BPublicKey"' in html and "private" not in html.split("<main")[1]
