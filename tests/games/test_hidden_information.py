"""Every byte sent to each seat and to a spectator, checked against the cards
that viewer may know (docs/rules.md "What each player may see").

Whole games are played through the real views (HTTP posts of the moves) while
a websocket per seat and one for a spectator collect every frame; after each
move each frame, and each seat's full page, is checked. The end-of-hand
summary of an already finished hand (`data-hand`) is the one place where
other cards may appear, and only for hands that are over, and only to the
hand's players: a spectator's summary shows only the cards played.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client
from django.urls import reverse

from games import engine, services
from games.engine import GameState
from games.models import Game

from .conftest import open_table
from .wsclient import acommunicator

pytestmark = pytest.mark.django_db(transaction=True)

CARD_CODE = re.compile(r"\b(?:[789TJQKA][CDHS]|JK)\b")
SUMMARY = re.compile(r'<section class="hand-summary" data-hand="(\d+)".*?</section>', re.S)
ALL_CARDS = [r + s for r in "789TJQKA" for s in "CDHS"] + ["JK"]
# "Joker" also names a deck in the rules text; the Joker is caught by its code.
NAMES = {engine.card_name(c): c for c in ALL_CARDS if c != "JK"}


def known_cards(state: GameState, seat: int | None) -> set[str]:
    """The cards `seat` may know now in the hand in play, from the full state."""
    hand = state.hands[-1]
    record = engine.hand_to_record(hand)
    known = {record["deal"]["kitty"][0]}  # the up card was shown to everyone
    for action in record["actions"]:
        if action["type"] == "play":
            known.add(action["card"])
        if action["seat"] == seat and action["type"] == "pickup":
            known.add(action["discard"])
        if action["seat"] == seat and action["type"] == "dummy":
            known.update(record["deal"]["hands"][seat])
            known.update(record["deal"]["dummy"])
    if seat is not None:
        known.update(record["deal"]["hands"][seat])  # what it was dealt (its own, played or not)
        if hand.to_act == seat and hand.phase == "dummy_keep":
            known.update(record["deal"]["dummy"])
        if record["dealer"] == seat and hand.up_card_taken:
            known.add(record["deal"]["kitty"][0])
    if hand.over and seat is not None:
        known.update(ALL_CARDS)  # a finished hand's whole deal, for its players only
    if len(state.hands) > 1:
        # The hand just over is public (its summary shows its whole deal); its
        # last trick is also shown on the table until the new hand's first move.
        previous = engine.hand_to_record(state.hands[-2])
        known.update(a["card"] for a in previous["actions"] if a["type"] == "play")
    return known


def cards_in(html: str, finished_hands: int, spectator: bool = False) -> set[str]:
    """Card codes and card names in a frame, outside summaries of finished
    hands (a spectator's summaries count: they show only public cards)."""

    def strip(match: re.Match[str]) -> str:
        assert int(match.group(1)) <= finished_hands, "a summary of a hand still in play"
        return match.group(0) if spectator else ""

    body = SUMMARY.sub(strip, html)
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)
    found = set(CARD_CODE.findall(body))
    found.update(code for name, code in NAMES.items() if name in body)
    return found


def play_and_check(
    alice: Any, bob: Any, carol: Any, outsider: Any, rules: dict[str, Any], seed: int
) -> int:
    table = open_table(alice, rules=rules, target=5)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    game = Game.objects.select_related("table").get(table=table)
    users = {0: alice, 1: bob, 2: carol}
    clients = {}
    for seat, user in users.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    rng = random.Random(seed)
    act_url = reverse("games:act", args=[table.pk])
    checked = 0

    async def run() -> None:
        nonlocal checked
        viewers: list[int | None] = [0, 1, 2, None]
        sockets = {
            v: await acommunicator(
                f"/ws/tables/{table.pk}/", users[v] if v is not None else outsider
            )
            for v in viewers
        }
        for ws in sockets.values():
            assert (await ws.connect())[0]
        for _ in range(2000):
            g = await sync_to_async(Game.objects.select_related("table").get)(pk=game.pk)
            state = await sync_to_async(services.game_state)(g)
            finished = sum(1 for h in state.hands if h.over)
            # The one frame each viewer gets per move (a snapshot on connecting), then its page.
            for v, ws in sockets.items():
                frames = [await ws.receive_from(timeout=10)]
                assert f'data-version="{g.version}"' in frames[0]
                if v is not None:
                    page = await sync_to_async(clients[v].get)(table.get_absolute_url())
                    frames.append(page.content.decode())
                allowed = known_cards(state, v)
                for html in frames:
                    leaked = cards_in(html, finished, spectator=v is None) - allowed
                    assert not leaked, (
                        f"viewer {v} at version {g.version} was shown {sorted(leaked)}"
                    )
                    checked += 1
            if g.status == Game.Status.FINISHED:
                break
            assert state.current is not None and state.current.to_act is not None
            seat = state.current.to_act
            view = engine.game_view(state, seat)
            action = dict(rng.choice(view["legal_actions"]))
            action.pop("seat")
            data: dict[str, Any] = {"version": str(g.version)}
            if view["exchange"]:
                data["keep"] = rng.sample(view["exchange"], 5)
                action = {"type": "dummy"}
            data["action"] = json.dumps(action)
            response = await sync_to_async(clients[seat].post)(
                act_url, data, HTTP_HX_REQUEST="true"
            )
            assert 'role="alert"' not in response.content.decode(), response.content.decode()[:500]
        for ws in sockets.values():
            assert await ws.receive_nothing(timeout=0.2)
            await ws.disconnect()

    async_to_sync(run)()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return checked


@pytest.mark.parametrize(
    "rules, seed",
    [
        ({"deck": "24"}, 1),
        ({"deck": "25", "stick_the_dealer": True}, 2),
        ({"deck": "32", "second_round_turned_suit": True}, 3),
    ],
)
def test_no_viewer_is_ever_sent_a_card_it_may_not_know(
    alice: Any, bob: Any, carol: Any, outsider: Any, rules: dict[str, Any], seed: int, settings: Any
) -> None:
    settings.TABLE_POST_RATE = "100000/s"  # moves here come as fast as the machine allows
    checked = play_and_check(alice, bob, carol, outsider, rules, seed)
    assert checked > 200


def test_the_checker_catches_a_leak() -> None:
    """The check above would fail if another seat's card reached a frame."""
    html = '<div id="table"><span class="card" data-card="JH" aria-label="Jack of hearts"></span></div>'
    assert cards_in(html, 0) == {"JH"}
    html = '<section class="hand-summary" data-hand="1"><span data-card="JH"></span></section>'
    assert cards_in(html, 1) == set()
    with pytest.raises(AssertionError):
        cards_in(html, 0)
