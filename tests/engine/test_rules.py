"""Tables of cases in card notation: bowers, the Joker, following suit, trick winners."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Call,
    Phase,
    call_code,
    call_name,
    card_name,
    effective_suit,
    legal_actions,
    new_hand,
    suit_name,
)
from games.engine import trick_winner as winner_of
from games.engine.cards import POWER, SUIT_INDEX, card_from_str, card_str, cards_of, strs_to_mask
from games.engine.cards import winner_of as seat_winner

from .helpers import act, random_playout, rules_combos, to_play


def eff(card: str, trump: str) -> str:
    return "CDHS"[effective_suit(card_from_str(card), SUIT_INDEX[trump])]


@pytest.mark.parametrize(
    ("card", "trump", "suit"),
    [
        ("JH", "H", "H"),  # right bower
        ("JD", "H", "H"),  # left bower: the other red jack
        ("JH", "D", "D"),
        ("JC", "S", "S"),
        ("JS", "C", "C"),
        ("JD", "C", "D"),  # a jack of the other colour stays in its suit
        ("JS", "H", "S"),
        ("AH", "D", "H"),
        ("JK", "C", "C"),  # the Joker belongs to trump
        ("JK", "H", "H"),
        ("7S", "S", "S"),
    ],
)
def test_effective_suit(card: str, trump: str, suit: str) -> None:
    assert eff(card, trump) == suit


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        (["9H", "JD", "AH"], "H", "JD"),  # left bower beats the ace of trump
        (["JD", "JH", "AH"], "H", "JH"),  # right beats left
        (["AC", "9H", "KC"], "H", "9H"),  # any trump beats the led suit
        (["KC", "AD", "QC"], "H", "KC"),  # an off-suit ace cannot win
        (["TD", "JD", "QD"], "C", "QD"),  # no bower in clubs: Q > J of diamonds
        (["AD", "JD", "KD"], "H", "JD"),  # JD is trump under hearts, not a diamond
        (["JD", "AD", "AH"], "H", "JD"),  # left bower led leads hearts: AD is off-suit
        (["JH", "JK"], "H", "JK"),  # Joker beats the right bower
        (["JK", "AS", "JS"], "S", "JK"),  # Joker led leads trump
        (["AC", "JK", "JS"], "D", "JK"),
        (["7C", "8C", "9C"], "H", "9C"),  # 32-card deck ranks
        (["8S", "7S"], "S", "8S"),
        (["QS", "TS", "KS"], "H", "KS"),
        (["9C", "AS", "AD"], "H", "9C"),  # nobody followed: the led card wins
    ],
)
def test_trick_winner(cards: list[str], trump: str, winner: str) -> None:
    ints = [card_from_str(c) for c in cards]
    assert cards[winner_of(ints, None, SUIT_INDEX[trump])] == winner
    # The same ranking `apply` uses, by seat: cards.winner_of.
    led = effective_suit(ints[0], SUIT_INDEX[trump])
    seats = [(5 + 2 * k) % 7 for k in range(len(ints))]  # any seats, in order
    pairs = list(zip(seats, ints, strict=True))
    assert seats.index(seat_winner(pairs, POWER[SUIT_INDEX[trump]][led])) == cards.index(winner)


def test_apply_ranks_every_trick_as_trick_winner_does() -> None:
    """Every trick `apply` completes in random hands of every deck and option
    is won by the card `trick_winner` ranks highest."""
    rng = random.Random(7)
    for rules in rules_combos():
        for n in range(15):
            s = random_playout(new_hand(rules, n % 3, rng), rng)
            trump = s._i.trump
            for _leader, trick, won in s._tricks:
                assert trump is not None
                ints = [c for _, c in trick]
                assert trick[winner_of(ints, None, trump)][0] == won


RANKED = {
    "H": ["JH", "JD", "AH", "KH", "QH", "TH", "9H"],
    "S": ["JK", "JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S"],
    "C": ["AD", "KD", "QD", "JD", "TD", "9D"],  # diamonds led, clubs trump: J is plain
}


@pytest.mark.parametrize("trump", ["H", "S"])
def test_trump_order_from_top(trump: str) -> None:
    ranked = RANKED[trump]
    for hi in range(len(ranked)):
        for lo in range(hi + 1, len(ranked)):
            pair = [card_from_str(ranked[lo]), card_from_str(ranked[hi])]
            assert winner_of(pair, None, SUIT_INDEX[trump]) == 1, (ranked[hi], ranked[lo])


def test_plain_suit_order_from_top() -> None:
    ranked = RANKED["C"]
    for hi in range(len(ranked)):
        for lo in range(hi + 1, len(ranked)):
            pair = [card_from_str(ranked[lo]), card_from_str(ranked[hi])]
            assert winner_of(pair, SUIT_INDEX["D"], SUIT_INDEX["C"]) == 1


# Following suit, end to end: seat 2 leads `led`; seat 0 holds `hand`.
@pytest.mark.parametrize(
    ("hand", "led", "trump", "legal"),
    [
        (["JD", "9C", "AD", "TS", "QS"], "KD", "H", ["AD"]),  # JD is a heart now
        (["JD", "9C", "TC", "TS", "QS"], "9H", "H", ["JD"]),  # left bower must follow trump
        (["9C", "TC", "QC", "TS", "QS"], "AH", "H", ["9C", "TC", "QC", "TS", "QS"]),  # void
        (["JC", "9S", "AD", "TD", "QD"], "KS", "S", ["JC", "9S"]),
        (["JC", "9D", "AD", "TD", "QD"], "KC", "S", ["9D", "AD", "TD", "QD", "JC"]),
        (["JK", "9S", "AD", "TD", "QD"], "AS", "S", ["JK", "9S"]),  # Joker follows trump
        (["JK", "9S", "AD", "TD", "QD"], "KD", "S", ["AD", "TD", "QD"]),
        (["7C", "8C", "9D", "TD", "QD"], "KC", "H", ["7C", "8C"]),
    ],
)
def test_must_follow_suit(hand: list[str], led: str, trump: str, legal: list[str]) -> None:
    deck = "25" if "JK" in [*hand, led] else ("32" if any(c[0] in "78" for c in hand) else "24")
    up = next(c for c in ("9S", "9C", "9D", "9H") if c not in [*hand, led] and c[1] != trump)
    # Seat 1 names trump and goes alone, so seat 2 (left of the maker) leads; seat 0 follows.
    s = to_play({0: hand, 2: [led]}, trump=trump, up=up, dealer=0, maker=1, deck=deck)
    assert s.phase == Phase.PLAY and s.to_act == 2
    s = act(s, type="play", card=led)
    assert s.to_act == 0
    got = sorted(a.card for a in legal_actions(s))  # type: ignore[type-var]
    assert got == sorted(legal)


def test_cards_roundtrip_notation() -> None:
    for c in range(33):
        assert card_from_str(card_str(c)) == c
    assert cards_of(strs_to_mask(["9C", "JK", "AS"])) == [2, 31, 32]
    with pytest.raises(ValueError):
        card_from_str("1S")


@pytest.mark.parametrize(
    ("card", "name"),
    [("JH", "Jack of hearts"), ("TC", "10 of clubs"), ("AS", "Ace of spades"), ("JK", "Joker")],
)
def test_card_name(card: str, name: str) -> None:
    assert card_name(card) == name


def test_suit_name() -> None:
    assert [suit_name(s) for s in "CDHS"] == ["clubs", "diamonds", "hearts", "spades"]


@pytest.mark.parametrize(
    ("dealer", "seat", "name"),
    [(0, 1, "Order it up"), (0, 2, "Assist"), (0, 0, "Accept"), (2, 0, "Order it up"),
     (2, 1, "Assist"), (1, 1, "Accept")],
)  # fmt: skip
def test_call_names(dealer: int, seat: int, name: str) -> None:
    assert call_name(dealer, seat) == name
    code = call_code(dealer, seat)
    assert code == {"Order it up": "order", "Assist": "assist", "Accept": "accept"}[name]
    assert code in ("accept", "order", "assist") and isinstance(code, Call)


def test_effective_suit_accepts_notation() -> None:
    assert effective_suit("JD", "H") == SUIT_INDEX["H"]
    assert effective_suit("JK", None) == -1
