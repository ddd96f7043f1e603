"""Each scoring row and each table option, on deals whose outcome no play can change."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    ErrorCode,
    HandResult,
    HandState,
    IllegalAction,
    MalformedAction,
    Phase,
    legal_actions,
    replay_hand,
)

from .helpers import (
    act,
    full_deal,
    hand_ok,
    named_in_round_two,
    random_playout,
    record,
    state_of,
)

# Seat 1 names hearts in round two (dealer 0, up card JS). Each deal forces the
# maker's trick count whatever anyone plays (see the comments).
DEALS: dict[str, dict[int, list[str]]] = {
    # The five top trumps: every trick.
    "march": {1: ["JH", "JD", "AH", "KH", "QH"], 2: ["TC", "JC", "QC", "KC", "AC"]},
    # Four top trumps win; 9C always meets seat 2's clubs (all five of them).
    "four": {
        1: ["JH", "JD", "AH", "KH", "9C"],
        2: ["TC", "JC", "QC", "KC", "AC"],
        0: ["QH", "TH", "9H", "AS", "KS"],
    },
    # Three top trumps win; 9C meets seat 2's clubs, 9D meets seat 0's diamonds or KH.
    "three": {
        1: ["JH", "JD", "AH", "9C", "9D"],
        2: ["TC", "JC", "QC", "KC", "AC"],
        0: ["TD", "QD", "KD", "AD", "KH"],
    },
    # Two top trumps win; seat 0 holds only (lower) trumps and ruffs everything else.
    "two": {
        1: ["JH", "JD", "9C", "9D", "9S"],
        0: ["AH", "KH", "QH", "TH", "9H"],
        2: ["TC", "JC", "QC", "KC", "AC"],
    },
    # No trump at all against seat 0's five trumps: nothing.
    "none": {
        1: ["9C", "9D", "9S", "TC", "TD"],
        0: ["JH", "JD", "AH", "KH", "QH"],
    },
    # Against a lone seat 0 with three low trumps and TC, TD: exactly three.
    "three_vs_lone": {
        1: ["JH", "JD", "AH", "9C", "9D"],
        0: ["KH", "QH", "TH", "TC", "TD"],
        2: ["JC", "QC", "KC", "AC", "9H"],
    },
}


def _play(
    deal_name: str,
    maker_alone: bool,
    defender_alone: int | None,
    seed: int,
    **rules: str | bool | int,
) -> HandResult:
    hands = DEALS[deal_name]
    deal = full_deal(hands, "JS", str(rules.get("deck", "24")))
    actions = [*named_in_round_two(0, 1), {"seat": 1, "type": "name", "suit": "H"}]
    if maker_alone:
        actions.append({"seat": 1, "type": "alone"})
    else:
        actions.append({"seat": 1, "type": "dummy", "keep": deal["hands"][1]})
    # Defenders are asked left of the maker first: seat 2, then seat 0.
    if defender_alone == 2:
        actions.append({"seat": 2, "type": "alone"})
    else:
        actions.append({"seat": 2, "type": "pass"})
        actions.append({"seat": 0, "type": "alone" if defender_alone == 0 else "pass"})
    s = state_of(record(deal, 0, actions, **rules))
    s = random_playout(s, random.Random(seed))
    return hand_ok(replay_hand(record(deal, 0, [a.to_dict() for a in s.actions], **rules)))


@pytest.mark.parametrize(
    ("deal", "maker_alone", "defender_alone", "rules", "tricks1", "points"),
    [
        # maker takes 3 or 4: maker 1
        ("three", False, None, {}, 3, [0, 1, 0]),
        ("four", False, None, {}, 4, [0, 1, 0]),
        ("four", True, None, {}, 4, [0, 1, 0]),
        # march: 3; alone: lone_maker_march
        ("march", False, None, {}, 5, [0, 3, 0]),
        ("march", False, None, {"lone_maker_march": 4}, 5, [0, 3, 0]),
        ("march", True, None, {}, 5, [0, 3, 0]),
        ("march", True, None, {"lone_maker_march": 4}, 5, [0, 4, 0]),
        # euchred, no defender alone: each defender 2
        ("two", False, None, {}, 2, [2, 0, 2]),
        ("none", True, None, {}, 0, [2, 0, 2]),  # five defender tricks, nobody alone: still 2
        # a defender alone, defenders take 3 or 4: each defender 2 (also the one sitting out)
        ("two", False, 0, {}, 2, [2, 0, 2]),
        ("two", True, 0, {}, 2, [2, 0, 2]),
        # a defender alone, defenders take all 5: each defender 4
        ("none", False, 0, {}, 0, [4, 0, 4]),
        ("none", True, 0, {}, 0, [4, 0, 4]),
        # a lone defender does not change the maker's points
        ("three_vs_lone", False, 0, {}, 3, [0, 1, 0]),
        ("three_vs_lone", True, 0, {}, 3, [0, 1, 0]),
        ("march", True, 2, {"lone_maker_march": 4}, 5, [0, 4, 0]),
    ],
)
def test_scoring_row(
    deal: str,
    maker_alone: bool,
    defender_alone: int | None,
    rules: dict[str, str | bool | int],
    tricks1: int,
    points: list[int],
) -> None:
    for seed in range(12):
        res = _play(deal, maker_alone, defender_alone, seed, **rules)
        assert res["complete"] and res["maker"] == 1 and res["trump"] == "H"
        assert res["tricks"][1] == tricks1, res
        assert sum(res["tricks"]) == 5
        assert res["points"] == points, res
        alone = sorted(
            ([1] if maker_alone else []) + ([defender_alone] if defender_alone is not None else [])
        )
        assert res["alone"] == alone
        expected_out = None if defender_alone is None else (2 if defender_alone == 0 else 0)
        assert res["sitting_out"] == expected_out
        if expected_out is not None:
            assert res["tricks"][expected_out] == 0


@pytest.mark.parametrize(
    ("maker_alone", "defender_alone", "leader"),
    [
        (False, None, 1),  # nobody alone: left of the dealer (0)
        (True, None, 2),  # maker 1 alone: left of the maker
        (False, 2, 1),  # defender 2 alone (0 sits out): first active after 2 is 1
        (False, 0, 1),  # defender 0 alone (2 sits out): after 0 comes 1
        (True, 0, 0),  # both alone: the lone defender leads
        (True, 2, 2),
    ],
)
def test_opening_lead(maker_alone: bool, defender_alone: int | None, leader: int) -> None:
    deal = full_deal({}, "JS")
    actions = [*named_in_round_two(0, 1), {"seat": 1, "type": "name", "suit": "H"}]
    actions.append(
        {"seat": 1, "type": "alone"}
        if maker_alone
        else {"seat": 1, "type": "dummy", "keep": deal["hands"][1]}
    )
    if defender_alone == 2:
        actions.append({"seat": 2, "type": "alone"})
    else:
        actions += [{"seat": 2, "type": "pass"}]
        actions += [{"seat": 0, "type": "alone" if defender_alone == 0 else "pass"}]
    s = state_of(record(deal, 0, actions))
    assert s.phase == Phase.PLAY
    assert s.to_act == leader
    assert s.leader == leader


def test_thrown_in_hand_scores_nothing() -> None:
    deal = full_deal({}, "JS")
    actions = [{"seat": s, "type": "pass"} for s in (1, 2, 0, 1, 2, 0)]
    res = replay_hand(record(deal, 0, actions))
    assert res == {
        "complete": True,
        "thrown_in": True,
        "maker": None,
        "trump": None,
        "alone": [],
        "sitting_out": None,
        "tricks": [0, 0, 0],
        "points": [0, 0, 0],
    }


def _round_two(stick: bool = False, turned: bool = False) -> HandState:
    deal = full_deal({}, "JS")
    s = state_of(
        record(deal, 0, [{"seat": s, "type": "pass"} for s in (1, 2, 0)],
               stick_the_dealer=stick, second_round_turned_suit=turned)
    )  # fmt: skip
    assert s.phase == Phase.BID2
    return s


def test_stick_the_dealer_dealer_cannot_pass() -> None:
    s = _round_two(stick=True)
    s = act(s, type="pass")
    s = act(s, type="pass")
    assert s.to_act == 0
    types = {a.type for a in legal_actions(s)}
    assert types == {"name"}
    with pytest.raises(IllegalAction, match=r"^Stick the dealer: the dealer must name a suit$"):
        act(s, type="pass")
    s = act(s, type="name", suit="D")
    assert s.maker == 0 and s.trump == "D"


def test_without_stick_the_dealer_three_passes_throw_in() -> None:
    s = _round_two()
    for _ in range(3):
        s = act(s, type="pass")
    assert s.over and s.thrown_in and legal_actions(s) == []


@pytest.mark.parametrize("turned", [False, True])
def test_second_round_turned_suit(turned: bool) -> None:
    s = _round_two(turned=turned)
    named = sorted(a.suit for a in legal_actions(s) if a.type == "name")  # type: ignore[type-var]
    assert named == (["C", "D", "H", "S"] if turned else ["C", "D", "H"])
    if turned:
        assert act(s, type="name", suit="S").trump == "S"
    else:
        with pytest.raises(IllegalAction, match=r"^You may not name spades, the turned-down suit$"):
            act(s, type="name", suit="S")


def test_first_round_order_and_dealer_pickup() -> None:
    deal = full_deal({0: ["9C", "TC", "JC", "QC", "KC"]}, "AS")
    s = state_of(record(deal, 0))
    assert s.phase == Phase.BID1 and s.to_act == 1
    s = act(s, type="order")
    assert s.maker == 1 and s.trump == "S" and s.phase == Phase.DEALER_PICKUP and s.to_act == 0
    choices = legal_actions(s)
    assert {a.type for a in choices} == {"pickup", "leave"}
    assert sorted(a.discard for a in choices if a.type == "pickup") == sorted(  # type: ignore[type-var]
        ["9C", "TC", "JC", "QC", "KC", "AS"]
    )
    taken = act(s, type="pickup", discard="9C")
    assert taken.up_card_taken is True and "AS" in taken.hand_of(0) and "9C" not in taken.hand_of(0)
    left = act(s, type="leave")
    assert left.up_card_taken is False and left.phase == Phase.MAKER_CHOICE and left.to_act == 1


def test_dealer_who_accepts_must_pick_up() -> None:
    s = state_of(record(full_deal({}, "AS"), 0))
    s = act(act(act(s, type="pass"), type="pass"), type="order")
    assert s.maker == 0 and s.phase == Phase.DEALER_PICKUP
    assert {a.type for a in legal_actions(s)} == {"pickup"}
    with pytest.raises(IllegalAction, match=r"^The dealer who accepted must pick up the up card$"):
        act(s, type="leave")


def test_dealer_may_discard_the_up_card() -> None:
    s = state_of(record(full_deal({}, "AS"), 0))
    s = act(act(s, type="order"), type="pickup", discard="AS")
    assert "AS" not in s.hand_of(0) and s.up_card_taken is True


def test_dummy_exchange_keeps_five_of_ten() -> None:
    deal = full_deal(
        {1: ["9C", "TC", "JC", "QC", "KC"]}, "AS", dummy=["AC", "AD", "AH", "KS", "QS"]
    )
    s = state_of(record(deal, 0, [{"seat": 1, "type": "order"}, {"seat": 0, "type": "leave"}]))
    assert s.phase == Phase.MAKER_CHOICE
    assert [(a.type, a.keep) for a in legal_actions(s)] == [("alone", None), ("dummy", None)]
    s = act(s, type="dummy")  # chosen: now the ten cards are the maker's to keep five of
    assert s.phase == Phase.DUMMY_KEEP
    choices = legal_actions(s)
    assert len(choices) == 252 and {a.type for a in choices} == {"dummy"}
    assert len({a.keep for a in choices}) == 252
    s2 = act(s, type="dummy", keep=["AC", "AD", "AH", "KS", "KC"])
    assert sorted(s2.hand_of(1)) == sorted(["AC", "AD", "AH", "KS", "KC"])
    for bad in (
        ["AC", "AD", "AH", "KS"],
        ["AC", "AD", "AH", "KS", "KS"],
        ["AC", "AD", "AH", "KS", "AS"],
    ):
        with pytest.raises(ValueError, match=r"^Keep must be five of the ten cards$"):
            act(s, type="dummy", keep=bad)
    # The count has its own code, with the count chosen: the site says it.
    for n in (0, 4, 6):
        with pytest.raises(MalformedAction) as wrong:
            act(s, type="dummy", keep=(["AC", "AD", "AH", "KS", "KC", "QS"])[:n])
        assert (wrong.value.code, wrong.value.params) == (ErrorCode.KEEP_FIVE, {"n": n})


def test_joker_turned_up_dealer_names_its_suit() -> None:
    deal = full_deal({}, "JK", deck="25")
    s = state_of(record(deal, 2, deck="25"))
    assert s.phase == Phase.JOKER_SUIT and s.to_act == 2
    assert sorted(a.suit for a in legal_actions(s)) == ["C", "D", "H", "S"]  # type: ignore[type-var]
    with pytest.raises(IllegalAction):
        act(s, type="pass")
    s = act(s, type="joker_suit", suit="D")
    assert s.phase == Phase.BID1 and s.to_act == 0 and s.joker_suit == "D"
    ordered = act(s, type="order")
    assert ordered.trump == "D"
    # In round two the Joker's named suit is the turned-down suit.
    for _ in range(3):
        s = act(s, type="pass")
    assert sorted(a.suit for a in legal_actions(s) if a.type == "name") == ["C", "H", "S"]  # type: ignore[type-var]


def test_joker_picked_up_is_the_top_trump() -> None:
    deal = full_deal({1: ["JD", "JH", "AD", "KD", "QD"]}, "JK", deck="25")
    s = state_of(record(deal, 0, deck="25"))
    s = act(s, type="joker_suit", suit="D")
    s = act(s, type="pass")  # seat 1
    s = act(s, type="pass")  # seat 2
    s = act(s, type="order")  # dealer accepts
    s = act(s, type="pickup", discard=s.hand_of(0)[0])
    s = act(s, type="alone")
    s = act(act(s, type="pass"), type="pass")
    assert s.to_act == 1  # maker 0 alone: left of the maker leads
    s = act(s, type="play", card="JD")  # right bower led
    s = act(s, type="play", card=legal_actions(s)[0].card)
    s = act(s, type="play", card="JK")
    assert s.tricks_won == [1, 0, 0]


@pytest.mark.parametrize("deck", ["24", "32", "25"])
def test_deck_sizes(deck: str) -> None:
    rec = record(full_deal({}, "AS", deck=deck), 0, deck=deck)
    assert len(rec["deal"]["kitty"]) == {"24": 4, "32": 12, "25": 5}[deck]
    assert hand_ok(replay_hand(rec))["complete"] is False
