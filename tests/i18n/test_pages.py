"""Every page type answers in each language the browser asks for (only
Accept-Language set), says so in <html lang> (and dir="rtl" for Arabic), and
shows no English sentence of the site's own on it."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Table
from stats import services as stats_services
from tests.stats.helpers import build_game

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LANGS = [code for code, _ in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\(|%[sd]|\{")


@cache
def english_sentences(lang: str) -> tuple[str, ...]:
    """The site's own English texts that must not appear untranslated: every
    catalog message of two words or more whose translation differs from it."""
    po = polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))
    out = []
    for e in po:
        text = e.msgid.strip()
        if e.obsolete or PLACEHOLDER.search(text) or " " not in text or len(text) < 8:
            continue
        if e.msgstr.strip() == text:
            continue  # the same in both (a name, a number format)
        out.append(text)
    return tuple(sorted(out, key=len, reverse=True))


def visible_text(page: str) -> str:
    page = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def english_left(page: str, lang: str) -> list[str]:
    text = visible_text(page)
    return [s for s in english_sentences(lang) if s in text]


@pytest.fixture
def world(alice: Any, bob: Any, carol: Any) -> dict[str, Any]:
    table = services.table_create(
        owner=alice, name="Salon", rules={}, target=5, mode="live", move_seconds=None,
        visibility="public",
    )  # fmt: skip
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    waiting = services.table_create(
        owner=bob, name="Waiting room", rules={}, target=10, mode="turns", move_seconds=86400,
        visibility="public",
    )  # fmt: skip
    # Ten finished, rated games: every figure, chart and the leaderboard are shown.
    built = [build_game([alice, bob, carol]) for _ in range(10)]
    for g in built:
        stats_services.after_game(game_id=g.pk)
    hand = built[0].hands.order_by("number").first()
    return {
        "table": table, "game": Game.objects.get(table=table), "waiting": waiting, "hand": hand,
    }  # fmt: skip


def pages(world: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """Page type -> (URL, needs a signed-in player)."""
    table: Table = world["table"]
    return {
        "home": (reverse("home"), False),
        "rules": (reverse("rules"), False),
        "log in": (reverse("account_login"), False),
        "sign up": (reverse("account_signup"), False),
        "lobby": (reverse("games:lobby"), True),
        "table in play": (table.get_absolute_url(), True),
        "table waiting": (world["waiting"].get_absolute_url(), True),
        "my games": (reverse("games:my_games"), True),
        "stats": (reverse("stats:mine"), True),
        "leaderboard": (reverse("stats:leaderboard"), True),
        "history": (reverse("stats:history"), True),
        "player": (reverse("stats:player", args=["bob"]), True),
        "replay": (reverse("stats:replay", args=[world["hand"].pk]), True),
        "agreement": (reverse("stats:agreement"), True),
        "import": (reverse("stats:import"), True),
        "notifications": (reverse("notifications:centre"), True),
        "preferences": (reverse("notifications:preferences"), True),
        "profile": (reverse("accounts:profile"), True),
    }


PAGE_TYPES = [
    "home", "rules", "log in", "sign up", "lobby", "table in play", "table waiting",
    "my games", "stats", "leaderboard", "history", "player", "replay", "agreement", "import",
    "notifications", "preferences", "profile",
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_each_page_speaks_the_browsers_language(
    world: dict[str, Any], alice: Any, lang: str
) -> None:
    """Every page type in one test per language (the players and tables are
    set up once): each page's failures are gathered and reported together."""
    direction = "rtl" if lang == "ar" else "ltr"
    signed_in_client = Client(headers={"accept-language": f"{lang},en;q=0.5"})
    signed_in_client.force_login(alice)
    # Logging in keeps the request's language as the player's choice; this
    # player has none, so the browser's language is the one that counts.
    type(alice).objects.filter(pk=alice.pk).update(language="")
    anonymous = Client(headers={"accept-language": f"{lang},en;q=0.5"})
    wrong: dict[str, object] = {}
    for page in PAGE_TYPES:
        url, signed_in = pages(world)[page]
        response = (signed_in_client if signed_in else anonymous).get(url, follow=True)
        body = response.content.decode()
        if response.status_code != 200:
            wrong[page] = response.status_code
        elif f'<html lang="{lang}" dir="{direction}">' not in body:
            wrong[page] = "lang/dir"
        elif left := english_left(body, lang):
            wrong[page] = left
    assert wrong == {}


def test_english_is_the_default_and_the_check_finds_english(world: dict[str, Any]) -> None:
    """Without Accept-Language the site is English; and the check above does
    find English sentences in an English page (it cannot pass vacuously)."""
    body = Client().get(reverse("rules")).content.decode()
    assert '<html lang="en" dir="ltr">' in body
    assert len(english_left(body, "el")) > 10


def test_the_players_own_choice_beats_the_browser(world: dict[str, Any], alice: Any) -> None:
    client = Client(headers={"accept-language": "ru"})
    client.force_login(alice)
    response = client.post(reverse("set_language"), {"language": "th", "next": "/"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "th"
    fresh = Client(headers={"accept-language": "ru"})  # another browser, no cookie
    fresh.force_login(alice)
    assert '<html lang="th"' in fresh.get(reverse("home")).content.decode()
