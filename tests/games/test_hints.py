"""The table option "hints": a Hint button shows what the hard bot would do in
the player's place and why, in plain words; asking changes nothing, only the
player to act may ask, and games at such tables are not rated. The search
itself runs in a worker (tests/games/test_hints_worker.py); here the queued
task is run in the test's process."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import engine, hints, services
from games.bots.explain import reasons
from games.models import Game, Table

from .conftest import open_table, play_one, players, to_act
from .test_views import HTMX, logged_in

pytestmark = pytest.mark.django_db

# A queued hint task's arguments: compute_hint(game_id, seat, user_id, digest).
Queued = tuple[int, int, int, str]


# --- the reasons, from the seat's view alone ---------------------------------------


def play_view(hands: str, dummy: str, kitty: str, discard: str, plays: str = "") -> engine.HandView:
    """Seat 0's view in the play, a real one: seat 2 deals `hands` (three
    hands of five, "/" between them), seat 0 orders up the up card's suit
    (kitty[0]), the dealer picks it up discarding `discard`, seat 0 takes the
    dummy keeping the five it was dealt and neither defender goes alone;
    then `plays`, the cards played in order, each by the seat to act."""
    dealt = [h.split() for h in hands.split("/")]
    record = {
        "format": "euchre3-hand/1", "dealer": 2,
        "deal": {"hands": dealt, "dummy": dummy.split(), "kitty": kitty.split()},
        "actions": [
            {"seat": 0, "type": "order"}, {"seat": 2, "type": "pickup", "discard": discard},
            {"seat": 0, "type": "dummy", "keep": dealt[0]},
            {"seat": 1, "type": "pass"}, {"seat": 2, "type": "pass"},
        ],
    }  # fmt: skip
    state = engine.hand_from_record(record)
    for card in plays.split():
        state = engine.apply(state, engine.Action(state.to_act or 0, "play", card=card))
    assert state.to_act == 0 and state.phase == engine.Phase.PLAY
    return engine.view(state, 0)


def play(card: str) -> engine.ActionDict:
    return {"seat": 0, "type": "play", "card": card}


def test_leading_trump_with_both_bowers() -> None:
    view = play_view(
        "JH JD AS KC 9D / TH QH KH AH TD / JC AC QD KD AD", "9C TC QC 9S TS", "9H JS QS KS", "JC"
    )
    assert view["hand"] is not None and set(view["hand"]) == {"JH", "JD", "AS", "KC", "9D"}
    assert reasons(view, play("JH")) == [("lead_both_bowers", {"card": "JH"})]
    (why,) = hints.in_words({"version": 1, "action": play("JH"), "share": 0.8,
                             "reasons": reasons(view, play("JH")), "dealer": 2, "up_suit": "H"})["why"]  # fmt: skip
    assert why == "Lead trump: you hold both bowers, so your trump draws out the others' trump."


def test_the_ace_led_is_the_highest_card_of_its_suit_still_out() -> None:
    view = play_view(
        "AS TC 9D QH KD / JC QC KC AC TD / JH JD TH KH AH", "9C 9S TS QS KS", "9H QD AD JS", "TH"
    )
    assert reasons(view, play("AS")) == [("lead_boss", {"card": "AS", "suit": "S"})]
    assert reasons(view, play("TC")) == [("lead_low", {"card": "TC"})]


def test_following_last_trumping_in_and_not_winning() -> None:
    # Seat 1 wins the second trick and leads the queen of spades, seat 2 the king.
    last = play_view(
        "AS 9S TC 9D TD / AD QD QS JC QC / KD KS 9C AC KC",
        "JD TH QH KH AH", "9H JH TS JS", "AC", "9D AD KD  QD 9C TD  QS KS",
    )  # fmt: skip
    assert {a.get("card") for a in last["legal_actions"]} == {"AS", "9S"}
    assert reasons(last, play("AS")) == [("win_last", {"card": "AS"})]
    assert reasons(last, play("9S")) == [("duck", {"card": "9S", "best": "KS", "seat": 2})]
    # The queen of hearts turned: seat 0 holds the 9. Seat 2 leads the ace of
    # spades to the third trick, where seat 0 has none.
    void = play_view(
        "9H TC AD 9D 9C / QD KC JS QS KS / KD AC AS TS JC",
        "QC TD JD 9S TH", "QH JH KH AH", "JC", "9D QD KD  AC 9C KC  AS",
    )  # fmt: skip
    assert reasons(void, play("9H")) == [("trump_in", {"led": "S", "card": "9H"})]
    assert reasons(void, play("TC")) == [("throw_off", {"led": "S", "card": "TC"})]
    beaten = play_view(
        "9S TC 9D TD QC / QD KC JS QS KS / KD AD AC AS JC",
        "9C JD TH JH TS", "9H QH KH AH", "JC", "9D QD KD  AD TD JS  AC QC KC  AS",
    )  # fmt: skip
    assert [a.get("card") for a in beaten["legal_actions"]] == ["9S"]
    assert reasons(beaten, play("9S")) == [("cannot_win", {"card": "9S", "best": "AS", "seat": 2})]


def test_ordering_up_counts_the_trump_and_names_the_bowers() -> None:
    record = {
        "format": "euchre3-hand/1", "dealer": 0, "actions": [],
        "deal": {
            "hands": [["TC", "JC", "QC", "KC", "AC"], ["JH", "JD", "AH", "AS", "9C"],
                      ["9D", "TD", "QD", "KD", "AD"]],
            "dummy": ["TH", "QH", "KH", "9S", "TS"], "kitty": ["9H", "JS", "QS", "KS"],
        },
    }  # fmt: skip
    view = engine.view(engine.hand_from_record(record), 1)
    assert view["phase"] == "bid1" and view["to_act"] == 1
    ((code, params),) = reasons(view, {"seat": 1, "type": "order"})
    assert code == "make"
    assert params["suit"] == "H" and params["trump"] == 3
    assert params["top"] == ["JH", "JD"] and params["aces"] == ["AS"]
    words = hints.in_words({"version": 1, "action": {"seat": 1, "type": "order"},
                            "share": 1.0, "reasons": [(code, params)], "dealer": 0, "up_suit": "H"})  # fmt: skip
    assert words["do"] == "Choose “Order it up (hearts trump)”."  # the button's own label
    assert words["why"][0].startswith(
        "With hearts as trump your hand holds 3 trumps. "
        "Your best cards: the right bower, the left bower, Ace of spades."
    )
    assert words["sure"] == "It was the best choice in 100% of the deals the bot imagined."


# --- the button, through the site ------------------------------------------------------


@pytest.fixture
def hint_game(alice: User, bob: User, carol: User) -> Game:
    table = open_table(alice, hints=True)
    services.table_join(table=table, user=bob, position=1)
    services.table_join(table=table, user=carol, position=2)
    return table.games.select_related("table").get()


def ask(client: Client, game: Game, version: int | str) -> Any:
    return client.post(
        reverse("games:hint", args=[game.table_id]), {"version": str(version)}, headers=HTMX
    )


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[Queued]:
    """The hint tasks queued (here none runs: tests/games/test_hints_worker.py has the worker)."""
    calls: list[Queued] = []
    monkeypatch.setattr(hints.compute_hint, "delay", lambda *args: calls.append(args))
    return calls


def test_the_player_to_act_gets_the_hard_bots_choice_in_words(
    hint_game: Game, queued: list[Queued]
) -> None:
    seat = to_act(hint_game)
    user = players(hint_game.table)[seat]
    page = logged_in(user).get(reverse("games:table", args=[hint_game.table_id])).content.decode()
    assert 'class="inline-form hint-form"' in page
    # Asked: "Thinking…" at once, and the search queued for a worker.
    response = ask(logged_in(user), hint_game, 1)
    assert response.status_code == 200
    thinking = response.content.decode()
    status = re.search(r'<p id="hint-status".*?</p>', thinking, re.S)
    assert status is not None and "Thinking…" in status[0]
    assert "hint-box" not in thinking and len(queued) == 1
    # The worker's job, run here: then asking again answers from the cache.
    assert hints.compute_hint(*queued[0]) == "pushed"
    html = ask(logged_in(user), hint_game, 1).content.decode()
    box = re.search(r'<section class="hint-box".*?</section>', html, re.S)
    assert box is not None and "deals the bot imagined" in box[0]
    assert "hint-form" not in html  # the answer replaces the button
    assert len(queued) == 1  # nothing queued again
    hint_game.refresh_from_db()
    assert hint_game.version == 1  # nothing changed
    # The suggestion is one of the moves the player may make.
    view = engine.game_view(services.game_state(hint_game), seat)
    hint = hints.ask(game=hint_game, version=1, user=user)
    assert hint is not None and hint["action"] in view["legal_actions"]


def test_every_decision_of_a_game_gets_a_hint_in_words(
    hint_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the phase and the action chosen (calls carry no suit, the
    keep-five carries its cards...), the hint is put into words. What the bot
    picks in 15 ms depends on the machine's load, so besides its own choice
    every legal action of each decision is put into words too."""
    monkeypatch.setattr(hints, "BUDGET_MS", 15)
    rng = random.Random(12)
    kinds = set()
    for _ in range(60):
        hint_game.refresh_from_db()
        if hint_game.status != Game.Status.PLAYING:
            break
        seat = to_act(hint_game)
        view = engine.game_view(services.game_state(hint_game), seat)
        hint = {**hints.compute(view), "version": hint_game.version}
        # The bot's choice, then every other kind of move it could have made
        # (a keep-five is only listed as "keep some five", so it is the bot's).
        others = [a for a in view["legal_actions"] if a["type"] != hint["action"]["type"]]
        for action in [hint["action"], *others]:
            said = hints.in_words({**hint, "action": action, "reasons": reasons(view, action)})
            assert said["do"] and all(said["why"]) and "%" not in said["do"], (action, said)
            kinds.add(action["type"])
        play_one(hint_game, rng, prefer="order")
    assert {"pass", "order", "pickup", "play"} <= kinds


def test_only_the_player_to_act_at_a_table_with_hints_may_ask(
    hint_game: Game, alice: User, bob: User, queued: list[Queued]
) -> None:
    seat = to_act(hint_game)
    others = [u for s, u in players(hint_game.table).items() if s != seat]
    assert ask(logged_in(others[0]), hint_game, 1).status_code == 409  # not their turn
    user = players(hint_game.table)[seat]
    assert ask(logged_in(user), hint_game, 2).status_code == 409  # a stale or future version
    for bad in ("", "²", "1.0", "-1", "9" * 40, "NaN"):
        assert ask(logged_in(user), hint_game, bad).status_code == 400, bad
    stranger = get_user_model().objects.create_user("dave", "d@example.com", "pw-dave-123")
    assert ask(logged_in(stranger), hint_game, 1).status_code == 403  # a spectator
    plain = open_table(alice, name="No hints")
    services.table_join(table=plain, user=bob, position=1)
    services.table_set_bot(table=plain, user=alice, position=2, level="easy")
    game = plain.games.get()
    asker = players(plain)[to_act(game)] or alice
    assert ask(logged_in(asker), game, game.version).status_code == 403
    assert (
        "hint-form"
        not in logged_in(asker).get(reverse("games:table", args=[plain.pk])).content.decode()
    )
    assert not queued  # nothing for a worker to do


def test_a_hints_table_says_so_and_its_games_are_not_rated(
    alice: User, bob: User, carol: User
) -> None:
    from stats import services as stats_services
    from stats.models import RatingEvent
    from tests.stats.helpers import build_game

    game = build_game([alice, bob, carol])
    Table.objects.filter(pk=game.table_id).update(hints=True)
    game.refresh_from_db()
    stats_services.after_game(game_id=game.pk)
    assert not RatingEvent.objects.filter(game=game).exists()
    assert any("games are not rated" in line for line in game.table.rules_in_words())
    created = logged_in(alice).post(
        reverse("games:create"),
        {"name": "Learners", "deck": "24", "target": "10", "lone_maker_march": "3",
         "mode": "live", "visibility": "public", "hints": "on"},
    )  # fmt: skip
    assert created.status_code == 302
    assert Table.objects.get(name="Learners").hints
