"""The account pages and e-mails say nothing in English in another language:
allauth's sign-up, log-in, log-out, password change, set and reset, e-mail
management and confirmation, with Django's password rules and form errors on
them, and the e-mails they send (password reset, verification).

Their texts come from three catalogs: the site's own (locale/), allauth's and
Django's, and the last two are not complete in every language (Django's Thai
catalog lacks the password rules, its Greek one the relative times; allauth's
Thai reset e-mail fell back to English), so the site adds or corrects what
they lack in locale-django/<code>/LC_MESSAGES/django.po. This test reads no
catalog: it renders each page in English, takes the sentences of its <main>,
renders the same page in each other language, and refuses any of those
English sentences of more than two words found there (the e-mails alike).

The error pages (400, 403, 404, 429, 500) are not here: they are the site's
own templates, with their own tests."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.timesince import timeuntil

pytestmark = pytest.mark.django_db
User = get_user_model()
LANGS = [code for code, _ in settings.LANGUAGES if code != "en"]

MEMBER, MEMBER_EMAIL, PENDING_EMAIL = "walker", "walker@example.com", "walker.new@example.com"
NEWCOMER, NEWCOMER_EMAIL = "newcomer", "newcomer@example.com"
# Words that are the same in every language: the game's name and what was typed.
ALLOWED_WORDS = {
    "Euchre", "Cutthroat", MEMBER, MEMBER_EMAIL, PENDING_EMAIL, NEWCOMER, NEWCOMER_EMAIL,
}  # fmt: skip
# A password that breaks three of Django's four rules at once (too short, too
# common, entirely numeric), one too like the user name, and a good one.
WEAK, LIKE_THE_NAME, STRONG = "123456", "newcomer1", "plum-kettle-orbit-52"


@dataclass
class World:
    clients: dict[str, Client]  # "anonymous", "member", "no password"
    member: Any
    pending: EmailAddress  # the member's e-mail change, not yet verified


@dataclass(frozen=True)
class Visit:
    """One page as a reader reaches it: who (a client of World.clients), where,
    and how (a GET, or a POST of `data`); redirects are followed."""

    who: str
    path: Callable[[World], str]
    data: dict[str, str] | None = None


def reset_key(world: World) -> str:
    return reverse(
        "account_reset_password_from_key",
        kwargs={
            "uidb36": user_pk_to_url_str(world.member),
            "key": default_token_generator.make_token(world.member),
        },
    )


def signup(data: dict[str, str]) -> Visit:
    return Visit("anonymous", lambda w: reverse("account_signup"), data)


def new(
    username: str = NEWCOMER, password1: str = STRONG, password2: str = STRONG
) -> dict[str, str]:
    return {
        "username": username,
        "email": NEWCOMER_EMAIL,
        "password1": password1,
        "password2": password2,
    }


VISITS: dict[str, Visit] = {
    "sign up": Visit("anonymous", lambda w: reverse("account_signup")),
    "sign up, empty form": signup({}),
    "sign up, weak password": signup(new(password1=WEAK, password2=WEAK)),
    "sign up, password like the name": signup(
        new(password1=LIKE_THE_NAME, password2=LIKE_THE_NAME)
    ),
    "sign up, passwords differ": signup(new(password2=STRONG + "x")),
    "sign up, name taken, bad address": signup(new(username=MEMBER) | {"email": "no-at-sign"}),
    "sign up, name too short": signup(new(username="ab")),
    "sign up, name with spaces": signup(new(username="a name")),
    "sign up, name too long": signup(new(username="a_name_far_too_long_to_fit_a_seat")),
    "log in": Visit("anonymous", lambda w: reverse("account_login")),
    "log in, empty form": Visit("anonymous", lambda w: reverse("account_login"), {}),
    "log in, wrong password": Visit(
        "anonymous", lambda w: reverse("account_login"), {"login": MEMBER, "password": "wrong-1"}
    ),
    "log out": Visit("member", lambda w: reverse("account_logout")),
    "password change": Visit("member", lambda w: reverse("account_change_password")),
    "password change, wrong and weak": Visit(
        "member",
        lambda w: reverse("account_change_password"),
        {"oldpassword": "wrong-1", "password1": WEAK, "password2": WEAK},
    ),
    "password set": Visit("no password", lambda w: reverse("account_set_password")),
    "password set, weak and different": Visit(
        "no password",
        lambda w: reverse("account_set_password"),
        {"password1": WEAK, "password2": WEAK + "0"},
    ),
    "password reset": Visit("anonymous", lambda w: reverse("account_reset_password")),
    "password reset, bad address": Visit(
        "anonymous", lambda w: reverse("account_reset_password"), {"email": "no-at-sign"}
    ),
    "password reset, sent": Visit(
        "anonymous", lambda w: reverse("account_reset_password"), {"email": MEMBER_EMAIL}
    ),
    "password reset done": Visit("anonymous", lambda w: reverse("account_reset_password_done")),
    "password reset, bad key": Visit(
        "anonymous",
        lambda w: reverse(
            "account_reset_password_from_key", kwargs={"uidb36": "zz", "key": "no-such-key"}
        ),
    ),
    "password reset, from key": Visit("anonymous", reset_key),
    # allauth keeps the key in the session and shows the form at this address.
    "password reset, from key, weak": Visit(
        "anonymous",
        lambda w: reverse(
            "account_reset_password_from_key",
            kwargs={"uidb36": user_pk_to_url_str(w.member), "key": "set-password"},
        ),
        {"password1": WEAK, "password2": WEAK},
    ),
    "password reset from key done": Visit(
        "anonymous", lambda w: reverse("account_reset_password_from_key_done")
    ),
    "e-mail": Visit("member", lambda w: reverse("account_email")),
    "e-mail, bad address": Visit(
        "member", lambda w: reverse("account_email"), {"action_add": "", "email": "no-at-sign"}
    ),
    "e-mail verification sent": Visit(
        "anonymous", lambda w: reverse("account_email_verification_sent")
    ),
    "e-mail confirmation": Visit(
        "anonymous",
        lambda w: reverse("account_confirm_email", args=[EmailConfirmationHMAC(w.pending).key]),
    ),
    "e-mail confirmation, bad key": Visit(
        "anonymous", lambda w: reverse("account_confirm_email", args=["no-such-key"])
    ),
    "reauthenticate": Visit("member", lambda w: reverse("account_reauthenticate")),
    "account inactive": Visit("anonymous", lambda w: reverse("account_inactive")),
}


# The account e-mails, sent from these forms in the reader's language ("fresh":
# a new anonymous browser each time, since a sign-up logs it in).
MAILS: dict[str, Visit] = {
    "password reset": Visit(
        "anonymous", lambda w: reverse("account_reset_password"), {"email": MEMBER_EMAIL}
    ),
    "password reset, unknown address": Visit(
        "anonymous", lambda w: reverse("account_reset_password"), {"email": NEWCOMER_EMAIL}
    ),
    "e-mail verification": Visit(
        "member",
        lambda w: reverse("account_email"),
        {"action_send": "", "email": PENDING_EMAIL},
    ),
    "sign up": Visit("fresh", lambda w: reverse("account_signup"), new()),
}


def sentences(text: str) -> list[str]:
    out = []
    for piece in text.splitlines():
        piece = re.sub(r"\s+", " ", piece).strip()
        out += [s for s in re.split(r"(?<=[.!?:])\s+", piece) if s]
    return out


def main_sentences(page: str) -> list[str]:
    """What a reader sees in <main> (its text and its fields' placeholders),
    each piece of text between two tags cut into sentences."""
    start, end = page.find("<main"), page.find("</main>")
    assert 0 <= start < end, "no <main> on the page"
    part = re.sub(r"(?is)<(script|style|template)\b.*?</\1>", "<>", page[start:end])
    pieces = re.split(r"<[^>]*>", part) + re.findall(r'placeholder="([^"]*)"', part)
    return sentences("\n".join(html.unescape(piece) for piece in pieces))


def english_sentences(said: list[str]) -> list[str]:
    """The sentences of more than two words, not counting the allowed ones."""
    return [
        s
        for s in dict.fromkeys(said)
        if len([w for w in s.split() if w.strip(".,:;!?()“”\"'") not in ALLOWED_WORDS]) > 2
    ]


def leaked(english: list[str], translated: list[str]) -> list[str]:
    text = " ".join(translated)
    return [s for s in english_sentences(english) if s in text]


@pytest.fixture
def world() -> World:
    member = User.objects.create_user(MEMBER, MEMBER_EMAIL, STRONG)
    EmailAddress.objects.create(user=member, email=MEMBER_EMAIL, verified=True, primary=True)
    pending = EmailAddress.objects.create(
        user=member, email=PENDING_EMAIL, verified=False, primary=False
    )
    passwordless = User.objects.create_user("sso-only", "sso@example.com")
    passwordless.set_unusable_password()
    passwordless.save()
    clients = {"anonymous": Client(), "member": Client(), "no password": Client()}
    clients["member"].force_login(member)
    clients["no password"].force_login(passwordless)
    return World(clients=clients, member=member, pending=pending)


def choose(client: Client, lang: str) -> None:
    """The language menu (set_language): a cookie for an anonymous reader,
    and the choice saved on a member's profile."""
    response = client.post(reverse("set_language"), {"language": lang, "next": "/"})
    assert response.status_code == 302


def render(world: World, lang: str) -> dict[str, list[str]]:
    """The sentences of every page of VISITS in `lang`, chosen as a reader
    chooses it."""
    cache.clear()  # the same rate-limit counts for every language
    for client in world.clients.values():
        choose(client, lang)
    pages = {}
    for name, visit in VISITS.items():
        client = world.clients[visit.who]
        path = visit.path(world)
        if visit.data is None:
            response = client.get(path, follow=True)
        else:
            response = client.post(path, visit.data, follow=True)
        body = response.content.decode()
        assert response.status_code == 200, (lang, name, response.status_code)
        assert f'<html lang="{lang}"' in body, (lang, name)
        pages[name] = main_sentences(body)
    return pages


def send(world: World, lang: str, outbox: list[Any]) -> dict[str, list[str]]:
    """The sentences of every e-mail of MAILS (subject and body) in `lang`."""
    cache.clear()  # allauth mails an address once in three minutes, and counts sends
    for client in world.clients.values():
        choose(client, lang)
    mails = {}
    for name, visit in MAILS.items():
        client = world.clients.get(visit.who) or Client()
        if visit.who == "fresh":
            choose(client, lang)
        outbox.clear()
        assert visit.data is not None
        response = client.post(visit.path(world), visit.data)
        assert response.status_code == 302, (lang, name, response.status_code)
        assert outbox, (lang, name, "no e-mail sent")
        mails[name] = sentences("\n".join(f"{m.subject}\n{m.body}" for m in outbox))
    User.objects.filter(username=NEWCOMER).delete()  # signed up: the next language again
    return mails


# The English texts, the same for every language's test: made once.
ENGLISH: dict[str, dict[str, list[str]]] = {}


def english_pages(world: World) -> dict[str, list[str]]:
    if "pages" not in ENGLISH:
        ENGLISH["pages"] = render(world, "en")
    return ENGLISH["pages"]


def english_mails(world: World, outbox: list[Any]) -> dict[str, list[str]]:
    if "mails" not in ENGLISH:
        ENGLISH["mails"] = send(world, "en", outbox)
    return ENGLISH["mails"]


def report(what: str, lang: str, english: dict[str, list[str]],
           translated: dict[str, list[str]]) -> dict[str, list[str]]:  # fmt: skip
    """The English sentences found in each translated text, printed too (the
    assertion's diff cuts them short)."""
    found = {name: leaked(english[name], translated[name]) for name in english}
    found = {name: left for name, left in found.items() if left}
    if found:
        print(f"\nEnglish sentences left in the {what} in {lang}:")
        for name, left in found.items():
            print(f"  {name}:")
            for sentence in left:
                print(f"    {sentence}")
    return found


def test_the_english_texts_have_what_the_check_looks_for(world: World, mailoutbox: Any) -> None:
    """The check below cannot pass for want of English to find: every page and
    e-mail has sentences of its own, and the forms show the rules and errors
    they are posted for (each of Django's four password rules among them)."""
    english = english_pages(world)
    for name, said in english.items():
        assert english_sentences(said), name

    def shown(page: str) -> str:
        return " ".join(english[page])

    for rule in (
        "Your password can’t be too similar to your other personal information.",
        "Your password must contain at least 8 characters.",
        "Your password can’t be a commonly used password.",
        "Your password can’t be entirely numeric.",
    ):
        assert rule in shown("sign up")
    for error in ("This password is too short.", "This password is too common.",
                  "This password is entirely numeric."):  # fmt: skip
        assert error in shown("sign up, weak password")
        assert error in shown("password change, wrong and weak")
        assert error in shown("password set, weak and different")
        assert error in shown("password reset, from key, weak")
    assert "The password is too similar to the username." in shown(
        "sign up, password like the name"
    )
    assert "This field is required." in shown("sign up, empty form")
    assert "Ensure this value has at least 3 characters (it has 2)." in shown(
        "sign up, name too short"
    )
    assert "Ensure this value has at most 30 characters (it has 33)." in shown(
        "sign up, name too long"
    )
    assert "Enter a valid username." in shown("sign up, name with spaces")
    assert "Please confirm that" in shown("e-mail confirmation")
    for name, said in english_mails(world, mailoutbox).items():
        assert english_sentences(said), name


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_sentence_is_left_on_the_account_pages(world: World, lang: str) -> None:
    found = report("account pages", lang, english_pages(world), render(world, lang))
    assert found == {}, f"English on {len(found)} account pages in {lang} (printed above)"


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_sentence_is_left_in_the_account_emails(
    world: World, lang: str, mailoutbox: Any
) -> None:
    english = english_mails(world, mailoutbox)
    found = report("account e-mails", lang, english, send(world, lang, mailoutbox))
    assert found == {}, f"English in {len(found)} account e-mails in {lang} (printed above)"


@pytest.mark.parametrize("lang", LANGS)
def test_djangos_relative_times_are_in_the_language(lang: str) -> None:
    """The deadlines' "in 59 minutes" (timeuntil) and the notifications' "3
    hours ago" (timesince) are Django's words: Thai and Greek lacked them."""
    now = timezone.now()
    english = re.compile(r"\b(minute|hour|day|week|month|year)s?\b")
    with translation.override(lang):
        for delta in (timedelta(minutes=59), timedelta(hours=3, minutes=5), timedelta(days=2),
                      timedelta(weeks=2), timedelta(days=40), timedelta(days=800)):  # fmt: skip
            said = timeuntil(now + delta, now)
            assert said and not english.search(said), (lang, delta, said)
