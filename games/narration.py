"""Moves told in words, in the reader's language: the replay viewer's steps
and what the table announces to screen readers after every move."""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext

from . import words


def describe(action: dict[str, Any], names: dict[int, str], dealer: int) -> str:
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
            "call": words.call_label(words.call_of(dealer, action["seat"])),
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
