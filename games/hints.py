"""The learning aid of tables with hints: what the hard bot would do in the
player's place, and why, in plain words.

The suggestion is computed from the player's own view only (the same input
as a bot's: nothing the seat may not see) and put into words in the
reader's language when shown. Games at tables with hints are not rated
(stats.services.ratings_update).

No user can slow the others down with it (issue 21):

- The search (up to BUDGET_MS of CPU) runs in a Celery worker
  (`compute_hint`), never in the web process: asking (`ask`) only checks,
  looks in the cache and queues, and the page shows "Thinking…" until the
  worker's answer comes over the table's socket, to the asking seat's
  sockets only (games.realtime.push_hint, TableConsumer.hint_ready).
- Answers are cached by position: the key is a digest of the seat's view of
  the game (`position_digest`), so whatever moves the game's version without
  changing what the seat sees (autopilot on and off, a seat change) finds
  the answer already worked out, and asking again costs nothing.
- Per player: one hint worked out at a time (BUSY_SECONDS at most, should
  its task be lost) and settings.HINT_RATE asks (games.views.table_hint);
  over either, a clear message, nothing queued, status 429.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from collections.abc import Mapping
from typing import Any, cast

from celery import shared_task
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.models import User
from euchre_site.refusal import Code, Refusal

from . import access, bots, engine, realtime, services, words
from .bots.explain import reasons
from .models import Game
from .presenters import AskedHint, Choice, Hint, HintWords, ReasonParams, ShownHint

log = logging.getLogger(__name__)

BUDGET_MS = 500  # thinking time of one hint (a worker's)
CACHE_SECONDS = 3600
BUSY_SECONDS = 30  # a player's hint on its way blocks their next one this long at most
# A top move best in fewer of the imagined deals than this is no recommendation: a close call.
CLOSE_SHARE = 0.5
SEARCH = "hard-2"  # in the cache key: a new search (or its words' inputs) starts afresh


def position_digest(view: Mapping[str, object]) -> str:
    """What a hint depends on, in one key: the seat's whole view of the game
    (its cards, the hand so far, the scores and rules), and nothing else (not
    the game's version, which autopilot or a seat change also moves)."""
    blob = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{SEARCH}:{BUDGET_MS}:{blob}".encode()).hexdigest()


def _cache_key(digest: str) -> str:
    return f"hint:{digest}"


def _busy_key(user_id: int) -> str:
    return f"hint-busy:{user_id}"


def ask(*, game: Game, version: int, user: User) -> AskedHint | None:
    """`user` asks for a hint at `version`: this position's hint if it is in
    the cache (with "version"), else None once a worker has it to do (just
    queued, or already on its way). Never searches. Raises Refusal when the
    table has no hints, the user has no seat, the table moved on or it is
    not their turn, and Code.TOO_MANY while another of their hints is on its way."""
    table = game.table
    if not table.hints:
        raise Refusal(code=Code.FORBIDDEN, message=_("Hints are off at this table."))
    seat = access.seat_of(table, user)
    if seat is None:
        raise Refusal(
            code=Code.FORBIDDEN, message=_("Only the players at this table can ask for a hint.")
        )
    if version != game.version:
        raise Refusal(
            code=Code.CONFLICT,
            message=_("The table changed before your move arrived; here it is as it stands now."),
        )
    view = engine.game_view(services.game_state(game), seat)
    if not view["legal_actions"]:
        raise Refusal(code=Code.CONFLICT, message=_("It is not your turn."))
    digest = position_digest(view)
    hint: Hint | None = cache.get(_cache_key(digest))
    if hint is not None:
        return {**hint, "version": version}
    if not cache.add(_busy_key(user.pk), digest, BUSY_SECONDS):
        if cache.get(_busy_key(user.pk)) == digest:
            return None  # this one is on its way already
        raise Refusal(
            # Translators: a player asked for a hint while the hint they asked for before (perhaps at another table) is still being worked out.
            _("Your last hint is still being worked out: wait for it before asking for another."),
            code=Code.TOO_MANY,
        )
    try:
        compute_hint.delay(game.pk, seat, user.pk, digest)
    except Exception as exc:  # the broker away: nothing on its way after all
        cache.delete(_busy_key(user.pk))
        log.exception("hint for game %s not queued", game.pk)
        raise Refusal(
            # Translators: a hint could not be asked for because part of the site is down for a moment.
            _("Hints cannot be worked out just now: try again in a moment."),
            503,  # the site's own trouble, not the request's: no 4xx fits
            code=Code.CONFLICT,
        ) from exc
    return None


def compute(view: engine.HandView) -> dict[str, Any]:
    """The hard bot's choice for the seat whose `view` this is, with its
    reasons (language-neutral: see `in_words`). The search: a worker's job."""
    digest = position_digest(view)
    rng = random.Random(int(digest[:16], 16))  # the same position, the same answer
    ranking = bots.analyse(view, rng, BUDGET_MS)
    best = ranking[0]
    legal = view["legal_actions"]
    maker = view["maker"]
    return {
        "action": best["action"],
        "share": best["share"],
        "reasons": reasons(view, best["action"]),
        "dealer": view["dealer"] or 0,
        "up_suit": view["up_suit"],
        # What the words need to say it as the table has it (see `in_words`):
        "phase": view["phase"],
        "maker_alone": maker is not None and maker in view["alone"],
        "lone_march": view["rules"].get("lone_maker_march", 3),
        "choices": len(legal),  # the moves the player has
        "ranked": len(ranking),  # the ones the search told apart (equal cards count once)
        "others": [{"action": r["action"], "share": r["share"]} for r in ranking[1:3]],
        # Every card is as good as every other: the search had one move to try.
        "equal": [a["card"] for a in legal if a["type"] == "play"]
        if len(ranking) == 1 and len(legal) > 1
        else [],
    }


def _current(game_id: int, seat: int) -> tuple[Game, engine.GameView, str] | None:
    """The game under way, `seat`'s view of it and that position's digest, as they stand now."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING:
        return None
    view = engine.game_view(services.game_state(game), seat)
    return game, view, position_digest(view)


@shared_task(acks_late=True, ignore_result=True)
def compute_hint(game_id: int, seat: int, user_id: int, digest: str) -> str:
    """Work out the hint of the position `digest` (`seat`'s at `game_id`),
    cache it, and push it to that seat's sockets if the position still
    stands. A position gone by then is neither searched nor pushed."""
    try:
        hint = cache.get(_cache_key(digest))
        if hint is None:
            now = _current(game_id, seat)
            if now is None or now[2] != digest:
                return "moved on"
            hint = compute(now[1])
            cache.set(_cache_key(digest), hint, CACHE_SECONDS)
    finally:
        if cache.get(_busy_key(user_id)) == digest:
            cache.delete(_busy_key(user_id))
    now = _current(game_id, seat)  # the search took a while
    if now is None or now[2] != digest:
        return "moved on"
    # Labelled with the version the game has now (the same position): the
    # page shows it only at that version.
    realtime.push_hint(game_id, seat, user_id, now[0].version, hint)
    return "pushed"


def inbox_html(game_id: int, version: int, hint: Hint) -> str:
    """The frame that brings a worker's hint to the page, in the active
    language: into #hint-inbox (games/table_page.html), outside the table, so
    no table frame wipes it; static/js/table.js shows it in the table of
    that game and version only."""
    shown: ShownHint = {**said({**hint, "version": version}), "game": game_id}
    return render_to_string("games/table.html#hint_inbox", {"hint": shown})


def in_words(hint: Mapping[str, Any]) -> dict[str, Any]:
    """`said` of a hint as `compute` made it, labelled with its version."""
    return dict(said(cast(AskedHint, hint)))


def said(hint: AskedHint) -> HintWords:
    """The hint in the active language: what to do, why, and how sure.

    A move is recommended only when the search found it best in most of the
    deals it imagined (CLOSE_SHARE); otherwise the hint says the moves are
    close and how each did. Equal cards are named together, and a choice the
    bot made without imagining deals claims no share. The hint's facts
    (`compute`) say the moves as the table's buttons do (words.button_label),
    at the phase they were asked in."""
    action, phase = hint["action"], hint.get("phase")
    dealer, up_suit = hint["dealer"], hint["up_suit"]
    share = hint["share"]
    percent = round(100 * share)
    others = hint.get("others") or []
    why = [_why(code, params, hint) for code, params in hint["reasons"]]
    if len(hint.get("equal") or []) > 1:
        return {
            "version": hint["version"],
            # Translators: a hint when the reader's cards are equal for this trick and the rest of the hand (no card still out ranks between them): play any of them. %(cards)s is a list of card names ("Jack of hearts, 10 of hearts").
            "do": pgettext("hint", "Any of these does the same: %(cards)s.")
            % {"cards": ", ".join(words.card_label(c) for c in hint["equal"])},
            "why": why,
            # Translators: a hint's note when the reader's cards are equal: no card that another player may hold ranks between them.
            "sure": _(
                "No card still out ranks between them, so whichever you play, the hand goes the same way."
            ),
        }
    ranked, choices = hint.get("ranked"), hint.get("choices")
    if ranked == 1 and choices is not None and choices > 1:
        # Translators: a hint's note when the hard bot chose by its rules of thumb (this decision is not searched), so it cannot say how often the choice was best.
        sure = _("The hard bot chose this by its rules of thumb, without imagining deals.")
    elif choices == 1:
        # Translators: a hint's note: the reader has one legal move only.
        sure = _("It is the only move you have.")
    elif others and share >= 0.995 and others[0]["share"] >= 0.995:
        return {
            "version": hint["version"],
            # Translators: a hint when two moves did equally well in every deal the bot imagined: %(first)s and %(second)s are the moves, each a sentence ("Play the Jack of hearts.", "Choose “Pass”.").
            "do": pgettext("hint", "Either does as well: %(first)s %(second)s")
            % {
                "first": _what(action, dealer, up_suit, phase),
                "second": _what(others[0]["action"], dealer, up_suit, phase),
            },
            "why": [],
            # Translators: a hint's note when two moves did equally well in every deal the bot imagined.
            "sure": _("Both did equally well in every deal the bot imagined."),
        }
    elif share < CLOSE_SHARE and others:
        moves: list[Choice] = [{"action": action, "share": share}, *others]
        lines = [
            # Translators: one line of a close-call hint: %(move)s is a move as a sentence ("Play the Jack of hearts.", "Choose “Pass”."), %(percent)s the share of the deals the bot imagined in which it was the best choice.
            _("%(move)s It was the best choice in %(percent)s%% of the deals the bot imagined.")
            % {
                "move": _what(r["action"], dealer, up_suit, phase),
                "percent": round(100 * r["share"]),
            }
            for r in moves
        ]
        return {
            "version": hint["version"],
            # Translators: a hint when no move is clearly best: the hard bot found the moves close.
            "do": pgettext("hint", "A close call: no move is clearly best."),
            "why": lines
            + [_facts(code, params) for code, params in hint["reasons"] if code in _HOLDING],
            # Translators: a hint's note after a close call: the moves listed are about as good.
            "sure": _("The moves above are about as good as each other: choose either."),
        }
    else:
        # Translators: how sure the hint is: the hard bot imagines many deals of the cards the reader cannot see and finds the best choice in each; %(percent)s is the share in which this choice was best.
        sure = _("It was the best choice in %(percent)s%% of the deals the bot imagined.") % {
            "percent": percent
        }
    return {
        "version": hint["version"],
        "do": _what(action, dealer, up_suit, phase),
        "why": why,
        "sure": sure,
    }


def _what(action: engine.ActionDict, dealer: int, up_suit: str | None, phase: str | None) -> str:
    """The move as a sentence, a button named by its label on the table."""
    kind = action["type"]
    if kind == "play":
        # Translators: a hint: play the card %(card)s ("Queen of hearts").
        return pgettext("hint", "Play the %(card)s.") % {"card": words.card_label(action["card"])}
    if kind == "pickup":
        # Translators: a hint to the dealer: take the up card and put down %(card)s ("Queen of hearts").
        return pgettext("hint", "Pick up the up card and discard the %(card)s.") % {
            "card": words.card_label(action["discard"])
        }
    if kind == "dummy" and "keep" in action:
        # Translators: a hint to the maker who took the dummy: keep these five cards (a list of card names).
        return pgettext("hint", "Keep: %(cards)s.") % {
            "cards": ", ".join(words.card_label(c) for c in action["keep"] or [])
        }
    label = words.button_label(action, phase, dealer, up_suit) or kind
    # Translators: a hint that names one of the table's buttons by its label, %(button)s ("Pass", "Use the dummy", "Don't defend alone", "Order it up (hearts trump)").
    return pgettext("hint", "Choose “%(button)s”.") % {"button": label}


def _holding(p: ReasonParams) -> str:
    """What the hand holds with a suit as trump, in a sentence or two."""
    said = [
        # Translators: a hint's reason: with %(suit)s ("hearts") as trump, the reader's hand holds %(n)s trump cards.
        ngettext(
            "With %(suit)s as trump your hand holds %(n)s trump.",
            "With %(suit)s as trump your hand holds %(n)s trumps.",
            p["trump"],
        )
        % {"suit": words.suit_name(p["suit"]), "n": p["trump"]}
    ]
    tops = [_top_name(c, p["suit"]) for c in p["top"]] + [words.card_label(c) for c in p["aces"]]
    if tops:
        # Translators: a hint's reason: the strongest cards of the reader's hand, a list ("the right bower, Ace of spades").
        said.append(_("Your best cards: %(cards)s.") % {"cards": ", ".join(tops)})
    # Translators: a hint's reason: the hard bot's estimate of the tricks (of five) these cards take as the maker's hand; the maker needs three.
    said.append(
        _("It is worth about %(tricks)s tricks; the maker needs 3.")
        % {"tricks": number_format(p["tricks"], 1)}
    )
    return " ".join(said)


def _top_name(code: str, trump: str) -> str:
    if code == "JK":
        return words.card_label(code)
    if code[1] == trump:
        # Translators: a hint's reason: the Jack of the trump suit, the highest trump.
        return _("the right bower")
    # Translators: a hint's reason: the Jack of the other suit of the same colour as trump, the second-highest trump.
    return _("the left bower")


# The reasons that state what the hand holds (a close call keeps only these facts).
_HOLDING = ("make", "keep", "joker_suit", "alone_maker", "pass_weak")


def _facts(code: str, p: ReasonParams) -> str:
    return _holding(p) if code in _HOLDING else ""


def _alone_pays(lone_march: int) -> str:
    """What going alone scores at this table (RULES.md, the table option
    lone_maker_march): only a march alone may score more, and only at 4."""
    if lone_march > 3:
        # Translators: a hint's reason for the maker to play alone (without the dummy): at this table taking all five tricks alone scores %(n)s points, a march with the dummy 3.
        return _(
            "Alone, these five can take every trick by themselves: all five tricks alone score %(n)s points, with the dummy 3."
        ) % {"n": lone_march}
    # Translators: a hint's reason for the maker to play alone (without the dummy): at this table taking all five tricks scores 3 points whether the maker went alone or took the dummy.
    return _(
        "Alone, these five can take every trick by themselves. At this table all five tricks score 3 points, alone or with the dummy."
    )


def _why(code: str, p: ReasonParams, hint: Hint | None = None) -> str:
    hint = hint or cast(Hint, {})
    card = words.card_label(p["card"]) if "card" in p else ""
    suit_code = p.get("suit") or p.get("led")
    suit = words.suit_name(suit_code) if suit_code else ""
    maker_alone = hint.get("maker_alone")
    texts = {
        "make": lambda: _holding(p),
        "keep": lambda: _holding(p),
        "joker_suit": lambda: _holding(p),
        "alone_maker": lambda: _holding(p) + " " + _alone_pays(int(hint.get("lone_march", 3))),
        "pass_weak": lambda: (
            _holding(p)
            + " "
            # Translators: a hint's reason to pass in the bidding.
            + _("Too weak to make trump: let someone else try, and defend.")
        ),
        # Translators: a hint's reason for the dealer to pick up the up card %(card)s.
        "pickup": lambda: _("The %(card)s makes your hand stronger in trump.") % {"card": card},
        # Translators: a hint's reason for the dealer's discard %(card)s: afterwards the hand holds no %(suit)s ("hearts"), so it can trump that suit.
        "discard_void": lambda: (
            _("Without the %(card)s you have no %(suit)s: you can trump them.")
            % {"card": card, "suit": suit}
        ),
        # Translators: a hint's reason for the dealer's discard %(card)s.
        "discard_low": lambda: _("The %(card)s is your least useful card.") % {"card": card},
        # Translators: a hint's reason for the dealer to leave the up card %(card)s.
        "leave": lambda: _("The %(card)s would not help your hand enough.") % {"card": card},
        # Translators: a hint's reason for a defender to defend alone (the other defender sits the hand out): what it scores (RULES.md: each defender 4 when the defenders take all five tricks, else 2 as usual).
        "alone_defender": lambda: _(
            "Your hand may stop the maker by yourself. Defending alone scores more only if you take all five tricks: 4 points each instead of 2."
        ),
        "defend_together": lambda: (
            # Translators: a hint's reason for a defender not to defend alone, when the maker plays alone (without the dummy).
            _("Two defenders stop the maker, who plays alone, more often than one.")
            if maker_alone
            # Translators: a hint's reason for a defender not to defend alone, when the maker took the dummy (a fourth hand of five cards).
            else _("Two defenders stop the maker, who took the dummy, more often than one.")
            if maker_alone is not None
            # Translators: a hint's reason for a defender not to defend alone.
            else _("Two defenders stop the maker more often than one.")
        ),
        # Translators: a hint's reason for the maker to take the dummy (a fourth hand of five cards).
        "dummy": lambda: _(
            "Choosing five of ten cards makes a stronger hand than these five alone."
        ),
        # Translators: a hint's reason: the reader has no card of the suit led, %(suit)s ("hearts"), and can win the trick with the trump %(card)s.
        "trump_in": lambda: (
            _("You have no %(suit)s: trump it with the %(card)s and take the trick.")
            % {"suit": suit, "card": card}
        ),
        # Translators: a hint's reason: the reader has no card of the suit led, %(suit)s ("hearts"), and cannot or should not win.
        "throw_off": lambda: (
            _("You have no %(suit)s: throw off the %(card)s, the card you need least.")
            % {"suit": suit, "card": card}
        ),
        # Translators: a hint's reason: the reader plays the trick's last card, %(card)s, which wins it.
        "win_last": lambda: _("You play last, and the %(card)s takes the trick.") % {"card": card},
        # Translators: a hint's reason: %(card)s wins the trick and no card still in play can beat it.
        "win_boss": lambda: (
            _("The %(card)s takes the trick: no card still out can beat it.") % {"card": card}
        ),
        # Translators: a hint's reason: %(card)s is winning the trick so far.
        "win": lambda: _("The %(card)s takes the trick as it stands.") % {"card": card},
        # Translators: a hint's reason: none of the reader's cards can beat %(best)s, the card winning the trick, so the trick is lost whichever card the reader plays.
        "cannot_win": lambda: (
            _("You cannot beat the %(best)s: this trick is lost whichever card you play.")
            % {"best": words.card_label(p["best"])}
        ),
        # Translators: a hint's reason: the reader could beat %(best)s but plays the low %(card)s and keeps the stronger cards for later tricks.
        "duck": lambda: (
            _(
                "Let the %(best)s have this trick: play the %(card)s and keep your stronger cards for later."
            )
            % {"best": words.card_label(p["best"]), "card": card}
        ),
        # Translators: a hint's reason to lead trump while holding both bowers (the two highest trumps, the Jacks of trump's colour).
        "lead_both_bowers": lambda: _(
            "Lead trump: you hold both bowers, so your trump draws out the others' trump."
        ),
        # Translators: a hint's reason to lead %(card)s, the highest trump nobody has played yet.
        "lead_boss_trump": lambda: (
            _("The %(card)s is the highest trump still out: it takes the trick and draws trump.")
            % {"card": card}
        ),
        # Translators: a hint's reason to lead a trump %(card)s: to make the others play theirs; %(n)s is how many trumps the reader holds.
        "lead_trump": lambda: (
            ngettext(
                "Lead trump to draw out the others' trump: you hold %(n)s.",
                "Lead trump to draw out the others' trump: you hold %(n)s.",
                p["trump"],
            )
            % {"n": p["trump"]}
        ),
        # Translators: a hint's reason to lead %(card)s, the highest card of %(suit)s ("hearts") still in play.
        "lead_boss": lambda: (
            _("The %(card)s is the highest %(suit)s still out: it should take the trick.")
            % {"card": card, "suit": suit}
        ),
        # Translators: a hint's reason to lead a low card %(card)s.
        "lead_low": lambda: (
            _("Lead the %(card)s and keep your winners for later tricks.") % {"card": card}
        ),
    }
    return texts[code]() if code in texts else ""
