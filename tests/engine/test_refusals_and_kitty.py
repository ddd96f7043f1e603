"""The view's `refused` (why each card the seat to play may not play is
refused, asked of the engine's one check) and `kitty_size` (the face-down
kitty on the table), and `verify` / `can` agreeing with `apply`."""

from __future__ import annotations

import json
import random
import zlib

import pytest

from games.engine import (
    Action,
    EngineError,
    HandState,
    IllegalAction,
    Phase,
    Rules,
    Unplayable,
    apply,
    can,
    game_view,
    legal_actions,
    new_game,
    new_hand,
    verify,
    view,
)
from games.engine.cards import CARD_STRS

from .helpers import act, full_deal, record, rules_combos, state_of, to_play


def _led(hands: dict[int, list[str]], trump: str, lead: str, deck: str = "24") -> HandState:
    """Seat 1 named `trump` and went alone; seat 2 leads `lead`; seat 0 is to play."""
    up = next(c for c in ("9D", "9C", "9S", "9H") if c[1] != trump and c not in hands[0] + [lead])
    s = to_play({**hands, 2: [lead]}, trump=trump, up=up, maker=1, deck=deck)
    assert s.phase == Phase.PLAY and s.to_act == 2
    s = act(s, type="play", card=lead)
    assert s.to_act == 0
    return s


def _refused_cards(s: HandState, seat: int | None) -> list[str]:
    return [r["card"] for r in view(s, seat)["refused"]]


def _refusal_of_apply(s: HandState, seat: int, card: str) -> Unplayable:
    """What `apply` raises for playing `card`, in the view's `refused` shape."""
    with pytest.raises(IllegalAction) as e:
        apply(s, Action(seat, "play", card=card))
    return {"card": card, "code": e.value.code, "params": e.value.params, "message": str(e.value)}


# --- refused -----------------------------------------------------------------


def test_nothing_is_refused_when_the_seat_cannot_follow() -> None:
    """The case the table got wrong: clubs led, only spades in hand: every card may be played."""
    s = _led({0: ["9S", "TS", "QS", "KS", "AS"]}, trump="H", lead="9C")
    v = view(s, 0)
    assert v["led_suit"] == "C"
    assert sorted(a["card"] for a in v["legal_actions"]) == sorted(v["hand"] or [])
    assert v["refused"] == []


def test_the_cards_off_the_led_suit_are_refused_in_hand_order() -> None:
    s = _led({0: ["KC", "9S", "AD", "JH", "QC"]}, trump="H", lead="9C")
    v = view(s, 0)
    assert v["hand"] == ["JH", "KC", "QC", "AD", "9S"]
    assert v["refused"] == [
        {"card": "JH", "code": "must_follow", "params": {"suit": "C"},
         "message": "You must follow clubs"},
        {"card": "AD", "code": "must_follow", "params": {"suit": "C"},
         "message": "You must follow clubs"},
        {"card": "9S", "code": "must_follow", "params": {"suit": "C"},
         "message": "You must follow clubs"},
    ]  # fmt: skip
    # Each is exactly what apply raises for that play; the others are accepted.
    assert v["refused"] == [_refusal_of_apply(s, 0, c) for c in ("JH", "AD", "9S")]
    for c in ("KC", "QC"):
        assert can(s, Action(0, "play", card=c))
        apply(s, Action(0, "play", card=c))


def test_the_left_bower_is_trump_not_its_printed_suit() -> None:
    # Hearts trump: the jack of diamonds is the left bower, a heart.
    s = _led({0: ["JD", "QD", "9S", "TS", "KC"]}, trump="H", lead="9D")
    assert view(s, 0)["hand"] == ["JD", "KC", "QD", "TS", "9S"]
    assert _refused_cards(s, 0) == ["JD", "KC", "TS", "9S"]
    assert view(s, 0)["refused"][0] == _refusal_of_apply(s, 0, "JD")
    # Trump led: the left bower is the seat's only trump, so it must be played.
    s = _led({0: ["JD", "QD", "9S", "TS", "KC"]}, trump="H", lead="9H")
    assert _refused_cards(s, 0) == ["KC", "QD", "TS", "9S"]
    assert {r["params"]["suit"] for r in view(s, 0)["refused"]} == {"H"}
    # The bower led leads trump: a diamond in hand does not follow it.
    s = _led({0: ["QD", "KD", "9S", "TS", "KC"]}, trump="H", lead="JD")
    assert view(s, 0)["led_suit"] == "H" and _refused_cards(s, 0) == []


def test_the_joker_is_trump() -> None:
    s = _led({0: ["JK", "9C", "TC", "QD", "KD"]}, trump="S", lead="9S", deck="25")
    assert view(s, 0)["hand"] == ["JK", "TC", "9C", "KD", "QD"]
    assert _refused_cards(s, 0) == ["TC", "9C", "KD", "QD"]
    s = _led({0: ["JK", "9C", "TC", "QD", "KD"]}, trump="S", lead="AC", deck="25")
    v = view(s, 0)
    assert [r["card"] for r in v["refused"]] == ["JK", "KD", "QD"]
    assert v["refused"] == [_refusal_of_apply(s, 0, c) for c in ("JK", "KD", "QD")]
    assert v["refused"][0]["message"] == "You must follow clubs"


def test_only_the_seat_to_play_is_told() -> None:
    s = _led({0: ["KC", "9S", "AD", "JH", "QC"]}, trump="H", lead="9C")
    assert _refused_cards(s, 0) == ["JH", "AD", "9S"]
    for seat in (1, 2, None):
        assert view(s, seat)["refused"] == []


def test_nothing_is_refused_to_the_leader_or_outside_the_play() -> None:
    deal = full_deal({1: ["9C", "TC", "JC", "QC", "KC"]}, "AS")
    s = state_of(record(deal, 0))
    for seat in (0, 1, 2, None):  # bidding: the seat to act has choices, no card refusals
        assert view(s, seat)["refused"] == []
    s = to_play({2: ["9C", "TC", "JC", "QC", "KC"]}, trump="H", up="AS", maker=1)
    assert s.to_act == 2 and view(s, 2)["refused"] == []  # a lead may be any card
    assert game_view(new_game(Rules()), 0)["refused"] == []


def test_refused_is_every_card_the_engine_refuses_in_random_hands() -> None:
    """Over random hands of every deck and option: `refused` is the hand less
    the legal plays, each entry what `apply` raises; `verify` and `can` agree
    with `apply` for legal and random actions alike."""
    for rules in rules_combos():
        rng = random.Random(zlib.crc32(json.dumps(rules.to_dict(), sort_keys=True).encode()))
        for n in range(6):
            s = new_hand(rules, n % 3, rng)
            while not s.over:
                legal = legal_actions(s)
                seat = s.to_act
                assert seat is not None
                v = view(s, seat)
                if s.phase == Phase.PLAY:
                    plays = {a.card for a in legal}
                    want = [c for c in v["hand"] or [] if c not in plays]
                    assert [r["card"] for r in v["refused"]] == want
                    assert v["refused"] == [_refusal_of_apply(s, seat, c) for c in want]
                    assert not want or v["refused"][0]["code"] == "must_follow"
                else:
                    assert v["refused"] == []
                for other in {0, 1, 2, None} - {seat}:
                    assert view(s, other)["refused"] == []
                for a in [*legal[:8], *_random_actions(rng)]:
                    _same_verdict(s, a)
                s = apply(s, rng.choice(legal))


def _random_actions(rng: random.Random) -> list[Action]:
    out = []
    for _ in range(4):
        t = rng.choice(["pass", "order", "play", "pickup", "leave", "alone", "name", "dummy"])
        out.append(
            Action(
                rng.randrange(3),
                t,
                suit=rng.choice("CDHS") if t == "name" else None,
                card=rng.choice(CARD_STRS) if t == "play" else None,
                discard=rng.choice(CARD_STRS) if t == "pickup" else None,
            )
        )
    return out


def _same_verdict(s: HandState, a: Action) -> None:
    """`verify` raises exactly what `apply` raises (or nothing), and `can` says which."""
    try:
        apply(s, a)
        applied = None
    except EngineError as e:
        applied = (type(e), e.code, e.params, str(e))
    try:
        verify(s, a)
        verified = None
    except EngineError as e:
        verified = (type(e), e.code, e.params, str(e))
    assert verified == applied, a
    assert can(s, a) is (applied is None)


def test_verify_and_can_on_malformed_plays() -> None:
    s = _led({0: ["KC", "9S", "AD", "JH", "QC"]}, trump="H", lead="9C")
    for card, code in (("7C", "not_in_deck"), ("AC", "not_held"), (None, "play_a_card")):
        a = Action(0, "play", card=card)
        assert not can(s, a)
        with pytest.raises(EngineError) as e:
            verify(s, a)
        assert e.value.code == code
        _same_verdict(s, a)
    _same_verdict(s, Action(0, "play", card=["KC"]))  # type: ignore[arg-type]


# --- kitty_size --------------------------------------------------------------

# RULES.md "The deal": the kitty is the undealt rest, the up card on top.
KITTY = {"24": 4, "25": 5, "32": 12}
UP = {"24": "AS", "25": "AS", "32": "7S"}


def _kitties(s: HandState) -> set[int]:
    return {view(s, seat)["kitty_size"] for seat in (0, 1, 2, None)}


@pytest.mark.parametrize("deck", ["24", "25", "32"])
def test_the_kitty_under_the_up_card_and_once_the_dealer_took_it(deck: str) -> None:
    n = KITTY[deck]
    s = state_of(record(full_deal({}, UP[deck], deck), 0, deck=deck))
    assert s.phase == Phase.BID1 and _kitties(s) == {n - 1}  # the up card lies face up on it
    s = act(s, type="order")
    assert s.phase == Phase.DEALER_PICKUP and _kitties(s) == {n - 1}
    dealer_card = view(s, 0)["hand"][0]  # type: ignore[index]
    s = act(s, type="pickup", discard=dealer_card)
    assert s.phase == Phase.MAKER_CHOICE and _kitties(s) == {n - 1}  # the dealer holds it
    s = act(s, type="dummy", keep=view(s, 1)["hand"])
    s = act(s, type="pass")
    s = act(s, type="pass")
    assert s.phase == Phase.PLAY and _kitties(s) == {n - 1}  # discards are not the kitty
    while not s.over:
        s = act(s, type="play", card=legal_actions(s)[0].card)
    assert _kitties(s) == {n - 1} and len(view(s, 0)["deal"]["kitty"]) == n  # type: ignore[index]


@pytest.mark.parametrize("deck", ["24", "25", "32"])
def test_the_kitty_once_the_up_card_is_turned_down(deck: str) -> None:
    n = KITTY[deck]
    # The dealer leaves the up card: it is turned down onto the kitty.
    s = state_of(record(full_deal({}, UP[deck], deck), 0, deck=deck))
    s = act(s, type="order")
    s = act(s, type="leave")
    assert s.phase == Phase.MAKER_CHOICE and _kitties(s) == {n}
    # All pass the first round: the same, through the second round and its end.
    s = state_of(record(full_deal({}, UP[deck], deck), 0, deck=deck))
    for _ in range(3):
        s = act(s, type="pass")
    assert s.phase == Phase.BID2 and view(s, 1)["turned_down"] == UP[deck]
    assert _kitties(s) == {n}
    thrown = s
    for _ in range(3):
        thrown = act(thrown, type="pass")
    assert thrown.over and _kitties(thrown) == {n}
    s = act(s, type="name", suit="H")
    s = act(s, type="alone")
    assert _kitties(s) == {n}


def test_the_kitty_under_a_turned_up_joker() -> None:
    s = state_of(record(full_deal({}, "JK", "25"), 0, deck="25"))
    assert s.phase == Phase.JOKER_SUIT and _kitties(s) == {4}
    s = act(s, type="joker_suit", suit="D")
    assert s.phase == Phase.BID1 and _kitties(s) == {4}


def test_no_kitty_before_the_first_deal() -> None:
    assert game_view(new_game(Rules(deck="32")), None)["kitty_size"] == 0
