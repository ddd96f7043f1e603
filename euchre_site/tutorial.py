"""The guided first hand, /learn/: games.tutorial's lessons on a table like
the real one, for anyone, signed in or not.

No state is kept: `?step=N` is the lesson shown, its position rebuilt by the
engine from the script (games.tutorial.state_at), so there is nothing to
forge. The reader's move comes back as `?step=N&action=...` (a GET form: it
works without JavaScript and changes nothing on the server): the move the
lesson teaches goes on to lesson N+1, any other is explained on lesson N.
A step that is not a number is a bad request; one past either end is the
first or last lesson.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from games import narration, presenters, tutorial, words
from games.engine import Action, HandView, hand_points, result, view

ME, LEFT, RIGHT = tutorial.YOU, tutorial.LEFT, tutorial.RIGHT
WHERE = {ME: "bottom", LEFT: "left", RIGHT: "right"}
CARD_MOVES = ("play", "pickup")


@dataclass(frozen=True, slots=True)
class _Seat:
    display_name: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class Card:
    """One of the reader's cards: a button when `move` is set."""

    face: presenters.Face
    move: str = ""
    label: str = ""
    refused: str = ""
    chosen: bool = False  # the keep-five: ticked


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    move: str
    style: str = ""


def encode(a: Action) -> str:
    """A move as the page's forms send it: "order", "play:KC", "pickup:9D"."""
    if a.type == "play":
        return f"play:{a.card}"
    if a.type == "pickup":
        return f"pickup:{a.discard}"
    if a.type == "dummy" and a.keep is not None:
        return "keep"  # with the ticked cards, the form's `keep`
    return a.type


def decode(move: str, keep: list[str]) -> Action:
    """The reader's move; BadRequest for what no form of the page sends."""
    kind, _, card = move.partition(":")
    if kind in CARD_MOVES and len(card) == 2:
        return Action(ME, kind, card=card) if kind == "play" else Action(ME, kind, discard=card)
    if kind == "keep" and not card and len(keep) <= 10:
        return Action(ME, "dummy", keep=tuple(c[:2] for c in keep))
    if kind in ("pass", "order", "dummy", "alone", "leave") and not card:
        return Action(ME, kind)
    raise BadRequest("not a move")


def _step(request: HttpRequest) -> int:
    raw = request.GET.get("step", "0")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4:
        raise BadRequest("step must be a number")
    return min(int(raw), tutorial.LAST)


def learn(request: HttpRequest) -> HttpResponse:
    index = _step(request)
    step = tutorial.STEPS[index]
    note = ""
    move = request.GET.get("action")
    if move is not None:
        if step.expect is None:
            raise BadRequest("this step waits for no move")
        note = tutorial.judge(index, decode(move, request.GET.getlist("keep"))) or ""
        if not note:
            return HttpResponseRedirect(f"{reverse('learn')}?step={index + 1}")
    return render(request, "tutorial.html", _context(request, index, note))


def _names(request: HttpRequest) -> dict[int, str]:
    user = request.user
    you = user.get_username() if user.is_authenticated else str(tutorial.YOU_NAME)
    return {
        ME: you,
        LEFT: str(tutorial.LEFT_NAME),
        RIGHT: str(tutorial.RIGHT_NAME),
    }


def _context(request: HttpRequest, index: int, note: str) -> presenters.Context:
    step = tutorial.STEPS[index]
    state = tutorial.state_at(step.done)
    names = _names(request)
    # The hand's view as the table's presenters read a game's (scores: none yet).
    seen: Any = {**view(state, ME), "scores": [0, 0, 0]}
    seats = {s: _Seat(names[s], s != ME) for s in range(3)}
    trick = presenters._trick(seen, names, WHERE)
    over = state.over
    res = result(state)
    fill: dict[str, object] = {}
    if over:
        tricks = res["tricks"][ME]
        fill = {
            "tricks": tricks,
            "points": res["points"][ME],
            "march": hand_points(ME, 5, False, False, 3)[ME],
            "euchre": hand_points(ME, 2, False, False, 3)[LEFT],
        }
    cards, buttons, mode = _hand(seen, step)
    news = [
        narration.describe(a.to_dict(), names, ME)
        for a in tutorial.moves_before(index)
        if a.seat != ME
    ]
    plates = presenters._plates(seen, seats, [ME, LEFT, RIGHT], trick, WHERE)
    last = seen["tricks"][-1] if over and seen["tricks"] else None
    return {
        "index": index,
        "number": index + 1,
        "total": len(tutorial.STEPS),
        "say": tutorial.text(step.say, **fill),
        "note": note,
        "waiting": step.expect is not None,
        "suggested": encode(step.expect) if step.expect is not None else "",
        "next_step": index + 1 if index < tutorial.LAST else None,
        "previous_step": index - 1 if index > 0 else None,
        "over": over,
        "phase": seen["phase"],
        "news": news,
        "plates": {p.where: p for p in plates},
        "centre": presenters._centre(seen, names),
        "trick": trick,
        "last_trick": presenters._trick_cards(last["cards"], last["winner"], names, WHERE)
        if last
        else (),
        "last_trick_note": narration.trick_won(names[last["winner"]]) if last else "",
        "rows": [
            {
                "name": names[s],
                "is_you": s == ME,
                "maker": s == res["maker"],
                "tricks": res["tricks"][s],
                "points": res["points"][s],
            }
            for s in (ME, LEFT, RIGHT)
        ]
        if over
        else (),
        "cards": cards,
        "buttons": buttons,
        "hand_mode": mode,
        "refused_text": next((c.refused for c in cards if c.refused), ""),
        "card_back": presenters.CARD_BACK,
        "play_url": reverse("games:lobby") if request.user.is_authenticated else reverse("home"),
    }


def _hand(seen: HandView, step: tutorial.Step) -> tuple[tuple[Card, ...], tuple[Button, ...], str]:
    """The reader's cards and buttons: the engine's legal moves when the
    lesson waits for one (the lesson's own move among them), else only shown."""
    waiting = step.expect is not None
    if seen["exchange"]:
        keep = set(tutorial.KEEP)
        return (
            tuple(Card(presenters.face(c), chosen=c in keep) for c in seen["exchange"]),
            (),
            "keep",
        )
    legal = [Action.from_dict(a) for a in seen["legal_actions"]] if waiting else []
    picks = {a.discard: a for a in legal if a.type == "pickup"}
    plays = {a.card: a for a in legal if a.type == "play"}
    refused = {r["card"]: r for r in seen["refused"]} if waiting else {}
    cards = []
    codes: list[str] = [c for c in picks if c] if picks else seen["hand"] or []
    verb = "discard" if picks else "play"
    for code in codes:
        f = presenters.face(code)
        a = picks.get(code) or plays.get(code)
        if a is not None:
            cards.append(Card(f, encode(a), presenters._card_button_label(verb, f)))
        elif code in refused:
            why = presenters.messages.card_refusal(refused[code])
            cards.append(Card(f, label=f.name, refused=why))
        else:
            cards.append(Card(f, label=f.name))
    styles = {"pass": "secondary", "leave": "secondary", "alone": "danger"}
    buttons = tuple(
        Button(
            words.button_label(a.to_dict(), seen["phase"], ME, seen["up_suit"]),
            encode(a),
            styles.get(a.type, ""),
        )
        for a in legal
        if a.type not in CARD_MOVES
    )
    mode = "discard" if picks else "play" if plays else "show"
    return tuple(cards), buttons, mode
