import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def alice():
    return User.objects.create_user("alice", "alice@example.com", "correct-horse-battery")


def test_sign_up_creates_the_account_and_signs_in(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": "a-long-secret-9",
            "password2": "a-long-secret-9",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="bob")
    assert user.email == "bob@example.com"
    assert client.get(reverse("accounts:profile")).context["user"] == user


def test_sign_up_rejects_mismatched_passwords_and_creates_nothing(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": "a-long-secret-9",
            "password2": "another-secret-9",
        },
    )
    assert response.status_code == 200
    assert b"You must type the same password each time" in response.content
    assert not User.objects.filter(username="bob").exists()


@pytest.mark.parametrize(("length", "made"), [(30, True), (31, False)])
def test_a_user_name_has_at_most_30_characters(client, length, made):
    """So that every name fits its seat on the card table."""
    name = "n" * length
    response = client.post(
        reverse("account_signup"),
        {
            "username": name,
            "email": "long@example.com",
            "password1": "a-long-secret-9",
            "password2": "a-long-secret-9",
        },
    )
    assert User.objects.filter(username=name).exists() is made
    if not made:
        assert response.status_code == 200
        assert b"at most 30 characters" in response.content


def test_log_in_with_username_then_log_out(client, alice):
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:lobby")
    assert client.get(reverse("accounts:profile")).status_code == 200
    client.post(reverse("account_logout"))
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_log_in_with_a_wrong_password_is_refused(client, alice):
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope-nope"})
    assert response.status_code == 200
    assert b"not correct" in response.content


def test_password_reset_mails_a_link_that_sets_a_new_password(client, alice, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["alice@example.com"]
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mailoutbox[0].body)
    assert match, mailoutbox[0].body
    link = match.group(1)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    action_url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    response = client.post(
        action_url, {"password1": "brand-new-secret-7", "password2": "brand-new-secret-7"}
    )
    assert response.status_code == 302

    alice.refresh_from_db()
    assert alice.check_password("brand-new-secret-7")


def test_profile_shows_the_players_details(client, alice):
    client.force_login(alice)
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 200
    assert b"alice@example.com" in response.content
    assert b"Change password" in response.content


def test_change_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_change_password"),
        {
            "oldpassword": "correct-horse-battery",
            "password1": "fresh-secret-42",
            "password2": "fresh-secret-42",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("fresh-secret-42")


@pytest.mark.parametrize(
    "name", ["accounts:profile", "games:lobby", "games:my_games", "notifications:centre"]
)
def test_anonymous_users_are_sent_to_log_in(client, name):
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert f"next={url}" in response["Location"]


def test_public_pages_render_for_anonymous_users(client):
    for name in ["home", "account_login", "account_signup", "account_reset_password"]:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert b'name="viewport"' in response.content
