"""E-mail addresses can be neither squatted nor enumerated, and every e-mailed
link is on SITE_URL (issue 21, items 6 and 7)."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
User = get_user_model()
SITE = "https://euchre.example.com"
LINK = re.compile(r"https?://[^\s/]+/\S*")


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE


def sign_up(client, username, email):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": "a-long-secret-9",
         "password2": "a-long-secret-9"},
    )  # fmt: skip


def links(message):
    return LINK.findall(message.body)


def confirm(client, message):
    (link,) = [url for url in links(message) if "/confirm-email/" in url]
    assert link.startswith(f"{SITE}/")
    path = link.removeprefix(SITE)
    client.get(path)
    return client.post(path)


def owner_of(email):
    return [a.user.username for a in EmailAddress.objects.filter(email=email, verified=True)]


# --- links on SITE_URL ------------------------------------------------------


def test_a_reset_posted_with_a_forged_host_mails_a_link_on_site_url(client, mailoutbox):
    User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")
    response = client.post(
        reverse("account_reset_password"), {"email": "alice@example.com"}, HTTP_HOST="127.0.0.1:1"
    )
    assert response.status_code == 302
    (message,) = mailoutbox
    found = links(message)
    assert found and all(url.startswith(f"{SITE}/") for url in found), found
    assert "127.0.0.1:1" not in message.body
    (reset,) = [url for url in found if "/password/reset/key/" in url]
    # The link works on the site.
    key_page = client.get(reset.removeprefix(SITE))
    assert key_page.status_code == 302  # allauth moves the key into the session, then the form
    assert client.get(key_page["Location"]).status_code == 200


def test_the_unknown_account_mail_and_the_verification_mail_are_on_site_url(client, mailoutbox):
    client.post(
        reverse("account_reset_password"), {"email": "x@example.com"}, HTTP_HOST="localhost:1"
    )
    sign_up(Client(HTTP_HOST="localhost:2"), "bob", "bob@example.com")
    assert len(mailoutbox) == 2
    for message in mailoutbox:
        found = links(message)
        assert found and all(url.startswith(f"{SITE}/") for url in found), message.body
        assert "localhost:" not in message.body


def test_the_sign_up_mail_names_the_site_not_its_address(mailoutbox):
    sign_up(Client(), "dora", "dora@example.com")
    (message,) = mailoutbox
    assert "register an account on Cutthroat Euchre." in message.body, message.body
    assert "Thank you for using Cutthroat Euchre!" in message.body
    assert "on testserver" not in message.body


# --- squatting --------------------------------------------------------------


def test_an_unverified_squatter_does_not_block_the_owners_sign_up(client, mailoutbox):
    squatter = User.objects.create_user("mallory", "", "pw-mallory-123")
    client.force_login(squatter)
    client.post(reverse("account_email"), {"action_add": "", "email": "olga@example.com"})
    assert EmailAddress.objects.filter(user=squatter, email="olga@example.com", verified=False)
    mailoutbox.clear()
    # allauth mails one verification per address every 3 minutes (its cooldown): later.
    cache.clear()

    owner = Client()
    response = sign_up(owner, "olga", "olga@example.com")
    assert response.status_code == 302
    olga = User.objects.get(username="olga")
    assert olga.email == "olga@example.com"
    # The owner verifies it: it is hers, and the squatter's copy can never be verified.
    (message,) = mailoutbox
    confirm(owner, message)
    assert owner_of("olga@example.com") == ["olga"]
    address = EmailAddress.objects.get(user=squatter, email="olga@example.com")
    assert not address.set_verified()
    # A reset for the address reaches the owner's account only.
    mailoutbox.clear()
    Client().post(reverse("account_reset_password"), {"email": "olga@example.com"})
    (reset,) = mailoutbox
    assert "olga" in reset.body and "mallory" not in reset.body


def test_the_verified_owner_wins_over_an_earlier_unverified_sign_up(mailoutbox):
    sign_up(Client(), "mallory", "olga@example.com")
    mailoutbox.clear()
    cache.clear()
    owner = Client()
    assert sign_up(owner, "olga", "olga@example.com").status_code == 302
    confirm(owner, mailoutbox[-1])
    assert owner_of("olga@example.com") == ["olga"]


# --- e-mail change ----------------------------------------------------------


@pytest.mark.parametrize("verified", [True, False])
def test_an_email_change_is_pending_until_the_new_address_is_verified(client, mailoutbox, verified):
    sign_up(client, "alice", "alice@example.com")
    alice = User.objects.get(username="alice")
    if verified:
        EmailAddress.objects.filter(user=alice).update(verified=True)
    mailoutbox.clear()

    client.post(reverse("account_email"), {"action_add": "", "email": "new@example.com"})
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    current = EmailAddress.objects.get(user=alice, primary=True)
    assert (current.email, current.verified) == ("alice@example.com", verified)
    pending = EmailAddress.objects.get(user=alice, email="new@example.com")
    assert not pending.verified and not pending.primary
    # Marking the pending address primary by hand changes nothing either.
    client.post(reverse("account_email"), {"action_primary": "", "email": "new@example.com"})
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert EmailAddress.objects.get(user=alice, primary=True).email == "alice@example.com"

    (message,) = mailoutbox
    assert message.to == ["new@example.com"]
    confirm(client, message)
    alice.refresh_from_db()
    assert alice.email == "new@example.com"
    assert list(
        EmailAddress.objects.filter(user=alice).values_list("email", "verified", "primary")
    ) == [("new@example.com", True, True)]


# --- enumeration ------------------------------------------------------------


def page(response):
    """A response without what differs from one request to the next."""
    body = response.content.decode()
    body = re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF", body)
    return response.status_code, response.get("Location"), body


def test_sign_up_answers_alike_for_a_registered_and_a_new_address(mailoutbox):
    User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")
    EmailAddress.objects.create(user=User.objects.get(username="alice"), email="alice@example.com",
                                verified=True, primary=True)  # fmt: skip
    taken = sign_up(Client(), "bob", "alice@example.com")
    new = sign_up(Client(), "carl", "carl@example.com")
    assert (taken.status_code, taken["Location"]) == (new.status_code, new["Location"])
    assert [m.subject for m in mailoutbox[:1]] == [m.subject for m in mailoutbox[1:]]


def test_password_reset_answers_alike_for_a_registered_and_an_unknown_address(client):
    User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")
    url = reverse("account_reset_password")
    known = client.post(url, {"email": "alice@example.com"})
    unknown = client.post(url, {"email": "nobody@example.com"})
    assert page(known) == page(unknown)
    assert page(client.get(known["Location"])) == page(client.get(unknown["Location"]))


def test_log_in_answers_alike_for_a_registered_and_an_unknown_address(client):
    User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")
    url = reverse("account_login")
    known = client.post(url, {"login": "alice@example.com", "password": "wrong-password-1"})
    unknown = client.post(url, {"login": "nobody@example.com", "password": "wrong-password-1"})
    assert known.status_code == unknown.status_code == 200
    known_text = page(known)[2].replace("alice@example.com", "X")
    assert known_text == page(unknown)[2].replace("nobody@example.com", "X")


# --- the Host's port ----------------------------------------------------------


@pytest.fixture
def production(settings):
    settings.SITE_URL = "https://euchre.example.com"
    settings.SITE_PORT_CHECK = True
    settings.ALLOWED_HOSTS = ["euchre.example.com", "127.0.0.1"]
    settings.SECURE_SSL_REDIRECT = False


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("euchre.example.com", 200),
        ("euchre.example.com:443", 200),
        ("euchre.example.com:8443", 400),
        ("127.0.0.1:1", 400),
        ("elsewhere.example.com", 400),  # ALLOWED_HOSTS, as before
    ],
)
def test_production_refuses_a_host_on_another_port(client, production, host, status):
    assert client.get(reverse("home"), HTTP_HOST=host).status_code == status


def test_production_refuses_a_forged_port_before_any_reset_is_mailed(
    client, production, mailoutbox
):
    User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")
    response = client.post(
        reverse("account_reset_password"), {"email": "alice@example.com"}, HTTP_HOST="127.0.0.1:1"
    )
    assert response.status_code == 400
    assert mailoutbox == []


def test_a_site_on_its_own_port_passes_with_that_port(client, settings):
    settings.SITE_URL = "http://127.0.0.1:8123"
    settings.SITE_PORT_CHECK = True
    assert client.get(reverse("home"), HTTP_HOST="127.0.0.1:8123").status_code == 200
    assert client.get(reverse("home"), HTTP_HOST="127.0.0.1:8000").status_code == 400
    assert client.get(reverse("home"), HTTP_HOST="127.0.0.1").status_code == 400


def test_the_check_is_off_with_debug_settings(client, settings):
    """`make run` and the tests' daphne (DEBUG on, any port) are never refused."""
    assert settings.SITE_PORT_CHECK is False
    assert client.get(reverse("home"), HTTP_HOST="127.0.0.1:54321").status_code == 200


def test_the_email_page_names_the_current_address_and_the_pending_one(client):
    sign_up(client, "alice", "alice@example.com")
    page_before = client.get(reverse("account_email")).content.decode()
    assert 'value="alice@example.com"' in page_before
    assert "pending verification" in page_before  # the current one is not verified yet
    client.post(reverse("account_email"), {"action_add": "", "email": "new@example.com"})
    body = client.get(reverse("account_email")).content.decode()
    fields = dict(re.findall(r'id="(current_email|new_email)"\s+value="([^"]+)"', body))
    assert fields == {"current_email": "alice@example.com", "new_email": "new@example.com"}
    assert "Changing to" in body and "Cancel Change" in body
    assert 'style="display: none"' not in body
    # Cancelling the change leaves the current address alone.
    client.post(reverse("account_email"), {"action_remove": "", "email": "new@example.com"})
    assert list(EmailAddress.objects.values_list("email", flat=True)) == ["alice@example.com"]
