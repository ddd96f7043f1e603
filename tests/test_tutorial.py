"""The guided first hand (/learn/, games/tutorial.py): the script is a hand
the engine plays to its end; each lesson's move is legal; other moves are
explained and change nothing; the page renders in every site language; a
forged step or move is a 400 or clamped, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from euchre_site.tutorial import encode
from games import tutorial
from games.engine import Action, can, hand_to_record, legal_actions, replay_hand, result

URL = "/learn/"


def _get(client: Client, query: dict[str, Any]) -> Any:
    return client.get(URL, query)


def test_the_script_replays_to_a_complete_hand_with_the_engine() -> None:
    end = tutorial.state_at(len(tutorial.SCRIPT))
    assert end.over
    # The record the engine writes of it replays on its own, strictly, to the same result.
    replayed = replay_hand(hand_to_record(end))
    assert replayed == result(end)
    assert replayed["complete"] and replayed["maker"] == tutorial.YOU
    assert replayed["trump"] == "H" and replayed["alone"] == []
    assert replayed["tricks"] == [4, 1, 0] and replayed["points"] == [1, 0, 0]


def test_every_lesson_of_the_reader_is_a_legal_move_of_the_readers_turn() -> None:
    kinds = []
    for step in tutorial.STEPS:
        state = tutorial.state_at(step.done)
        if step.expect is None:
            continue
        assert state.to_act == tutorial.YOU
        assert can(state, step.expect), step
        assert tutorial.SCRIPT[step.done] == step.expect  # the lesson is the script's next move
        kinds.append((state.phase, step.expect.type))
    # The lesson covers the bidding, the pick-up, the maker's two steps and the play.
    assert [k for k, _ in kinds[:4]] == ["bid1", "dealer_pickup", "maker_choice", "dummy_keep"]
    assert kinds[0][1] == "order" and kinds[2][1] == "dummy"


def test_the_lessons_follow_suit_and_trump_when_void() -> None:
    follow = tutorial.STEPS[7]
    assert follow.expect == Action(0, "play", card="KC")
    assert legal_actions(tutorial.state_at(follow.done)) == [follow.expect]  # must follow clubs
    trump = tutorial.STEPS[9]
    assert trump.expect == Action(0, "play", card="9H")
    state = tutorial.state_at(trump.done)
    assert len(legal_actions(state)) == len(state.hand_of(0)) == 4  # no spade: any card


def test_every_players_move_of_the_script_is_on_a_lesson() -> None:
    taught = {s.done for s in tutorial.STEPS if s.expect is not None}
    mine = {i for i, a in enumerate(tutorial.SCRIPT) if a.seat == tutorial.YOU}
    assert taught == mine


def test_another_legal_move_is_explained_and_changes_nothing(client: Client) -> None:
    r = _get(client, {"step": 2, "action": "pass"})
    assert r.status_code == 200
    assert b"Passing would waste a good hand" in r.content
    assert b'value="3"' in r.content and b'<input type="hidden" name="step" value="2">' in r.content
    assert tutorial.judge(2, Action(0, "pass")) is not None
    r = _get(client, {"step": 5, "action": "keep", "keep": ["JH", "AH", "KH", "9H", "QS"]})
    assert b"Trumps win tricks" in r.content
    # An illegal card: the engine's refusal, in words.
    r = _get(client, {"step": 7, "action": "play:JH"})
    assert r.status_code == 200 and b"coach-note" in r.content


def test_the_lessons_move_goes_on(client: Client) -> None:
    for index, step in enumerate(tutorial.STEPS):
        if step.expect is None:
            continue
        data: dict[str, Any] = {"step": index, "action": encode(step.expect)}
        if step.expect.keep:
            data["keep"] = list(reversed(step.expect.keep))  # any order
        r = client.get(URL, data)
        assert r.status_code == 302 and r["Location"] == f"{reverse('learn')}?step={index + 1}"


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_every_lesson_renders_in_every_language(client: Client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for index in range(len(tutorial.STEPS)):
        r = client.get(URL, {"step": index}, HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 200
        assert f'lang="{language}"'.encode() in r.content
        assert b'class="coach-say"></p>' not in r.content  # never an empty lesson
    assert b"hand-result" in r.content  # the last: the hand's score


@pytest.mark.parametrize(
    "query",
    [
        {"step": "x"},
        {"step": "-1"},
        {"step": "1e3"},
        {"step": "٣"},
        {"step": "99999999999"},
        {"step": 2, "action": "bogus"},
        {"step": 2, "action": "play:"},
        {"step": 0, "action": "order"},  # a lesson that waits for no move
        {"step": 5, "action": "keep", "keep": ["JH"] * 11},
    ],
)
def test_forged_values_are_bad_requests(client: Client, query: dict[str, Any]) -> None:
    assert client.get(URL, query).status_code == 400


@pytest.mark.parametrize(
    "query",
    [
        {"step": 999},
        {"step": 2, "action": "play:ZZ"},
        {"step": 3, "action": "pickup:AS"},
        {"step": 5, "action": "keep", "keep": ["JH", "JH", "JH", "JH", "JH"]},
        {"step": 5, "action": "keep"},
        {"step": 4, "action": "leave"},
    ],
)
def test_forged_moves_are_clamped_or_explained(client: Client, query: dict[str, Any]) -> None:
    r = _get(client, query)
    assert r.status_code == 200


def test_home_and_rules_link_to_the_lesson(client: Client) -> None:
    for page in ("/", "/rules/"):
        assert b'href="/learn/"' in client.get(page).content
