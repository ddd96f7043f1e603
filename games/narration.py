"""Moves told in words, in the reader's language: the replay viewer's steps
and what the table announces to screen readers after every move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import ngettext, pgettext

from . import engine, words


def describe(action: Mapping[str, Any], names: dict[int, str], dealer: int) -> str:
    """An action in words, in the reader's language, for the replay's step
    list and the table's announcements (cards, suits and calls named by
    games.words). `action` is as its reader may see it: a pickup without its
    discard for everybody but the dealer."""
    who = names[action["seat"]]
    kind = action["type"]
    if kind == "pass":
        # Translators: a step of a hand's replay: %(name)s passed (declined to make trump, or to defend alone).
        return pgettext("replay step", "%(name)s passes.") % {"name": who}
    if kind == "order":
        # Translators: a step of a hand's replay: %(name)s made the first-round call %(call)s ("Order it up", "Assist" or "Accept": the up card's suit is trump and they are the maker). Use your language's quotation marks.
        return pgettext("replay step", "%(name)s: “%(call)s”.") % {
            "name": who,
            "call": words.call_label(engine.call_code(dealer, action["seat"])),
        }
    if kind == "name":
        # Translators: a step of a hand's replay: in the second round of bidding %(name)s chose %(suit)s ("hearts") as trump and became the maker.
        return pgettext("replay step", "%(name)s names %(suit)s as trump.") % {
            "name": who,
            "suit": words.suit_name(action["suit"]),
        }
    if kind == "joker_suit":
        # Translators: a step of a hand's replay: the Joker was the up card, so %(name)s (the dealer) chose the suit %(suit)s ("hearts") it stands for.
        return pgettext("replay step", "%(name)s names %(suit)s for the Joker.") % {
            "name": who,
            "suit": words.suit_name(action["suit"]),
        }
    if kind == "pickup" and "discard" not in action:
        # Translators: the dealer %(name)s took the up card (the card turned face up after the deal) into their hand and put one card face down; the others do not see which.
        return pgettext("replay step", "%(name)s picks up the up card.") % {"name": who}
    if kind == "pickup":
        # Translators: a step of a hand's replay: the dealer %(name)s took the up card (the card turned face up after the deal) into their hand and put down %(card)s ("Queen of hearts") instead.
        said = pgettext("replay step", "%(name)s picks up the up card and discards the %(card)s.")
        return said % {"name": who, "card": words.card_label(action["discard"])}
    if kind == "leave":
        # Translators: a step of a hand's replay: the dealer %(name)s left the up card (the card turned face up after the deal) on the table.
        return pgettext("replay step", "%(name)s leaves the up card.") % {"name": who}
    if kind == "dummy":
        # Translators: a step of a hand's replay: the maker %(name)s took the dummy (a fourth hand of five cards dealt face down), keeping five of the ten cards.
        return pgettext("replay step", "%(name)s uses the dummy.") % {"name": who}
    if kind == "alone":
        # Translators: a step of a hand's replay: %(name)s plays the hand alone (the maker without the dummy, or a lone defender).
        return pgettext("replay step", "%(name)s goes alone.") % {"name": who}
    if kind == "play":
        # Translators: a step of a hand's replay: %(name)s played the card %(card)s ("Queen of hearts") to the trick.
        return pgettext("replay step", "%(name)s plays the %(card)s.") % {
            "name": who,
            "card": words.card_label(action["card"]),
        }
    # Translators: a step of a hand's replay of a kind the site has no words for: %(name)s is the player, %(action)s the step's name in the record (English).
    return pgettext("replay step", "%(name)s: %(action)s.") % {"name": who, "action": kind}


def trick_won(name: str) -> str:
    # Translators: said after the third card of a trick: %(name)s played the highest card and takes the trick.
    return pgettext("replay step", "%(name)s wins the trick.") % {"name": name}


def stood_in(hands: Sequence[engine.HandState], seat: int) -> str:
    """What a stand-in bot did for `seat` since the person's own last move,
    in words ("A bot played 2 hands for you while you were away: you made
    hearts, then you defended."), or "" when their last move was their own.
    `hands` are the game's engine HandStates, oldest first; a bot's move for
    a person is marked `"by": "stand-in"` (games.services.game_act)."""
    played: list[engine.HandState] = []  # the hands the stand-in moved in, newest first
    for hand in reversed(hands):
        mine = [a for a in hand.actions if a.seat == seat]
        run = 0
        for action in reversed(mine):
            if (action.extra or {}).get("by") != "stand-in":
                break
            run += 1
        if run:
            played.append(hand)
        if run < len(mine):  # the person's own move: the stand-in's run starts after it
            break
    if not played:
        return ""
    what = [_role(hand, seat) for hand in reversed(played)]
    # Translators: joins what a stand-in bot did in successive hands: "you made hearts, then you defended".
    joined = pgettext("stand-in report", ", then ").join(what)
    # Translators: on the table, to a player back after a bot played for them (they were away, or their time ran out three times); %(what)s lists the hands ("you made hearts, then you defended").
    return ngettext(
        "A bot played %(n)s hand for you while you were away: %(what)s.",
        "A bot played %(n)s hands for you while you were away: %(what)s.",
        len(played),
    ) % {"n": len(played), "what": joined}


def _role(hand: engine.HandState, seat: int) -> str:
    """The seat's part in one hand, as the stand-in left it."""
    maker = hand.maker
    if maker is None:
        if hand.over:
            # Translators: what a stand-in bot did in a hand (in "A bot played 2 hands for you…"): everybody passed and the hand was thrown in.
            return pgettext("stand-in report", "the hand was thrown in")
        # Translators: what a stand-in bot did in a hand still being bid: it passed for the player.
        return pgettext("stand-in report", "you passed")
    suit = words.suit_name(hand.trump) if hand.trump else ""
    if maker == seat:
        if seat in hand.alone:
            # Translators: what a stand-in bot did in a hand: it made %(suit)s ("hearts") trump for the player, who played alone.
            return pgettext("stand-in report", "you made %(suit)s, alone") % {"suit": suit}
        # Translators: what a stand-in bot did in a hand: it made %(suit)s ("hearts") trump for the player, who became the maker.
        return pgettext("stand-in report", "you made %(suit)s") % {"suit": suit}
    # Translators: what a stand-in bot did in a hand: another player was the maker and the bot defended for the player.
    return pgettext("stand-in report", "you defended")
