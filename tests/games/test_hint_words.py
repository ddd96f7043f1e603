"""Hints in the table's own words (issue 22): a hint names a move by its
button's label, never recommends a move the search found best in few of the
deals it imagined, says whether the maker went alone or took the dummy, and
states what going alone scores at this table's rules.

The positions are real hands (the engine's views, as the worker sees them)
and the hints are worked out by the real search."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from games import engine, hints, presenters

# Spades trump (the up card 9S), seat 0 deals and picks it up, seat 1 orders it up.
DEAL = {
    "hands": [
        ["JH", "TH", "9C", "TC", "JC"],
        ["AS", "KS", "QS", "AH", "9D"],
        ["KH", "QH", "9H", "AC", "KC"],
    ],
    "dummy": ["TD", "JD", "QD", "KD", "AD"],
    "kitty": ["9S", "TS", "JS", "QC"],
}
BID: list[engine.ActionDict] = [
    {"seat": 1, "type": "order"},
    {"seat": 0, "type": "pickup", "discard": "9C"},
]
ALONE: engine.ActionDict = {"seat": 1, "type": "alone"}
DUMMY: engine.ActionDict = {"seat": 1, "type": "dummy", "keep": ["AS", "KS", "QS", "AD", "KD"]}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def state_after(actions: list[engine.ActionDict], lone_march: int = 3) -> engine.HandState:
    record = {
        "format": "euchre3-hand/1",
        "rules": {"lone_maker_march": lone_march},
        "dealer": 0,
        "deal": DEAL,
        "actions": actions,
    }
    return engine.hand_from_record(record)


def seat_to_act(state: engine.HandState) -> engine.HandView:
    return engine.view(state, state.to_act)


def said(view: engine.HandView, action: engine.ActionDict | None = None) -> dict[str, Any]:
    """The worker's hint for `view` in words (with `action` in place of the
    bot's choice, and its reasons, when given)."""
    hint = {**hints.compute(view), "version": 1}
    if action is not None:
        from games.bots.explain import reasons

        hint = {**hint, "action": action, "reasons": reasons(view, action), "share": 0.9}
        hint["others"] = []
    return hints.in_words(hint)


def button_labels(view: engine.HandView) -> set[str]:
    return {b.label for b in presenters._buttons(view)}  # type: ignore[arg-type]


@pytest.mark.parametrize("maker_move", [ALONE, DUMMY], ids=["maker alone", "maker with dummy"])
def test_at_the_defend_alone_decision_the_hint_names_the_buttons_labels(
    maker_move: engine.ActionDict,
) -> None:
    view = seat_to_act(state_after([*BID, maker_move]))
    assert view["phase"] == "defender_alone"
    labels = button_labels(view)
    assert labels == {"Don't defend alone", "Defend alone"}
    for action in view["legal_actions"]:
        text = said(view, action)["do"]
        named = [label for label in labels if f"“{label}”" in text]
        assert named, text  # never "Choose “Pass”" where the button says otherwise
        assert "“Pass”" not in text
    # The bot's own choice, however close, is named by its labels too.
    hint = said(view)
    assert "“Pass”" not in " ".join([hint["do"], *hint["why"]])
    assert any(f"“{label}”" in " ".join([hint["do"], *hint["why"]]) for label in labels)


def test_every_button_a_hint_can_name_is_a_button_on_the_table() -> None:
    """Bidding, the dealer's choice and the maker's: each move's hint quotes
    the label of one of the buttons the table shows at that moment."""
    positions = [
        [],  # first round: seat 1's "Order it up (spades trump)"
        [BID[0]],  # the dealer's pick-up (cards), or nothing to quote
        BID,  # the maker's choice: "Use the dummy" / "Go alone"
    ]
    for actions in positions:
        view = seat_to_act(state_after(actions))
        labels = button_labels(view)
        for action in view["legal_actions"]:
            if action["type"] in ("play", "pickup"):
                continue  # a card: named by its name, not a button
            text = said(view, action)["do"]
            assert any(text == f"Choose “{label}”." for label in labels), (text, labels)


def test_equal_cards_are_not_one_recommended_to_keep_the_better_ones() -> None:
    """The tester's hand: hearts led (the King), the reader holds the Jack and
    the 10 of hearts and cannot win. With no card still out between them they
    are the same card to the search, which tries one of them (best in "0%" of
    the deals): the hint says either does, and gives no reason to keep the
    better card that the jack would contradict."""
    state = state_after([*BID, ALONE])
    for _ in range(2):  # neither defender defends alone
        seat = engine.view(state, None)["to_act"]
        state = engine.apply(state, engine.Action.from_dict({"seat": seat, "type": "pass"}))
    state = engine.apply(state, engine.Action.from_dict({"seat": 2, "type": "play", "card": "KH"}))
    view = seat_to_act(state)
    assert {a["card"] for a in view["legal_actions"]} == {"JH", "TH"}
    hint = said(view)
    assert hint["do"] == "Any of these does the same: 10 of hearts, Jack of hearts."
    text = " ".join([hint["do"], *hint["why"], hint["sure"]])
    assert "0%" not in text and "better cards" not in text and "Play the" not in text
    assert hint["why"] == [
        "You cannot beat the King of hearts: this trick is lost whichever card you play."
    ]


def low_share(share: float, second: float) -> dict[str, Any]:
    return {
        "version": 3,
        "action": {"seat": 0, "type": "pass"},
        "share": share,
        "reasons": [("defend_together", {})],
        "dealer": 0,
        "up_suit": "S",
        "phase": "defender_alone",
        "maker_alone": True,
        "lone_march": 3,
        "choices": 2,
        "ranked": 2,
        "others": [{"action": {"seat": 0, "type": "alone"}, "share": second}],
        "equal": [],
    }


def test_a_top_move_best_in_few_deals_is_not_recommended() -> None:
    hint = hints.in_words(low_share(0.3, 0.45))
    assert hint["do"] == "A close call: no move is clearly best."
    assert hint["why"] == [
        "Choose “Don't defend alone”. It was the best choice in 30% of the deals the bot imagined.",
        "Choose “Defend alone”. It was the best choice in 45% of the deals the bot imagined.",
    ]
    assert "choose either" in hint["sure"]
    # Best in most deals: recommended, with its share.
    sure = hints.in_words(low_share(0.8, 0.3))
    assert sure["do"] == "Choose “Don't defend alone”."
    assert sure["sure"] == "It was the best choice in 80% of the deals the bot imagined."
    # Equal in every deal imagined: neither is the one.
    tie = hints.in_words(low_share(1.0, 1.0))
    assert tie["do"] == "Either does as well: Choose “Don't defend alone”. Choose “Defend alone”."
    assert "100%" not in " ".join([tie["do"], *tie["why"], tie["sure"]])


def test_a_choice_made_without_search_claims_no_share() -> None:
    hint = {**low_share(1.0, 0.0), "ranked": 1, "others": []}
    assert "%" not in hints.in_words(hint)["sure"]
    assert "rules of thumb" in hints.in_words(hint)["sure"]


def test_the_defenders_hint_says_whether_the_maker_went_alone_or_took_the_dummy() -> None:
    for maker_move, words in ((ALONE, "who plays alone"), (DUMMY, "who took the dummy")):
        view = seat_to_act(state_after([*BID, maker_move]))
        pass_ = next(a for a in view["legal_actions"] if a["type"] == "pass")
        (why,) = said(view, pass_)["why"]
        assert words in why and "lone maker" not in why, why


@pytest.mark.parametrize("lone_march", [3, 4])
def test_going_alone_states_the_tables_scoring(lone_march: int) -> None:
    view = seat_to_act(state_after(BID, lone_march))
    assert view["phase"] == "maker_choice"
    (why,) = said(view, ALONE)["why"]
    assert "scores more" not in why
    if lone_march == 3:
        assert "all five tricks score 3 points, alone or with the dummy" in why
    else:
        assert "all five tricks alone score 4 points, with the dummy 3" in why


def test_defending_alone_says_when_it_scores_more() -> None:
    view = seat_to_act(state_after([*BID, ALONE]))
    alone = next(a for a in view["legal_actions"] if a["type"] == "alone")
    (why,) = said(view, alone)["why"]
    assert "only if you take all five tricks: 4 points each instead of 2" in why
