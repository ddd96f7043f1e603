"""What the site says to one person, in that person's language: a refused
move's reason (with the rule that refused it), while the engine's command line
and its records stay English."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import engine, services, words
from games.models import Game
from tests.engine.test_cli import BAD
from tests.games.conftest import open_table, play_one, players, state_of, to_act

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def live_game(alice: Any, bob: Any, carol: Any) -> Game:
    table = open_table(alice)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    return table.games.select_related("table").get()


def alert(html: str) -> str:
    start = html.index('role="alert">') + len('role="alert">')
    return html[start : html.index("</p>", start)]


def must_follow_position(game: Game) -> tuple[int, str]:
    """Play (seeded) until the player to act holds a card they may not play
    because they must follow the suit led: (seat, that card)."""
    rng = random.Random(13)
    for _ in range(200):
        seat = to_act(game)
        view = engine.game_view(state_of(game), seat)
        if view["phase"] == "play" and view["current_trick"]:
            legal = {a["card"] for a in view["legal_actions"]}
            off = [c for c in view["hand"] or [] if c not in legal]
            if off:
                return seat, off[0]
        play_one(game, rng, prefer="order")
    raise AssertionError("no must-follow position in 200 moves")


@pytest.mark.parametrize(
    ("language", "how"), [("el", "profile"), ("ru", "browser"), ("ar", "profile")]
)
def test_a_refused_card_is_explained_in_the_players_language(
    live_game: Game, language: str, how: str
) -> None:
    game = live_game
    seat, card = must_follow_position(game)
    user = players(game.table)[seat]
    client = Client(headers={"accept-language": language} if how == "browser" else {})
    client.force_login(user)
    type(user).objects.filter(pk=user.pk).update(language=language if how == "profile" else "")
    version = game.version
    response = client.post(
        reverse("games:act", args=[game.table_id]),
        {"action": json.dumps({"type": "play", "card": card}), "version": str(version)},
        headers=HTMX,
    )
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.version == version  # nothing changed
    said = alert(response.content.decode())
    with pytest.raises(engine.EngineError) as refused:
        engine.game_apply(
            state_of(game), engine.Action.from_dict({"seat": seat, "type": "play", "card": card})
        )
    assert refused.value.code == "must_follow"
    suit = refused.value.params["suit"]
    with translation.override(language):
        reason = gettext("You must follow %(suit)s.") % {"suit": words.suit_name(suit)}
        see = gettext("See the rule")
    english = f"You must follow {words.suit_name(suit)}."
    assert reason != english and see != "See the rule"  # the catalog has them
    assert said == f'{reason} <a href="{reverse("rules")}#following-suit">{see}</a>'


def test_the_engines_command_line_still_speaks_english() -> None:
    """Whatever the environment's language, the CLI's errors are the engine's
    English reasons (records and scripts read them)."""
    for lang in ("el_GR.UTF-8", "ar"):
        p = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay", "-"],
            input=json.dumps(BAD), capture_output=True, text=True, timeout=60, cwd=ROOT,
            env={**os.environ, "LANG": lang, "LANGUAGE": lang, "LC_ALL": "C.UTF-8",
                 "DJANGO_SETTINGS_MODULE": "euchre_site.settings"},
        )  # fmt: skip
        assert json.loads(p.stdout)["error"]["reason"] == "not this seat's turn"


def test_every_engine_code_has_its_own_sentence_in_every_language() -> None:
    """The engine's codes are one StrEnum (engine.ErrorCode): each has a
    sentence of its own in games.messages (not the generic refusal), and
    every language's catalog translates it."""
    from django.conf import settings

    from games import messages

    params = {"card": "JH", "suit": "H", "call": "order", "type": "x", "field": "y", "n": 4}
    params |= {"min": 5, "max": 25}
    for code in engine.ErrorCode:
        exc = engine.IllegalAction("reason", code, **params)
        with translation.override("en"):
            english = messages.refusal(exc)
            assert english and (
                code == engine.ErrorCode.INVALID or english != messages._generic()
            ), code
        for language, _name in settings.LANGUAGES:
            if language != "en":
                with translation.override(language):
                    assert messages.refusal(exc) != english, (code, language)


def test_keeping_other_than_five_is_the_engines_refusal_with_the_count(live_game: Game) -> None:
    """The table's form sends the cards ticked; the engine's check refuses a
    keep of another size, and the site says how many were chosen."""
    game = live_game
    play_one(game, prefer="order")
    while (cur := state_of(game).current) is not None and cur.phase != "dummy_keep":
        play_one(game, prefer="dummy")
    seat = to_act(game)
    client = Client()
    client.force_login(players(game.table)[seat])
    ten = engine.game_view(state_of(game), seat)["exchange"] or []
    version = game.version
    response = client.post(
        reverse("games:act", args=[game.table_id]),
        {"action": '{"type":"dummy"}', "keep": ten[:4], "version": str(version)},
        headers=HTMX,
    )
    assert response.status_code == 400
    assert alert(response.content.decode()).startswith("Keep exactly five cards (you chose 4).")
    game.refresh_from_db()
    assert game.version == version
