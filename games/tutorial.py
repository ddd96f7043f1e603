"""The guided first hand ("Learn by playing", /learn/): one fixed deal, every
move of it scripted, the reader in seat 0 making their own moves one lesson
at a time.

Nothing here decides a rule. The deal is a hand record's `deal`, the script
is the hand's actions as the engine takes them live (the maker's choice of the
dummy and the five kept are two steps, as on the site), and a position is
always rebuilt by the engine from the first `done` actions of the script:
`state_at(done)`. The tests replay the whole script to a complete hand and
check that each lesson's move is one of the engine's legal actions.

A lesson (`Step`) either waits for the reader's move (`expect`: the move it
teaches, with `say`, why, and `other`, what to say when the reader picks
another legal move: the position does not change and they try again), or
only shows what happened (`expect` None: a "Next" button). The texts name
cards by what their corners show, in the reader's language: a text's
`%(JH)s` is the jack of hearts ("J♥"); `%(left)s` and `%(right)s` are the two
computer players.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TypedDict

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.engine import Action, EngineError, HandState, apply, can, hand_from_record, verify

from . import messages, words

YOU = 0  # the reader's seat, the dealer of the hand
LEFT = 1  # the player on the reader's left: first to bid and to lead
RIGHT = 2


# The deal: the reader deals and is offered the jack of hearts; the dummy
# holds the ace of hearts. Hearts trump: the reader keeps four trumps and a
# king, follows suit to lose the first trick, trumps the second and draws
# the others' trumps with the right bower: four tricks, one point.
class _Deal(TypedDict):
    """A hand record's `deal` (docs/hand-record.md)."""

    hands: list[list[str]]
    dummy: list[str]
    kitty: list[str]


class _Record(TypedDict):
    """The lesson's hand record before its first move (docs/hand-record.md)."""

    format: str
    rules: dict[str, object]
    dealer: int
    deal: _Deal
    actions: list[dict[str, object]]


DEAL: _Deal = {
    "hands": [
        ["KH", "9H", "KC", "TS", "9D"],
        ["AC", "QH", "AS", "KD", "9S"],
        ["JD", "QC", "KS", "AD", "JC"],
    ],
    "dummy": ["AH", "QS", "9C", "TD", "QD"],
    "kitty": ["JH", "TH", "TC", "JS"],
}
RECORD: _Record = {
    "format": "euchre3-hand/1",
    "rules": {},
    "dealer": YOU,
    "deal": DEAL,
    "actions": [],
}

KEEP = ("JH", "AH", "KH", "9H", "KC")


def _play(seat: int, card: str) -> Action:
    return Action(seat, "play", card=card)


# Every move of the hand, in order, as the engine takes them live.
SCRIPT: tuple[Action, ...] = (
    Action(LEFT, "pass"),
    Action(RIGHT, "pass"),
    Action(YOU, "order"),  # 2: the dealer accepts
    Action(YOU, "pickup", discard="9D"),  # 3
    Action(YOU, "dummy"),  # 4: use the dummy...
    Action(YOU, "dummy", keep=KEEP),  # 5: ...and keep these five
    Action(LEFT, "pass"),  # the defenders do not defend alone
    Action(RIGHT, "pass"),
    _play(LEFT, "AC"),  # 8: trick 1
    _play(RIGHT, "QC"),
    _play(YOU, "KC"),  # 10: following suit
    _play(LEFT, "AS"),  # 11: trick 2
    _play(RIGHT, "KS"),
    _play(YOU, "9H"),  # 13: trumping, void in spades
    _play(YOU, "JH"),  # 14: trick 3, drawing trumps
    _play(LEFT, "QH"),
    _play(RIGHT, "JD"),
    _play(YOU, "AH"),  # 17: trick 4
    _play(LEFT, "KD"),
    _play(RIGHT, "AD"),
    _play(YOU, "KH"),  # 20: trick 5
    _play(LEFT, "9S"),
    _play(RIGHT, "JC"),
)


@dataclass(frozen=True, slots=True)
class Step:
    """One lesson: the position after `done` moves of the script, what to say,
    and the reader's move it waits for (None: the reader only presses Next)."""

    done: int
    say: Promise
    expect: Action | None = None
    other: Promise | None = None


# fmt: off
STEPS: tuple[Step, ...] = (
    Step(0, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand (a lesson for a new player, one short step at a time), its first step. The "dummy" is a fourth hand of five cards that belongs to no player. Keep the sentences short and friendly.
        "Welcome to your first hand! You are the dealer. You, %(left)s and %(right)s each have five cards. The fourth hand, face down, is the dummy.")),
    Step(0, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand. %(JH)s is a card as its corner shows it (the jack of hearts, "J♥"): keep it. "Trump" is the suit that beats all others in this hand.
        "One card is turned up: the %(JH)s. Whoever accepts it makes its suit, hearts, trump. Trumps beat every other suit.")),
    Step(2, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the reader, the dealer, may "Accept" (the button's name: make the up card's suit trump). %(JH)s is the jack of hearts as its corner shows it ("J♥").
        "%(left)s and %(right)s passed. As the dealer you speak last. Press Accept: the %(JH)s is the highest trump, and you hold two more hearts."),
        Action(YOU, "order"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader pressed Pass instead of Accept; the position does not change and they try again.
            "Passing would waste a good hand. Make hearts trump: press Accept.")),
    Step(3, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the reader made trump and is the "maker"; as dealer they take the up card (%(JH)s) and put one card face down. %(9D)s is the nine of diamonds as its corner shows it ("9♦").
        "You are the maker now: you need three of the five tricks. As the dealer you take the %(JH)s and put one card face down. Tap the %(9D)s, your weakest card."),
        Action(YOU, "pickup", discard="9D"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader chose another card to put face down than the suggested one; they try again.
            "Keep that one. Put down the %(9D)s: it is low, and it is not a trump.")),
    Step(4, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the maker's choice. "Use the dummy" and "Go alone" are the buttons' names. The dummy is a fourth hand of five cards dealt face down.
        "Now choose: use the dummy, or go alone with your own five cards. Take the dummy: you will keep the best five of ten cards."),
        Action(YOU, "dummy"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader pressed "Go alone" instead of "Use the dummy"; at this site's usual options going alone scores the same as using the dummy. They try again.
            "Going alone scores the same here, and the dummy can only help you. Press Use the dummy.")),
    Step(5, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the maker sees the dummy's cards and keeps five of the ten. %(AH)s, %(KC)s: cards as their corners show them ("A♥", "K♣"). "Keep these five" is the button's name.
        "The dummy gave you the %(AH)s! Keep your four trumps and the %(KC)s (they are picked for you), then press Keep these five."),
        Action(YOU, "dummy", keep=KEEP),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader chose other cards to keep than the suggested five; they try again. The %(..)s are cards as their corners show them ("J♥").
            "Trumps win tricks: keep the %(JH)s, %(AH)s, %(KH)s, %(9H)s and the %(KC)s.")),
    Step(8, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the two other players are the "defenders", partners for this hand only; the player left of the dealer leads the first trick.
        "%(left)s and %(right)s now play together against you, for this hand only. %(left)s sits left of the dealer, so she leads first.")),
    Step(10, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the rule of following suit. %(KC)s is the king of clubs as its corner shows it ("K♣").
        "%(left)s led a club. You hold a club, so you must play it: that is following suit. Tap the %(KC)s."),
        _play(YOU, "KC")),
    Step(11, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the first trick is over. %(AC)s is the ace of clubs as its corner shows it ("A♣").
        "The %(AC)s wins: it is the highest club. Whoever wins a trick leads the next one.")),
    Step(13, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the reader has no card of the suit led and may play any card; a trump wins. %(AS)s, %(9H)s: cards as their corners show them ("A♠", "9♥").
        "%(left)s leads the %(AS)s. You have no spades, so you may play any card. Trump it! Even the %(9H)s beats every spade."),
        _play(YOU, "9H"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader chose another card than the suggested small trump; they try again. %(9H)s is the nine of hearts ("9♥").
            "Play the %(9H)s: any trump beats a spade, and your bigger trumps stay for later.")),
    Step(14, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the reader won the trick and leads. %(JH)s is the jack of hearts ("J♥"), the highest trump.
        "Your trump won, so you lead. Lead the %(JH)s, the highest card of all: the others must play their trumps to it."),
        _play(YOU, "JH"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader chose another card to lead than the suggested jack; they try again.
            "Lead the %(JH)s first: nothing beats it, and it pulls out the others' trumps.")),
    Step(17, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the "left bower", the jack of the other suit of the same colour as trump, counts as a trump. %(JD)s is the jack of diamonds ("J♦"), %(JH)s the jack of hearts ("J♥").
        "%(right)s's %(JD)s counts as a heart: the other jack of the same colour is the second-highest trump. Your %(JH)s still wins.")),
    Step(17, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: nobody else holds a trump. %(AH)s is the ace of hearts ("A♥").
        "Nobody else has a trump left. Lead the %(AH)s."),
        _play(YOU, "AH"),
        pgettext_lazy(
            "lesson",
            # Translators: the guided first hand: the reader chose another card than the suggested ace; they try again.
            "Lead the %(AH)s: it is the highest card left.")),
    Step(20, pgettext_lazy(
        "lesson",
        # Translators: the guided first hand: the last trick. %(KH)s is the king of hearts ("K♥").
        "One card each is left. Your %(KH)s takes the last trick."),
        _play(YOU, "KH")),
    Step(len(SCRIPT), npgettext_lazy(
        "lesson",
        # Translators: the guided first hand, its last step: the score. %(tricks)s is how many tricks the reader (the maker) took (4), %(points)s the points they earned (1), %(march)s what taking all five (a "march") scores (3), %(euchre)s what each of the other two scores when the maker takes fewer than three ("euchred", 2).
        "You took %(tricks)s tricks: %(points)s point. Taking all five, a march, would score %(march)s. With fewer than three you are euchred, and the other two score %(euchre)s each.",
        "You took %(tricks)s tricks: %(points)s points. Taking all five, a march, would score %(march)s. With fewer than three you are euchred, and the other two score %(euchre)s each.",
        "points")),
)
# fmt: on

LAST = len(STEPS) - 1


# Translators: the name of the computer player on the reader's left in the guided first hand. Use a short, common first name (a woman's) in your language.
LEFT_NAME = pgettext_lazy("lesson player", "Ana")
# Translators: the name of the computer player on the reader's right in the guided first hand. Use a short, common first name (a man's) in your language.
RIGHT_NAME = pgettext_lazy("lesson player", "Ben")
# Translators: the name of the reader (not signed in) at the table of the guided first hand; the table shows it as "Player (you)".
YOU_NAME = pgettext_lazy("lesson player", "Player")


@functools.lru_cache(maxsize=len(SCRIPT) + 1)
def state_at(done: int) -> HandState:
    """The hand after the first `done` moves of the script (the engine's own
    checks: a script the rules refuse raises here and in the tests)."""
    if done == 0:
        return hand_from_record(RECORD)
    return apply(state_at(done - 1), SCRIPT[done - 1])


def moves_before(index: int) -> tuple[Action, ...]:
    """The script's moves shown since the lesson before `index` (the bots'
    moves that step made happen), oldest first."""
    start = STEPS[index - 1].done if index > 0 else 0
    return SCRIPT[start : STEPS[index].done]


class _Corners(dict[str, object]):
    """A card code's corner in the reader's language ("J♥"), for the texts."""

    def __missing__(self, code: str) -> str:
        return words.rank_corner(code[0]) + words.SUIT_SYMBOLS[code[1]]


def text(promise: Promise, **extra: object) -> str:
    """A lesson's text in the active language, cards and names filled in."""
    fill = _Corners(left=str(LEFT_NAME), right=str(RIGHT_NAME))
    fill.update(extra)
    return str(promise % fill)


def same_move(a: Action, b: Action) -> bool:
    """Whether two moves are one: the five kept are a set, in any order."""
    if a.type == b.type == "dummy" and a.keep is not None and b.keep is not None:
        # (b, the script's, keeps five different cards: an equal sorted list is a legal keep)
        return a.seat == b.seat and sorted(a.keep) == sorted(b.keep)
    return a == b


def judge(index: int, move: Action) -> str | None:
    """None when `move` is what step `index` teaches; else what to tell the
    reader (the position does not change): the step's `other` for another
    move the rules allow, the engine's refusal (in the reader's language)
    for one they do not."""
    step = STEPS[index]
    if step.expect is not None and same_move(move, step.expect):
        return None
    state = state_at(step.done)
    if step.expect is not None and step.other is not None and can(state, move):
        return text(step.other)
    try:
        verify(state, move)  # the one check: what apply would refuse, and why
    except EngineError as e:
        return messages.refusal(e)
    # Translators: the guided first hand: the reader's move is not the one this step teaches (and there is no more to say about it).
    return str(pgettext_lazy("lesson", "Not this time: try the move the lesson suggests."))
