"""The public API: actions, exact messages, records, views, games, no Django."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import (
    Action,
    IllegalAction,
    MalformedAction,
    Phase,
    RecordError,
    Rules,
    apply,
    game_apply,
    game_start_hand,
    game_view,
    hand_from_record,
    hand_to_record,
    legal_actions,
    new_game,
    new_hand,
    replay_game,
    replay_hand,
    view,
)

from .helpers import act, full_deal, game_error, game_ok, hand_error, record, state_of, to_play

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_engine_and_bots_does_not_import_django() -> None:
    """The one check of it (`make test-engine` runs these tests without Django)."""
    code = (
        "import sys, games.engine, games.engine.cli, games.bots; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- rules and actions --------------------------------------------------------


def test_rules_defaults_and_dict() -> None:
    assert Rules.from_dict({}).to_dict() == {
        "deck": "24",
        "stick_the_dealer": False,
        "second_round_turned_suit": False,
        "lone_maker_march": 3,
    }
    r = Rules.from_dict({"deck": "25", "lone_maker_march": 4})
    assert r == Rules(deck="25", lone_maker_march=4)


@pytest.mark.parametrize(
    ("d", "fault"),
    [
        ({"deck": 24}, 'deck must be one of "24", "32", "25"'),
        ({"deck": "36"}, 'deck must be one of "24", "32", "25"'),
        ({"stick_dealer": True}, "rules: unknown key 'stick_dealer'"),
        ({"lone_maker_march": 5}, "rules: lone_maker_march must be 3 or 4"),
        ({"stick_the_dealer": "yes"}, "rules: stick_the_dealer must be true or false"),
        ({"second_round_turned_suit": 1}, "rules: second_round_turned_suit must be true or false"),
        ([], "rules must be an object"),
    ],
)
def test_rules_validation_names_the_fault(d: object, fault: str) -> None:
    with pytest.raises(MalformedAction) as e:
        Rules.from_dict(d)
    assert e.value.reason == fault


def test_action_text_form_roundtrip_keeps_extra_fields() -> None:
    d = {"seat": 1, "type": "play", "card": "9C", "auto": True, "at": "2024-01-01"}
    a = Action.from_dict(d)
    assert a.card == "9C" and a.extra == {"auto": True, "at": "2024-01-01"}
    assert a.to_dict() == d
    assert a == Action(1, "play", card="9C")  # extra fields do not change the move
    keep = Action.from_dict({"seat": 0, "type": "dummy", "keep": ["9C", "TC", "JC", "QC", "KC"]})
    assert keep.keep == ("9C", "TC", "JC", "QC", "KC")
    assert keep.to_dict()["keep"] == ["9C", "TC", "JC", "QC", "KC"]


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ("pass", "an action must be an object"),
        ({"seat": 3, "type": "pass"}, "seat must be 0, 1 or 2"),
        ({"seat": True, "type": "pass"}, "seat must be 0, 1 or 2"),
        ({"seat": 0, "type": "fold"}, "unknown action type 'fold'"),
        ({"seat": 0, "type": "play"}, "play a card: the card is missing"),
        ({"seat": 0, "type": "play", "card": "1S"}, "not a card: '1S'"),
        ({"seat": 0, "type": "name"}, "Name a suit"),
        ({"seat": 0, "type": "name", "suit": "X"}, "not a suit: 'X'"),
        ({"seat": 0, "type": "pickup"}, "picking up needs a discard"),
        ({"seat": 0, "type": "dummy", "keep": "9C"}, "keep must be a list of cards"),
    ],
)
def test_malformed_actions(d: object, message: str) -> None:
    with pytest.raises(MalformedAction) as e:
        Action.from_dict(d)
    assert e.value.reason == message


# --- exact messages for illegal actions ------------------------------------------


def test_illegal_actions_raise_readable_messages_and_change_nothing() -> None:
    deal = full_deal({0: ["9C", "TC", "JC", "QC", "KC"]}, "AS")
    s = state_of(record(deal, 0))
    rec = hand_to_record(s)
    cases = [
        (Action(2, "pass"), "It is not your turn"),
        (Action(1, "pickup", discard="9C"), "Order it up or pass"),
        (Action(1, "play", card="9C"), "Order it up or pass"),
    ]
    for a, msg in cases:
        with pytest.raises(IllegalAction) as e:
            apply(s, a)
        assert e.value.reason == msg
    assert hand_to_record(s) == rec

    s = act(act(s, type="pass"), type="order")  # seat 2 assists; the dealer decides
    with pytest.raises(IllegalAction) as e:
        apply(s, Action(0, "pickup", discard="AH"))
    assert str(e.value) == "You cannot discard the Ace of hearts: it is not in your hand"
    with pytest.raises(IllegalAction, match=r"^Pick up the up card or leave it$"):
        apply(s, Action(0, "pass"))


def test_follow_suit_message() -> None:
    s = to_play({2: ["KD", "9C", "TC", "JC", "QC"], 0: ["AD", "9S", "TS", "QS", "KS"]},
                trump="H", up="AS", dealer=0, maker=1)  # fmt: skip
    s = act(s, type="play", card="KD")
    with pytest.raises(IllegalAction) as e:
        act(s, type="play", card="9S")
    assert e.value.reason == "You must follow diamonds"
    with pytest.raises(IllegalAction, match=r"^You do not hold the Ace of hearts$"):
        act(s, type="play", card="AH")
    with pytest.raises(MalformedAction, match=r"^7H is not in this deck$"):
        act(s, type="play", card="7H")
    assert act(s, type="play", card="AD").tricks_won == [0, 0, 0]


def test_action_after_the_hand_is_over() -> None:
    s = state_of(
        record(full_deal({}, "AS"), 0, [{"seat": x, "type": "pass"} for x in (1, 2, 0) * 2])
    )
    assert s.over
    with pytest.raises(IllegalAction, match=r"^The hand is over$"):
        apply(s, Action(1, "pass"))


# --- records ---------------------------------------------------------------------


def test_record_roundtrip_mid_hand_keeps_extras() -> None:
    rng = random.Random(3)
    s = new_hand(Rules(deck="25"), 1, rng)
    for _ in range(6):
        if s.over:
            break
        a = legal_actions(s)[0]
        s = apply(s, Action(a.seat, a.type, a.suit, a.card, a.discard, a.keep, {"auto": True}))
    rec: dict[str, object] = dict(hand_to_record(s))
    rec["table"] = 42  # a field the format does not define: kept
    again = hand_from_record(rec)
    assert hand_to_record(again) == rec
    assert all(a["auto"] is True for a in hand_to_record(again)["actions"])


def test_record_errors() -> None:
    rec = record(full_deal({}, "AS"), 0, [{"seat": 2, "type": "pass"}])
    with pytest.raises(RecordError) as e:
        hand_from_record(rec)
    assert (
        e.value.error == hand_error(replay_hand(rec)) and hand_error(replay_hand(rec))["index"] == 0
    )
    assert hand_error(replay_hand({"format": "euchre3-hand/1"}))["index"] is None
    assert hand_error(replay_hand(42))["index"] is None
    bad_rules = dict(rec, rules=None)
    assert hand_error(replay_hand(bad_rules))["index"] is None


def test_incomplete_record_result() -> None:
    rec = record(full_deal({}, "AS"), 0, [{"seat": 1, "type": "order"}])
    assert replay_hand(rec) == {
        "complete": False, "thrown_in": False, "maker": 1, "trump": "S", "alone": [],
        "sitting_out": None, "tricks": [0, 0, 0], "points": [0, 0, 0],
    }  # fmt: skip


# --- views -----------------------------------------------------------------------


def test_view_shape_and_hidden_information() -> None:
    deal = full_deal(
        {1: ["9C", "TC", "JC", "QC", "KC"]}, "AS", dummy=["AC", "AD", "AH", "KS", "QS"]
    )
    s = state_of(record(deal, 0))
    v1 = view(s, 1)
    assert v1["hand"] == ["KC", "QC", "JC", "TC", "9C"]
    assert v1["up_card"] == "AS" and v1["call_name"] == "Order it up" and v1["call"] == "order"
    assert [a["type"] for a in v1["legal_actions"]] == ["pass", "order"]
    assert view(s, 2)["legal_actions"] == [] and view(s, None)["hand"] is None
    s = act(s, type="order")
    s = act(s, type="pickup", discard=deal["hands"][0][0])
    v0, v1, vs = view(s, 0), view(s, 1), view(s, None)
    assert v0["my_discards"] == [deal["hands"][0][0]]
    assert "discard" in v0["history"][-1] and "discard" not in v1["history"][-1]
    assert vs["my_discards"] == [] and "discard" not in vs["history"][-1]
    assert v1["up_card"] == "AS" and v1["up_card_taken"] is True
    # The maker chooses: the dummy is not shown before the choice, even in legal actions.
    assert s.phase == Phase.MAKER_CHOICE
    assert v1["legal_actions"] == [{"seat": 1, "type": "alone"}, {"seat": 1, "type": "dummy"}]
    assert "AC" not in json.dumps(v1)
    # A keep before the choice is refused whatever it holds, with the same reason.
    reasons = set()
    for keep in (["AC", "AD", "AH", "KS", "KC"], ["9H", "TH", "QH", "KH", "AH"], ["AC"]):
        with pytest.raises(IllegalAction) as e:
            apply(s, Action(1, "dummy", keep=tuple(keep)))
        reasons.add(e.value.reason)
    assert reasons == {
        "First choose between using the dummy and going alone; the dummy's cards are "
        "shown once you choose to use it"
    }
    s = apply(s, Action(1, "dummy"))
    assert s.phase == Phase.DUMMY_KEEP and s.to_act == 1
    v1, v2 = view(s, 1), view(s, 2)
    assert sorted(v1["exchange"] or []) == sorted(deal["hands"][1] + deal["dummy"])
    assert v1["legal_actions"] == [{"seat": 1, "type": "dummy", "keep": None}]
    assert v2["exchange"] is None and "AC" not in json.dumps(v2)
    assert len(legal_actions(s)) == 252
    with pytest.raises(IllegalAction):
        apply(s, Action(1, "alone"))
    s = act(s, type="dummy", keep=["AC", "AD", "AH", "KS", "KC"])
    assert [a["type"] for a in view(s, 1)["history"]].count("dummy") == 1
    v1, v2 = view(s, 1), view(s, 2)
    assert set(v1["dummy"] or []) == set(deal["dummy"]) and v2["dummy"] is None
    assert v1["hand"] == ["KS", "AC", "KC", "AD", "AH"]  # spades (trump) first
    assert "keep" in v1["history"][-1] and "keep" not in v2["history"][-1]
    assert sorted(v1["my_discards"]) == sorted(["9C", "TC", "JC", "QC", "QS"])
    assert v1["deal"] is None and v1["result"] is None
    for key in ("seat", "rules", "dealer", "phase", "to_act", "hand", "hand_counts", "up_card",
                "up_card_taken", "joker_suit", "maker", "trump", "alone", "sitting_out", "dummy",
                "my_discards", "kitty_size", "history", "tricks", "current_trick", "leader",
                "tricks_won", "legal_actions", "refused", "call", "call_name", "result", "deal"):  # fmt: skip
        assert key in v1
    json.dumps(view(s, None))


def test_hand_sorted_trump_first() -> None:
    s = to_play({1: ["9C", "JD", "AH", "AD", "JH"]}, trump="H", up="AS", maker=1)
    assert view(s, 1)["hand"] == ["JH", "JD", "AH", "9C", "AD"]


# --- games -----------------------------------------------------------------------


def test_game_flow_and_view() -> None:
    rng = random.Random(11)
    g = new_game(Rules(), target=5, first_dealer=2)
    assert g.next_dealer == 2 and g.current is None and not g.over
    with pytest.raises(IllegalAction):
        game_apply(g, Action(0, "pass"))
    g = game_start_hand(g, rng)
    assert g.current is not None and g.current.dealer == 2
    with pytest.raises(IllegalAction, match=r"^A hand is still in progress$"):
        game_start_hand(g, rng)
    v = game_view(g, 0)
    assert v["hand_number"] == 1 and v["scores"] == [0, 0, 0] and v["last_hand"] is None
    while g.current is not None:
        g = game_apply(g, legal_actions(g.current)[-1])
    v = game_view(g, 1)
    assert v["last_hand"] is not None and v["last_hand"]["deal"] is not None
    assert g.next_dealer in (0, None)


def test_game_record_errors() -> None:
    assert replay_game({"format": "euchre3-game/1", "first_dealer": 0, "hands": []}) == {
        "scores": [0, 0, 0], "hands": 0, "over": False, "winner": None, "next_dealer": 0,
    }  # fmt: skip
    hand = record(full_deal({}, "AS"), 1, [{"seat": 2, "type": "order"}])
    base = {"format": "euchre3-game/1", "target": 5, "rules": {}, "first_dealer": 1}
    assert game_error(replay_game(dict(base, hands=[hand, hand]))) == {
        "hand": 0,
        "reason": "hand is not complete",
    }
    other_rules = dict(hand, rules={"deck": "32"})
    assert game_error(replay_game(dict(base, hands=[other_rules])))["hand"] == 0
    assert game_error(replay_game(dict(base, hands=["x"])))["hand"] == 0
    assert game_error(replay_game(dict(base, target=True, hands=[])))["hand"] is None
    assert game_ok(replay_game(dict(base, hands=[hand])))["hands"] == 1


def test_the_turned_down_up_card_stays_known_to_everyone() -> None:
    """RULES.md: after the first round everyone still knows which card was
    turned down; every seat's view (and a spectator's) says it."""
    g = game_start_hand(new_game(Rules(), target=10, first_dealer=0), random.Random(4))
    assert g.current is not None
    up = view(g.current, 1)["up_card"]
    assert up is not None
    for seat in (None, 0, 1, 2):
        assert view(g.current, seat)["turned_down"] is None  # still face up
    for s in (1, 2, 0):
        g = game_apply(g, Action(s, "pass"))
    assert g.current is not None and g.current.phase == "bid2"
    for seat in (None, 0, 1, 2):
        v = view(g.current, seat)
        assert v["up_card"] is None and v["turned_down"] == up
