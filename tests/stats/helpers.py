"""Hand-built games: deals chosen so that every hand's outcome is forced
whatever cards are played (a lone maker with the five top trumps marches; a
defender holding every trump wins every trick), so every figure is known."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from games import engine
from games.models import Game, Hand, Seat, Table

# Seats 0, 1, 2; the dummy; the kitty (kitty[0] is the up card).
DEAL_HEARTS_1 = {  # seat 1 holds the five top hearts; TH turned up
    "hands": [
        ["9C", "TC", "JC", "QC", "KC"],
        ["JH", "JD", "AH", "KH", "QH"],
        ["AC", "9S", "TS", "JS", "QS"],
    ],
    "dummy": ["KS", "AS", "9D", "TD", "QD"],
    "kitty": ["TH", "9H", "AD", "KD"],
}
DEAL_CLUBS_1 = {  # seat 1 holds the five top clubs; seat 0 no club; 9H turned up
    "hands": [
        ["9D", "TD", "QD", "KD", "AD"],
        ["JC", "JS", "AC", "KC", "QC"],
        ["9C", "TC", "JD", "9S", "TS"],
    ],
    "dummy": ["QS", "KS", "AS", "TH", "JH"],
    "kitty": ["9H", "QH", "KH", "AH"],
}
DEAL_HEARTS_0 = {  # seat 0 holds the five top hearts; neither seat 2 nor the dummy a heart
    "hands": [
        ["JH", "JD", "AH", "KH", "QH"],
        ["KS", "AS", "9D", "TD", "QD"],
        ["9C", "TC", "JC", "QC", "KC"],
    ],
    "dummy": ["AC", "9S", "TS", "JS", "QS"],
    "kitty": ["TH", "9H", "AD", "KD"],
}


def a(seat: int, kind: str, **kw: Any) -> dict[str, Any]:
    return {"seat": seat, "type": kind, **kw}


def hand_record(
    dealer: int, deal: dict[str, Any], decisions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The record of a hand: the given decisions, then the first legal card each turn."""
    record = {
        "format": "euchre3-hand/1",
        "rules": {},
        "dealer": dealer,
        "deal": deal,
        "actions": decisions,
    }
    state = engine.hand_from_record(record)
    while not state.over:
        legal = engine.legal_actions(state)
        assert legal and legal[0].type == "play", legal
        state = engine.apply(state, legal[0])
    return dict(engine.hand_to_record(state))


# The five hands of the test game (first dealer 0, target 10), with the
# outcome of each:
GAME_HANDS = [
    # 1. dealer 0; bob (1, left of dealer) orders hearts, dealer leaves it, bob alone: march, bob 3.
    (0, DEAL_HEARTS_1, [a(1, "order"), a(0, "leave"), a(1, "alone"), a(2, "pass"), a(0, "pass")]),
    # 2. dealer 1; everybody passes twice: thrown in.
    (
        1,
        DEAL_HEARTS_1,
        [a(2, "pass"), a(0, "pass"), a(1, "pass"), a(2, "pass"), a(0, "pass"), a(1, "pass")],
    ),
    # 3. dealer 2; alice (0, left of dealer) names clubs in round 2, alone, without a club:
    #    bob holds every club, euchre: bob 2, carol 2.
    (
        2,
        DEAL_CLUBS_1,
        [
            a(0, "pass"),
            a(1, "pass"),
            a(2, "pass"),
            a(0, "name", suit="C"),
            a(0, "alone"),
            a(1, "pass"),
            a(2, "pass"),
        ],
    ),
    # 4. dealer 0; carol (2, second) assists in hearts without a heart, dealer alice picks up
    #    and defends alone with every heart: all five tricks, alice 4, bob (sitting out) 4.
    (
        0,
        DEAL_HEARTS_0,
        [
            a(1, "pass"),
            a(2, "order"),
            a(0, "pickup", discard="QH"),
            a(2, "dummy", keep=["9C", "TC", "JC", "QC", "KC"]),
            a(0, "alone"),
        ],
    ),
    # 5. dealer 1; bob accepts as dealer (picks up, discards the up card), alone: march, bob 3.
    (
        1,
        DEAL_HEARTS_1,
        [
            a(2, "pass"),
            a(0, "pass"),
            a(1, "order"),
            a(1, "pickup", discard="TH"),
            a(1, "alone"),
            a(2, "pass"),
            a(0, "pass"),
        ],
    ),
]
FINAL_SCORES = [4, 12, 2]


def build_game(
    players: list[Any],
    *,
    hands: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] | None = None,
    finished: datetime.datetime | None = None,
    mode: str = "live",
    visibility: str = "public",
    name: str = "Built table",
    bots: dict[int, str] | None = None,
    owner: Any = None,
) -> Game:
    """A finished game stored as the site stores one, seats 0-2 for `players`
    (None for a bot of `bots[seat]`)."""
    when = finished or timezone.now()
    bots = bots or {}
    table = Table.objects.create(
        name=name, owner=owner or next(p for p in players if p is not None), rules=engine.Rules().to_dict(),
        target=10, mode=mode, visibility=visibility, status=Table.Status.FINISHED,
    )  # fmt: skip
    for pos, user in enumerate(players):
        Seat.objects.create(table=table, position=pos, user=user, bot_level=bots.get(pos, ""))
    specs = GAME_HANDS if hands is None else hands
    records = [hand_record(d, deal, acts) for d, deal, acts in specs]
    result = engine.replay_game(
        {
            "format": "euchre3-game/1",
            "target": 10,
            "rules": {},
            "first_dealer": specs[0][0],
            "hands": records,
        }
    )
    assert "error" not in result, result
    game = Game.objects.create(
        table=table, first_dealer=specs[0][0], scores=result["scores"], winner=result["winner"],
        status=Game.Status.FINISHED if result["over"] else Game.Status.PLAYING,
        finished=when if result["over"] else None, version=len(records),
    )  # fmt: skip
    for n, rec in enumerate(records):
        Hand.objects.create(
            game=game, number=n, record=rec, result=engine.replay_hand(rec), finished=when
        )
    return game
