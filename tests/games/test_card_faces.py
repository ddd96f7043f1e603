"""Card pictures: a card names its face in the page's sprite, and the sprite,
which every page carries whoever reads it, names no card."""

from __future__ import annotations

import re

from django.utils import translation

from games import presenters
from games.engine.cards import N_CARDS, card_str

CARD_CODE = re.compile(r"\b(?:[789TJQKA][CDHS]|JK)\b")
ALL_CARDS = [card_str(c) for c in range(N_CARDS)]


def test_every_card_uses_a_face_the_sprite_draws_in_every_language() -> None:
    for language in ("en", "el", "ar", "ru", "th", "ht"):
        with translation.override(language):
            sprite = str(presenters.card_symbols())
            defined = set(re.findall(r'<symbol id="([^"]+)"', sprite))
            for code in ALL_CARDS:
                html = presenters.card_html(code)
                used = re.findall(r'<use href="#([^"]+)"', html)
                assert len(used) == 1 and used[0] in defined, (language, code, html)
                # The face draws the corners' index and suit, and a large suit.
                face = re.search(rf'<symbol id="{used[0]}".*?</symbol>', sprite).group(0)  # type: ignore[union-attr]
                assert face.count('href="#rank-') == 2 and face.count('href="#pip-') == 3, face


def test_the_sprite_holds_no_card_code_and_no_card_name() -> None:
    with translation.override("en"):
        sprite = str(presenters.card_symbols())
        assert not CARD_CODE.findall(sprite)
        assert "Queen" not in sprite and "aria-label" not in sprite
        # A card shown names itself: its code and its name are on its own span.
        assert 'data-card="QD"' in presenters.card_html("QD")
        assert 'aria-label="Queen of diamonds"' in presenters.card_html("QD")
