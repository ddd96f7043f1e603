"""The rules page (/rules/): open to everyone, every section reachable from its
contents, card pictures named, the scoring table with headers, the examples
in line with the engine, and every word of the template translatable."""

from __future__ import annotations

import itertools
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from euchre_site import rules
from games import engine
from games.engine.cards import SUIT_INDEX, card_from_str
from games.forms import TableForm
from games.models import BOT_LEVELS, MOVE_TIMES
from games.words import card_label

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "templates" / "rules.html"
STYLESHEET = ROOT / "static" / "css" / "rules.css"

# The sections, in the order the page teaches them (h2), and the one h3.
SECTIONS = [
    "players-and-deck",
    "card-ranking",
    "the-deal",
    "joker",
    "first-round",
    "dealer-pickup",
    "second-round",
    "stick-the-dealer",
    "makers-choice",
    "defending-alone",
    "play",
    "scoring",
    "winning",
    "table-options",
]
SUBSECTIONS = {"following-suit": "play"}


class Elements(HTMLParser):
    """Every start tag of a page, in order, with its attributes and the text
    up to its end tag (void elements excepted)."""

    VOID = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": list(self.open)}
        self.found.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element["text"] += data

    def all(self, tag: str | None = None, **attrs: str) -> list[dict[str, Any]]:
        return [
            e
            for e in self.found
            if (tag is None or e["tag"] == tag)
            and all(e["attrs"].get(k.rstrip("_")) == v for k, v in attrs.items())
        ]


def page(client: Client | None = None, headers: dict[str, str] | None = None) -> str:
    response = (client or Client()).get(reverse("rules"), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def article(html: str) -> str:
    start = html.index('<article class="rules-page">')
    return html[start : html.index("</article>", start)]


def words(html: str) -> list[str]:
    text = " ".join(e["text"] for e in Elements(html).all("article"))
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text)


def test_the_page_is_open_to_visitors_and_players(alice: Any) -> None:
    assert reverse("rules") == "/rules/"
    anonymous = page()
    assert "How to play Cutthroat Euchre" in anonymous
    signed_in = Client()
    signed_in.force_login(alice)
    html = page(signed_in)
    assert "How to play Cutthroat Euchre" in html and "alice" in html


def test_get_only_and_cacheable_by_the_browser_alone() -> None:
    client = Client()
    response = client.get(reverse("rules"))
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "max-age=600"} <= cache_control
    vary = {part.strip().lower() for part in response["Vary"].split(",")}
    assert {"cookie", "accept-language"} <= vary  # the page speaks the visitor's language
    assert client.head(reverse("rules")).status_code == 200
    assert client.post(reverse("rules")).status_code == 405


def test_every_section_once_in_order_with_the_contents_linking_to_each() -> None:
    html = page()
    for anchor in [*SECTIONS, *SUBSECTIONS]:
        assert html.count(f'id="{anchor}"') == 1, anchor
    elements = Elements(article(html))
    # The one-minute summary comes first (tests/test_rules_summary.py), then the contents.
    assert [e["attrs"]["id"] for e in elements.all("h2")] == ["summary", "contents", *SECTIONS]
    assert [e["attrs"]["id"] for e in elements.all("h3")] == list(SUBSECTIONS)
    (h3,) = elements.all("h3")
    assert [p["attrs"].get("aria-labelledby") for p in h3["parents"]][-1] == "play"

    (toc,) = elements.all("nav")
    links = [e["attrs"]["href"] for e in elements.found if e["tag"] == "a" and toc in e["parents"]]
    assert links == [f"#{anchor}" for anchor in SECTIONS[:11]] + [
        "#following-suit",
        *(f"#{anchor}" for anchor in SECTIONS[11:]),
    ]
    for link in elements.all("a"):
        if toc in link["parents"]:  # each entry is named like its section's heading
            heading = elements.all(id=link["attrs"]["href"][1:])[0]
            assert link["text"].strip() == heading["text"].strip() != ""


def test_headings_descend_one_level_at_a_time() -> None:
    html = page()
    levels = [int(level) for level in re.findall(r"<h([1-6])\b", article(html))]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels))


def test_every_card_picture_is_named() -> None:
    elements = Elements(article(page()))
    (picture,) = elements.all("figure")  # the table's picture: said by its text alternative
    cards = [
        e
        for e in elements.found
        if "card" in e["attrs"].get("class", "").split() and picture not in e["parents"]
    ]
    shown = [code for row in rules.CARD_ROWS.values() for code in row]
    assert [c["attrs"]["data-card"] for c in cards] == shown
    for card in cards:
        assert card["attrs"]["role"] == "img"
        assert card["attrs"]["aria-label"] == card_label(card["attrs"]["data-card"]) != ""
    assert elements.all(**{"aria-label": "Jack of diamonds"})
    assert elements.all(**{"aria-label": "Joker"})
    for row in ("trump", "plain", "partner", "joker"):  # each row is named by the text before it
        (listing,) = elements.all(id=f"cards-{row}")
        assert elements.all(id=listing["attrs"]["aria-labelledby"])


def test_the_card_rows_rank_as_the_engine_ranks() -> None:
    trump = SUIT_INDEX[rules.EXAMPLE_TRUMP]

    def beats(a: str, b: str) -> bool:
        return engine.trick_winner([card_from_str(a), card_from_str(b)], None, trump) == 0

    for name in ("trump", "plain", "partner"):
        row = rules.CARD_ROWS[name]
        assert all(beats(a, b) and not beats(b, a) for a, b in itertools.pairwise(row))
        assert len({engine.effective_suit(code, trump) for code in row}) == 1
    assert {engine.effective_suit(code, trump) for code in rules.CARD_ROWS["trump"]} == {trump}
    # The jack of the partner suit is the left bower: it is in the trump row, not in its own.
    assert "JD" in rules.CARD_ROWS["trump"] and "JD" not in rules.CARD_ROWS["partner"]
    assert len(rules.CARD_ROWS["partner"]) == 5 and len(rules.CARD_ROWS["plain"]) == 6
    assert beats("JK", "JH")


def test_the_scoring_table_has_a_caption_and_headers() -> None:
    elements = Elements(article(page()))
    (table,) = elements.all("table")
    (caption,) = elements.all("caption")
    assert caption["text"].strip() == "Points for one hand"
    columns = [e["text"].strip() for e in elements.all("th", scope="col")]
    assert columns == ["Result of the hand", "The maker", "Each defender"]
    rows = [e for e in elements.all("tr") if table in e["parents"]]
    assert len(rows) == 7
    for row in rows[1:]:
        cells = [e for e in elements.found if e["parents"] and e["parents"][-1] is row]
        assert [c["tag"] for c in cells] == ["th", "td", "td"]
        assert cells[0]["attrs"]["scope"] == "row"
    assert [e["text"].strip() for e in elements.all("td")[1::2]] == ["0", "0", "0", "2", "2", "4"]


def test_the_defaults_the_page_states_are_the_sites() -> None:
    """The page says: 24 cards, no stick the dealer, the turned-down suit not
    in round two, a lone march of 3, target 10, live, 1 day a move, public,
    seats open for people. A changed default must change the page too."""
    assert engine.Rules() == engine.Rules(
        deck="24", stick_the_dealer=False, second_round_turned_suit=False, lone_maker_march=3
    )
    form = TableForm()
    assert (form.fields["deck"].initial, form.fields["target"].initial) == ("24", 10)
    assert (form.fields["mode"].initial, form.fields["visibility"].initial) == ("live", "public")
    assert form.fields["move_seconds"].initial == 86400
    # Issue 22: an empty seat is a medium bot by default (the page's "Bots"
    # paragraph still says "open for people": templates/rules.html to follow).
    assert [form.fields[seat].initial for seat in ("seat_2", "seat_3")] == ["medium", "medium"]
    text = " ".join(words(page()))
    for _, label in MOVE_TIMES:
        assert str(label) in text
    levels = [str(label).split()[0].lower() for _, label in BOT_LEVELS]
    assert levels == ["easy", "medium", "hard", "expert"]
    assert "of one of four levels" in text
    for level in levels:
        assert re.search(rf"\b{level}\b", text.split("four levels", 1)[1])
    assert (
        f"from {engine.TARGET_MIN} to {engine.TARGET_MAX}, {engine.TARGET_DEFAULT} by default"
        in re.sub(r"\s+", " ", page())
    )


def test_the_page_mirrors_in_arabic() -> None:
    html = page(headers={"Accept-Language": "ar"})
    assert 'dir="rtl"' in html and 'href="/static/css/rules.css"' in html
    css = re.sub(r"/\*.*?\*/", "", STYLESHEET.read_text(), flags=re.S)
    assert not re.search(r"\b(left|right)\b", css), "logical properties only"


def test_every_word_of_the_template_is_translatable() -> None:
    source = TEMPLATE.read_text()
    blocks = re.findall(r"{% blocktranslate trimmed.*?%}(.*?){% endblocktranslate %}", source, re.S)
    assert len(blocks) > 80
    for block in blocks:
        assert "<" not in block, block  # no markup for translators to keep intact
        assert len(block.split()) < 80, block  # one paragraph or list item each
    rest = re.sub(r"{% blocktranslate.*?{% endblocktranslate %}", " ", source, flags=re.S)
    rest = re.sub(r"{% comment.*?{% endcomment %}", " ", rest, flags=re.S)
    rest = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}|<[^>]*>", " ", rest, flags=re.S)
    assert re.findall(r"[^\W\d_]+", rest) == []  # only the score table's figures are left
    # Terms that need care carry a note for translators, each written on the
    # line before its string (else makemessages does not attach it).
    for note in re.finditer(r"{% comment %}Translators:.*?{% endcomment %}\n(.*)", source):
        assert re.search(r"{% (block)?translate ", note.group(1)), note.group(0)
    notes = " ".join(re.findall(r"{% comment %}Translators:(.*?){% endcomment %}", source, re.S))
    for term in ("trump", "bower", "euchred", "march", "dummy", "kitty", "maker", "order it up",
                 "assist", "accept", "go alone", "defend alone", "stick the dealer"):  # fmt: skip
        assert term in notes.lower(), term
