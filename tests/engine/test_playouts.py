"""Seeded random playouts of hands and whole games, checking invariants after every action."""

from __future__ import annotations

import json
import random
import re
import zlib

import pytest

from games.engine import (
    Action,
    EngineError,
    ErrorCode,
    GameState,
    HandState,
    Phase,
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
    result,
    view,
)
from games.engine.cards import (
    CARD_INDEX,
    CARD_STRS,
    DECK_MASKS,
    POWER,
    bit,
    cards_of,
    mask_of,
    winner_of,
)
from games.engine.hand import _playable

from .helpers import rules_combos

CARD_TOKEN = re.compile(r'"([2-9TJQKA][CDHSK])"')


def _played(s: HandState) -> set[str]:
    v = view(s, None)
    out = {c for t in v["tricks"] for _, c in t["cards"]}
    return out | {c for _, c in v["current_trick"]}


def _knowable(s: HandState, seat: int | None) -> set[str]:
    """Cards `seat` may know about while the hand is in play (docs/rules.md)."""
    known = _played(s) | {s.up_card}  # the up card was face up for everyone
    if seat is None:
        return known
    known |= set(s.hand_of(seat))
    i = s._i
    if seat == i.dealer and i.dealer_discard is not None:
        known.add(CARD_STRS[i.dealer_discard])
    if seat == i.maker:
        known |= {CARD_STRS[c] for c in cards_of(i.maker_discards)}
        if i.dummy_used or s.phase == Phase.DUMMY_KEEP:
            known |= {CARD_STRS[c] for c in i.dummy}
    return known


def check_invariants(s: HandState) -> None:
    """Everything that must hold in any state."""
    i = s._i
    deck = DECK_MASKS[i.rules.deck]
    # Every card exactly once: hands, dummy/kitty (or discards), played.
    parts = list(s._hands)
    played = mask_of(CARD_INDEX[c] for c in _played(s))
    parts.append(played)
    if not i.dummy_used:
        parts.append(i.dummy_mask)
    kitty = mask_of(i.kitty)
    if i.up_taken:
        kitty &= ~bit(i.up)
    parts.append(kitty)
    if i.dealer_discard is not None:
        parts.append(bit(i.dealer_discard))
    parts.append(i.maker_discards)
    total = 0
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == deck, "a card is missing"
    # Tricks add up.
    v = view(s, None)
    assert sum(s.tricks_won) == len(v["tricks"]) <= 5
    active = 3 if s.sitting_out is None else 2
    for t in v["tricks"]:
        assert len(t["cards"]) == active
    assert len(v["current_trick"]) < active
    # Only the seat to act has legal actions.
    legal = legal_actions(s)
    if s.over:
        assert s.to_act is None and legal == []
    else:
        assert legal and all(a.seat == s.to_act for a in legal)
    for seat in (0, 1, 2, None):
        sv = view(s, seat)
        text = json.dumps(sv)
        assert bool(sv["legal_actions"]) == (seat is not None and seat == s.to_act)
        if not s.over:
            leaked = set(CARD_TOKEN.findall(text)) - _knowable(s, seat)
            assert not leaked, (seat, leaked)
        if seat is not None:
            assert sorted(sv["hand"] or []) == sorted(s.hand_of(seat))
    if s.over:
        assert v["deal"] is not None and v["result"] == result(s)
    # What `apply` keeps to go fast is what the rules say: the playable
    # cards (`_playable`) and the trick's best card so far (cards.winner_of).
    if s.phase == Phase.PLAY:
        assert s._to_act is not None and i.trump is not None
        assert s._ok == _playable(s, s._to_act)
        if s._trick:
            power = POWER[i.trump][s._led]
            assert s._by == winner_of(s._trick, power)
            assert s._best == max(power[c] for _, c in s._trick)


def _random_illegal(s: HandState, rng: random.Random) -> None:
    """A random action that is not legal must raise and change nothing."""
    legal = {(a.seat, a.type, a.suit, a.card, a.discard, a.keep) for a in legal_actions(s)}
    before = hand_to_record(s)
    for _ in range(3):
        a = Action(
            rng.randrange(3),
            rng.choice(["pass", "order", "play", "pickup", "leave", "alone", "name"]),
            suit=rng.choice("CDHS"),
            card=rng.choice(CARD_STRS),
            discard=rng.choice(CARD_STRS),
        )
        a = Action(a.seat, a.type, a.suit if a.type == "name" else None,
                   a.card if a.type == "play" else None,
                   a.discard if a.type == "pickup" else None)  # fmt: skip
        if (a.seat, a.type, a.suit, a.card, a.discard, a.keep) in legal:
            continue
        with pytest.raises(EngineError) as err:
            apply(s, a)
        # Every refusal has a stable code, so the site can say it in the player's language.
        assert isinstance(err.value.code, ErrorCode), err.value.code
    assert hand_to_record(s) == before


COMBOS = rules_combos()


@pytest.mark.parametrize(
    "rules", COMBOS, ids=lambda r: "-".join(str(v) for v in r.to_dict().values())
)
def test_random_hands_keep_invariants(rules: Rules) -> None:
    # A stable seed per rule set: hash() of a string changes from one process to the next.
    rng = random.Random(zlib.crc32(json.dumps(rules.to_dict(), sort_keys=True).encode()))
    for n in range(150):
        s = new_hand(rules, n % 3, rng)
        check_invariants(s)
        while not s.over:
            a = rng.choice(legal_actions(s))
            before = hand_to_record(s)
            nxt = apply(s, a)
            assert hand_to_record(s) == before  # apply never changes the old state
            s = nxt
            check_invariants(s)
            if rng.random() < 0.2:
                _random_illegal(s, rng)
        # Round trip: state -> record -> state -> record.
        rec = hand_to_record(s)
        assert hand_to_record(hand_from_record(json.loads(json.dumps(rec)))) == rec


@pytest.mark.parametrize("deck", ["24", "32", "25"])
def test_thousands_of_hands(deck: str) -> None:
    """Cheaper checks over many more hands: cards conserved, scores by the table."""
    rng = random.Random(int(deck))
    for stick in (False, True):
        rules = Rules(deck=deck, stick_the_dealer=stick, lone_maker_march=4)
        for n in range(1500):
            s = new_hand(rules, n % 3, rng)
            steps = 0
            while not s.over:
                s = apply(s, rng.choice(legal_actions(s)))
                steps += 1
                assert steps < 40
            r = result(s)
            assert r["complete"]
            if stick:
                assert not r["thrown_in"]
            if r["thrown_in"]:
                assert r["points"] == [0, 0, 0]
                continue
            assert sum(r["tricks"]) == 5
            pts = r["points"]
            mk = r["maker"]
            assert mk is not None
            t = r["tricks"][mk]
            if t >= 3:
                want = 1 if t < 5 else (4 if mk in r["alone"] else 3)
                assert pts[mk] == want and sum(pts) == want
            else:
                d_alone = any(x != mk for x in r["alone"])
                each = 4 if d_alone and t == 0 else 2
                assert pts[mk] == 0 and sum(pts) == 2 * each


def check_game(g: GameState, previous: GameState | None) -> None:
    if previous is not None:
        assert all(a >= b for a, b in zip(g.scores, previous.scores, strict=False))
    if g.over:
        top = max(g.scores)
        assert top >= g.target and g.scores.count(top) == 1 and g.winner == g.scores.index(top)
        assert g.next_dealer is None
    for seat in (0, 1, 2, None):
        v = game_view(g, seat)
        assert v["scores"] == g.scores and v["target"] == g.target


@pytest.mark.parametrize(
    "rules", COMBOS, ids=lambda r: "-".join(str(v) for v in r.to_dict().values())
)
def test_whole_games_end(rules: Rules) -> None:
    rng = random.Random(7)
    for target in (5, 10):
        g = new_game(rules, target=target, first_dealer=rng.randrange(3))
        expected_dealer = g.first_dealer
        hands = 0
        while not g.over:
            g = game_start_hand(g, rng)
            assert g.current is not None and g.current.dealer == expected_dealer
            expected_dealer = (expected_dealer + 1) % 3
            hands += 1
            assert hands < 400, "a game must end"
            while g.current is not None:
                prev = g
                g = game_apply(g, rng.choice(legal_actions(g.current)))
                if g.current is None:
                    check_game(g, prev)
        from games.engine import game_from_record, game_to_record, replay_game

        rec = game_to_record(g)
        res = replay_game(json.loads(json.dumps(rec)))
        assert res == {"scores": g.scores, "hands": hands, "over": True, "winner": g.winner,
                       "next_dealer": None}  # fmt: skip
        assert game_to_record(game_from_record(rec)) == rec
