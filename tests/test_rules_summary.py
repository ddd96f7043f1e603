"""The top of the rules page (issue 22): a one-minute summary and a labelled
picture of the table, before the full rules, in every site language; each
point of the summary links to its full section; what the summary says of the
scoring is what the engine scores at the default options; and no sentence of
the page says that going alone pays more whatever the options."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import pgettext

from euchre_site import rules
from games import engine
from tests.test_rules_page import STYLESHEET, Elements, article

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]


def page(language: str = "en") -> str:
    response = Client().get(reverse("rules"), headers={"Accept-Language": language})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    return html


def text(element: dict[str, Any]) -> str:
    return " ".join(element["text"].split())


def inside(
    elements: Elements, parent: dict[str, Any], tag: str | None = None, **attrs: str
) -> list[dict[str, Any]]:
    return [e for e in elements.all(tag, **attrs) if parent in e["parents"]]


def labels(language: str) -> list[str]:
    """The picture's labels as the page must say them: the table's own words."""
    with translation.override(language):
        return [
            capfirst(pgettext("seat", "on your left")),
            capfirst(pgettext("seat", "on your right")),
            pgettext("game term", "Dummy"),
            pgettext("game term", "Up card"),
            pgettext("game term", "Kitty"),
            capfirst(pgettext("seat", "you")),
        ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_and_the_picture_come_before_the_full_rules(language: str) -> None:
    html = article(page(language))
    elements = Elements(html)
    (summary,) = elements.all("section", class_="rules-summary")
    assert summary is elements.all("section")[0]  # the first section of the page
    (heading,) = elements.all("h2", id="summary")
    assert summary["attrs"]["aria-labelledby"] == "summary" and text(heading)
    first_rules = html.index('id="players-and-deck"')
    for marker in ('id="summary"', '<figure class="table-picture"', 'class="rules-summary-points"'):
        assert html.index(marker) < html.index('id="contents"') < first_rules, marker
    points = inside(elements, summary, "li")
    assert len(points) == 10 and all(text(point) for point in points)

    # The picture: a figure named by its caption, the drawing hidden from
    # screen readers, which read its text alternative instead.
    (figure,) = inside(elements, summary, "figure")
    (caption,) = inside(elements, figure, "figcaption")
    assert figure["attrs"]["aria-labelledby"] == caption["attrs"]["id"] and text(caption)
    (drawing,) = inside(elements, figure, "div", class_="table-picture-felt")
    assert drawing["attrs"]["aria-hidden"] == "true"
    (alternative,) = inside(elements, figure, "p", class_="visually-hidden")
    assert (
        drawing not in alternative["parents"] and len(text(alternative)) > 100
    )  # characters: Thai writes no spaces between words
    # Every label is the table's own word in the page's language, in the
    # order the picture draws them (left, right, the dummy, the up card, the
    # kitty, you), each under its cards.
    shown = [text(e) for e in inside(elements, drawing, "strong")]
    assert shown == labels(language)
    assert len(inside(elements, drawing, "p", class_="tp-label")) == 6


def test_the_picture_in_english_and_its_cards() -> None:
    elements = Elements(article(page()))
    (drawing,) = elements.all("div", class_="table-picture-felt")
    assert [text(e) for e in inside(elements, drawing, "p", class_="tp-label")] == [
        "On your left plays after you",
        "On your right plays before you",
        "Dummy five cards, no owner",
        "Up card on top, face up",
        "Kitty the rest, face down",
        "You",
    ]
    (caption,) = elements.all("figcaption")
    assert "Play goes clockwise: from you to the player on your left" in text(caption)
    (alternative,) = elements.all("p", class_="visually-hidden")
    for words in ("You sit at the bottom", "player on your left", "player on your right",
                  "the dummy, five cards face down", "the up card face up on top"):  # fmt: skip
        assert words in text(alternative), words

    def cards(area: str) -> list[str]:
        (where,) = inside(elements, drawing, None, class_=area)
        return [
            e["attrs"].get("data-card", "back")
            for e in inside(elements, where, "span")
            if "card" in e["attrs"].get("class", "").split()
        ]

    # Five face down for each other player and the dummy; the kitty as the
    # engine deals it with the default deck, its top card face up; your five.
    assert cards("tp-seat tp-west") == cards("tp-seat tp-east") == ["back"] * 5
    assert cards("tp-pile tp-dummy") == ["back"] * 5
    kitty = cards("tp-pile tp-kitty")
    assert len(kitty) == engine.Rules().kitty_size == 4
    assert kitty == ["back"] * 3 + [rules.TABLE_PICTURE_UP_CARD]
    assert cards("tp-seat tp-you") == list(rules.TABLE_PICTURE_HAND)
    dealt = [*rules.TABLE_PICTURE_HAND, rules.TABLE_PICTURE_UP_CARD]
    assert len(set(dealt)) == 6  # cards of the 24-card deck, none twice
    assert all(len(code) == 2 and code[0] in "9TJQKA" and code[1] in "CDHS" for code in dealt)


def test_the_picture_keeps_the_tables_seats_in_arabic() -> None:
    """As the table draws them (docs/table.md): "on your left" is the seat
    drawn on the left in every language; only the labels' text runs right to
    left."""
    html = page("ar")
    assert 'dir="rtl"' in html
    elements = Elements(article(html))
    (drawing,) = elements.all("div", class_="table-picture-felt")
    (west,) = inside(elements, drawing, "div", class_="tp-seat tp-west")
    with translation.override("ar"):
        assert text(inside(elements, west, "strong")[0]) == pgettext("seat", "on your left")
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(), flags=re.S)
    felt = re.search(r"\.table-picture-felt \{([^}]*)\}", css)
    assert felt and "direction: ltr" in felt.group(1)
    assert '[dir="rtl"] .table-picture-felt > * { direction: rtl; }' in css
    assert '"west east"' in felt.group(1)  # the seat on your left, then the one on your right
    assert '"west centre east"' in css


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_point_links_to_its_full_section(language: str) -> None:
    html = article(page(language))
    elements = Elements(html)
    (points,) = elements.all("ul", class_="rules-summary-points")
    items = [e for e in elements.all("li") if e["parents"] and e["parents"][-1] is points]
    links = inside(elements, points, "a")
    assert len(links) == len(items) == 10
    for item in items:
        (link,) = [a for a in links if item in a["parents"]]  # one link a point
        target = link["attrs"]["href"]
        assert target.startswith("#")
        assert html.count(f'id="{target[1:]}"') == 1, target
        (heading,) = elements.all(id=target[1:])
        assert heading["tag"] in ("h2", "h3") and html.index(f'id="{target[1:]}"') > html.index(
            'id="contents"'
        )  # a section of the full rules, named as its heading is
        assert text(link) == text(heading) != ""
    assert len({a["attrs"]["href"] for a in links}) == 10


def test_the_summary_takes_about_a_minute() -> None:
    elements = Elements(article(page()))
    (points,) = elements.all("ul", class_="rules-summary-points")
    words = " ".join(
        text(e) for e in elements.all("li") if e["parents"] and e["parents"][-1] is points
    )
    for link in inside(elements, points, "a"):
        words = words.replace(text(link), " ")
    assert 120 <= len(words.split()) <= 190


def test_what_the_summary_says_of_the_scoring_is_the_engines() -> None:
    """1 for three or four tricks, 3 for all five alone or with the dummy, 2
    each for the defenders, 4 each when a lone defender takes all five, first
    to the default target: at the default options."""
    html = re.sub(r"\s+", " ", page())
    assert "The maker scores 1 for three or four tricks and 3 for all five, alone or with" in html
    assert "each defender scores 2 (4 if a lone defender took all five)" in html
    assert f"The first to reach {engine.TARGET_DEFAULT} points wins." in html
    march = engine.Rules().lone_maker_march
    for alone in (False, True):
        assert engine.hand_points(0, 5, alone, False, march)[0] == 3
        for tricks in (3, 4):
            assert engine.hand_points(0, tricks, alone, False, march)[0] == 1
        for tricks in (0, 1, 2):
            assert engine.hand_points(0, tricks, alone, False, march)[1:] == [2, 2]
    assert engine.hand_points(0, 0, False, True, march)[1:] == [4, 4]
    assert engine.hand_points(0, 1, False, True, march)[1:] == [2, 2]


def sentences(html: str) -> list[str]:
    body = re.sub(r"<[^>]+>", " ", article(html))
    return [" ".join(s.split()) for s in re.split(r"(?<=[.!?:;])\s+", body) if s.strip()]


def test_no_sentence_says_going_alone_pays_more() -> None:
    """At the default options a lone march scores 3, as a march with the
    dummy does: only a table whose lone maker's march is worth 4 pays more
    for it, and a sentence comparing alone with the dummy must say so."""
    assert engine.hand_points(0, 5, True, False, engine.Rules().lone_maker_march) == (
        engine.hand_points(0, 5, False, False, engine.Rules().lone_maker_march)
    )
    found = sentences(page())
    claims = [
        s
        for s in found
        if re.search(r"\b(alone|lone)\b", s, re.I)
        and re.search(r"\b(more|extra|higher|bonus|bigger)\b", s, re.I)
    ]
    for claim in claims:
        assert re.search(r"\bnot\b|\bno more\b|\bthe same\b", claim), claim
    assert not [s for s in found if re.search(r"alone (always )?(pays|scores|earns) more", s, re.I)]
    assert not [s for s in found if re.search(r"lone [\w' ]*scores more", s, re.I)]
    # What it says instead, from the scoring table.
    text_ = " ".join(found)
    assert "Going alone does not pay more at the usual options" in text_
    assert "makes a lone maker's march worth 4" in text_
