"""Turn one seat's view (from the engine) into what the table template shows.

Nothing here decides a rule: buttons and clickable cards are the view's
`legal_actions`, labelled for people.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import GameView, IllegalAction

from . import messages, narration, words
from .models import Game, Hand, Table

SUIT_SYMBOLS = words.SUIT_SYMBOLS
# The suits' names in the reader's language (lazy): games.words is their home.
SUIT_NAMES = words.SUITS


def card_html(code: str) -> str:
    """A face-up card with its text alternative (its name in the active language)."""
    return _card_html(code, get_language())


@functools.lru_cache(maxsize=512)
def _card_html(code: str, language: str | None) -> str:
    """Rendered once per card code and language (the table shows dozens of
    cards to every viewer after every move): an SVG face, its corners' index
    (the rank in the reader's language) and suit, a large suit in the middle,
    named for screen readers by its text alternative."""
    name = words.card_label(code)
    if code == "JK":
        index, suit = "★", "joker"
    else:
        index, suit = words.rank_corner(code[0]), code[1]
    corner = format_html(
        '<text class="card-index" x="4" y="15">{}</text>'
        '<use href="#pip-{}" x="3.5" y="18" width="10" height="10"/>',
        index,
        suit,
    )
    return format_html(
        '<span class="card s-{}" data-card="{}" role="img" aria-label="{}">'
        '<svg viewBox="0 0 50 70" aria-hidden="true" focusable="false">{}'
        '<use href="#pip-{}" x="13" y="21" width="24" height="28"/>'
        '<g transform="rotate(180 25 35)">{}</g></svg></span>',
        suit,
        code,
        name,
        corner,
        suit,
        corner,
    )


# A card seen from behind (opponents' hands, the dummy, the kitty): no name,
# the count is said next to it.
CARD_BACK = SafeString(
    '<span class="card back" aria-hidden="true"><svg viewBox="0 0 50 70" focusable="false">'
    '<rect x="3" y="3" width="44" height="64" rx="4" fill="url(#card-back-weave)"/></svg></span>'
)


# Rendered parts of the table that every viewer sees alike, keyed by all they
# show (public data only) and the language: rendered once, then reused for
# every viewer reading that language and every move.
_FRAGMENTS: OrderedDict[tuple[Hashable, ...], SafeString] = OrderedDict()
_FRAGMENTS_SIZE = 1024
_fragments_lock = threading.Lock()


def fragment(name: str, key: tuple[Hashable, ...], context: Callable[[], dict[str, Any]]) -> str:
    """The partial `games/table.html#<name>` rendered with `context()`, reused
    for the same `key`, which must hold everything the partial shows (the
    active language is added to it)."""
    full = (name, get_language(), *key)
    with _fragments_lock:
        html = _FRAGMENTS.get(full)
        if html is not None:
            _FRAGMENTS.move_to_end(full)
            return html
    html = render_to_string(f"games/table.html#{name}", context())
    with _fragments_lock:
        _FRAGMENTS[full] = html
        if len(_FRAGMENTS) > _FRAGMENTS_SIZE:
            _FRAGMENTS.popitem(last=False)
    return html


@functools.lru_cache(maxsize=1024)
def _urls(prefix: str, urlconf: Any, table_id: int, game_id: int | None) -> dict[str, str]:
    urls = {
        name: reverse(f"games:{name}", args=[table_id])
        for name in ("join", "bot", "leave", "rematch", "act", "hint", "autopilot", "revoke_invite")
    }
    if game_id is not None:
        urls["record"] = reverse("games:record", args=[game_id])
    return urls


def table_urls(table: Table, game: Game | None) -> dict[str, str]:
    """The table's form targets (reversed once per table and game)."""
    return _urls(get_script_prefix(), get_urlconf(), table.pk, game.pk if game else None)


def _table_head(table: Table, game: Game | None) -> str:
    number = game.number if game else None
    key = (
        table.name,
        table.mode,
        table.move_seconds,
        table.visibility,
        table.target,
        table.hints,
        table.daily_date,
    )
    return fragment(
        "table_head",
        (*key, repr(table.rules), number),
        lambda: {"table": table, "game": game},
    )


def _posted(action: dict[str, Any]) -> str:
    """A legal action as the page posts it: without its seat (always the poster's)."""
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, separators=(",", ":"))


def _card_button_label(verb: str, name: str) -> str:
    """What a clickable card does, said for screen readers: "Play Jack of hearts"."""
    if verb == "discard":
        # Translators: a card button's label when the dealer picks up the up card: the clicked card is put face down in exchange. %(card)s is a card's name ("Jack of hearts").
        return pgettext("card button", "Pick up and discard %(card)s") % {"card": name}
    # Translators: a card button's label: play this card. %(card)s is a card's name ("Jack of hearts").
    return pgettext("card button", "Play %(card)s") % {"card": name}


def card(code: str, action: dict[str, Any] | None = None, verb: str = "play") -> dict[str, Any]:
    """A card for the template: its html, text alternative and (if clickable)
    its action, labelled for what it does (`verb`: "play" or "discard")."""
    name = words.card_label(code)
    return {
        "code": code,
        "name": name,
        "html": card_html(code),
        "action": _posted(action) if action else None,
        "label": _card_button_label(verb, name) if action else name,
    }


def _button(label: str, action: dict[str, Any], style: str = "") -> dict[str, Any]:
    return {"label": label, "action": _posted(action), "style": style}


def _call(view: GameView, seat: int | None) -> str:
    """The first-round call of `seat` in this hand ("order", "assist", "accept")."""
    return words.call_of(view["dealer"] or 0, seat or 0)


def _buttons(view: GameView) -> list[dict[str, Any]]:
    """Labels for the non-card legal actions, named for the seat's position."""
    out = []
    phase = view["phase"]
    for a in view["legal_actions"]:
        t = a["type"]
        if t == "pass":
            declined = words.DONT_DEFEND_ALONE if phase == "defender_alone" else words.PASS
            out.append(_button(str(declined), a, "secondary"))
        elif t == "order":
            call = _call(view, a["seat"])
            up = view["up_suit"]
            # Translators: a button of the first round of bidding: %(call)s is the seat's call ("Order it up", "Assist" or "Accept"), %(suit)s the up card's suit ("hearts"), which becomes trump.
            label = pgettext("bidding button", "%(call)s (%(suit)s trump)") % {
                "call": words.call_label(call),
                "suit": words.suit_name(up) if up else "",
            }
            out.append(_button(label, a))
        elif t == "name":
            # Translators: a button of the second round of bidding: make this suit trump. %(suit)s is a suit ("hearts"), %(symbol)s its sign (♥).
            label = pgettext("bidding button", "Name %(suit)s %(symbol)s") % {
                "suit": words.suit_name(a["suit"]),
                "symbol": SUIT_SYMBOLS[a["suit"]],
            }
            out.append(_button(label, a))
        elif t == "joker_suit":
            # Translators: a button of the dealer when the Joker was turned up: it stands for this suit in the first round. %(suit)s is a suit ("hearts").
            label = pgettext("bidding button", "The Joker stands for %(suit)s") % {
                "suit": words.suit_name(a["suit"])
            }
            out.append(_button(label, a))
        elif t == "leave":
            out.append(_button(str(words.LEAVE_THE_UP_CARD), a, "secondary"))
        elif t == "dummy" and phase == "maker_choice":
            out.append(_button(str(words.USE_THE_DUMMY), a))
        elif t == "alone":
            alone = words.DEFEND_ALONE if phase == "defender_alone" else words.GO_ALONE
            out.append(_button(str(alone), a, "danger"))
    return out


def _hand_cards(view: GameView) -> list[dict[str, Any]]:
    """The viewer's cards; at their turn to play, those they may not play are
    marked `dimmed` (the reason is said once, by `_unplayable_reason`)."""
    hand = view["hand"] or []
    plays = {a["card"]: a for a in view["legal_actions"] if a["type"] == "play"}
    cards = [card(c, plays.get(c)) for c in hand]
    if plays:
        for c in cards:
            c["dimmed"] = c["action"] is None
    return cards


def _unplayable_reason(view: GameView) -> tuple[str, str | None]:
    """Why some of the viewer's cards may not be played now (they must follow
    the suit led), said as the engine's refusal would say it, with its rule."""
    led = view["led_suit"]
    if view["phase"] != "play" or led is None or not view["legal_actions"]:
        return "", None
    refused = IllegalAction(f"must follow {led}", "must_follow", suit=led)
    return messages.refusal(refused), messages.RULE_ANCHORS["must_follow"]


def _discard_choices(view: GameView) -> list[dict[str, Any]]:
    """The dealer's pick-up: each of the six cards, clickable to discard it."""
    picks = [a for a in view["legal_actions"] if a["type"] == "pickup"]
    return [card(a["discard"], a, verb="discard") for a in picks]


def _trick(names: dict[int, str], cards: list[list[Any]]) -> list[dict[str, Any]]:
    return [{"seat": s, "player": names[s], "card": card(c)} for s, c in cards]


def _trick_on_table(
    view: GameView, names: dict[int, str], where: dict[int, str]
) -> tuple[list[dict[str, Any]], str | None]:
    """The cards in the middle, each in front of the player who played it:
    the trick under way, or, until the next card is led, the trick just won
    (its winner's card marked; the page gathers it to the winner after a
    moment). Returns the cards and, for a won trick, the winner's place."""
    cards, winner = view["current_trick"], None
    if not cards and view["phase"] == "play" and view["tricks"]:
        last = view["tricks"][-1]
        cards, winner = last["cards"], last["winner"]
    elif not cards and not view["history"] and view["last_hand"]:
        last = view["last_hand"]["last_trick"]  # the last trick of the hand just over
        if last:
            cards, winner = last["cards"], last["winner"]
    out = []
    for seat, code in cards:
        out.append(
            {
                "where": where[seat],
                "player": names[seat],
                "card": card(code),
                "won": seat == winner,
            }
        )
    return out, (where[winner] if winner is not None else None)


def _score_pad(view: GameView, names: dict[int, str], order: list[int]) -> list[dict[str, Any]]:
    """Every finished hand of the game: dealer, maker and trump, and for each
    seat (in `order`, the table's) its tricks, points and score after it."""
    rows, running = [], [0, 0, 0]
    for n, h in enumerate(view["score_pad"], start=1):
        res = h["result"]
        running = [a + b for a, b in zip(running, res["points"], strict=True)]
        maker = res["maker"]
        rows.append(
            {
                "number": n,
                "dealer": names[h["dealer"]],
                "maker": names[maker] if maker is not None else None,
                "trump": words.suit_name(res["trump"]) if res["trump"] else None,
                "trump_symbol": SUIT_SYMBOLS.get(res["trump"] or ""),
                "alone": bool(maker is not None and maker in res["alone"]),
                "outcome": words.hand_outcome(res["tricks"][maker]) if maker is not None else "",
                "cells": [
                    {"tricks": res["tricks"][p], "points": res["points"][p], "score": running[p]}
                    for p in order
                ],
            }
        )
    return rows


NEWS_KEPT = 8  # moves each table carries for the announcements


def _hand_news(
    number: int,
    history: list[dict[str, Any]],
    tricks: list[dict[str, Any]],
    dealer: int,
    names: dict[int, str],
    result: dict[str, Any] | None,
) -> list[tuple[str, list[str]]]:
    """Each move of hand `number` in words, keyed "hand-step": the move, the
    trick it won, and for the last of a finished hand, how the hand went."""
    ends, played, out = [], 0, []
    for trick in tricks:
        played += len(trick["cards"])
        ends.append((played, trick["winner"]))
    plays, first = 0, len(history) - NEWS_KEPT  # only the moves a table carries are told
    for step, action in enumerate(history):
        plays += action["type"] == "play"
        if step < first:
            continue
        lines = [narration.describe(action, names, dealer)]
        if action["type"] == "play":
            lines += [narration.trick_won(names[w]) for n, w in ends if n == plays]
        out.append((f"{number}-{step}", lines))
    if result is not None:
        out.append((f"{number}-end", [_hand_heading(number, result, names)]))
    return out


def _news(
    view: GameView, names: dict[int, str], phase_text: str, your_turn: bool
) -> dict[str, Any]:
    """What happened lately and whose turn it is, in words, for the table's
    screen-reader announcements: the last moves (as this viewer may see
    them), each keyed so that a page says only those it has not said yet,
    even when it missed a table in between; then what comes next."""
    moves: list[tuple[str, list[str]]] = []
    last, number = view["last_hand"], view["hand_number"]
    if last and not view["over"]:
        moves += _hand_news(
            number - 1, last["history"], last["tricks"], last["dealer"], names, last["result"]
        )
    moves += _hand_news(
        number,
        view["history"],
        view["tricks"],
        view["dealer"] or 0,
        names,
        last["result"] if view["over"] and last else None,
    )
    now = [_("Your turn.")] if your_turn else []
    if phase_text:
        now.append(phase_text)
    return {"moves": moves[-NEWS_KEPT:], "now": now}


def table_context(
    game: Game | None,
    table: Table,
    view: GameView | None,
    hand: Hand | None,
    user: Any = None,
) -> dict[str, Any]:
    """Everything the table partial renders for one viewer."""
    if game is not None and view is not None and game.status == Game.Status.FINISHED:
        view = _stopped(view)
    ctx: dict[str, Any] = {"table": table, "game": game, "view": view, "user": user}
    # When the last move was stored (epoch ms): "last move ..." and latency measurements.
    ctx["moved_at"] = (
        int(game.last_move_at.timestamp() * 1000) if game and game.last_move_at else ""
    )
    seats = list(table.seats.all())
    ctx["urls"] = table_urls(table, game)
    ctx["header_html"] = _table_head(table, game)
    user_id = getattr(user, "pk", None)
    ctx["is_owner"] = user_id is not None and table.owner_id == user_id
    ctx["invite_url"] = settings.SITE_URL + table.invite_url()
    if game is None or view is None:
        # Before the game: who sits where, and this user's join / leave / bot controls.
        ctx["seats"] = [{"position": s.position, "name": s.display_name, "seat": s} for s in seats]
        ctx["my_seat_taken"] = any(s.user_id == user_id for s in seats if user_id is not None)
        return ctx
    me = view["seat"]
    bottom = me if me is not None else 0
    order = [bottom, (bottom + 1) % 3, (bottom + 2) % 3]  # you, your left, your right
    where = {order[0]: "bottom", order[1]: "left", order[2]: "right"}
    seat_rows = []
    for pos in order:
        s = seats[pos]
        seat_rows.append(
            {
                "position": pos,
                "name": s.display_name,
                "is_bot": s.is_bot,
                "is_you": pos == me,
                "where": where[pos],
                "relative": words.relative_seat(pos, me),
                "dealer": pos == view["dealer"],
                "maker": pos == view["maker"],
                "alone": pos in view["alone"],
                "sitting_out": pos == view["sitting_out"],
                "to_act": pos == view["to_act"],
                "score": view["scores"][pos],
                "tricks": view["tricks_won"][pos],
                "cards_left": view["hand_counts"][pos],
                "backs": range(view["hand_counts"][pos]),
                "trick_stack": range(view["tricks_won"][pos]),
            }
        )
    ctx["seats"] = seat_rows
    ctx["seat_names"] = {s.position: s.display_name for s in seats}
    ctx["you"] = me
    ctx["your_turn"] = me is not None and view["to_act"] == me
    ctx["to_act_name"] = (
        ctx["seat_names"].get(view["to_act"]) if view["to_act"] is not None else None
    )
    ctx["hand_cards"] = _hand_cards(view)
    ctx["discard_choices"] = _discard_choices(view)
    ctx["buttons"] = _buttons(view)
    ctx["exchange_cards"] = [card(c) for c in view["exchange"] or []]
    ctx["up_card"] = card(view["up_card"]) if view["up_card"] else None
    ctx["turned_down"] = card(view["turned_down"]) if view["turned_down"] else None
    ctx["turned_suit_banned"] = (
        words.suit_name(view["banned_suit"]) if view["banned_suit"] else None
    )
    ctx["trump_name"] = words.suit_name(view["trump"]) if view["trump"] else None
    ctx["trump_symbol"] = SUIT_SYMBOLS.get(view["trump"] or "")
    ctx["dummy_cards"] = [card(c) for c in view["dummy"] or []]
    ctx["my_discards"] = [card(c) for c in view["my_discards"]]
    ctx["current_trick"] = _trick(ctx["seat_names"], view["current_trick"])
    ctx["trick_on_table"], ctx["trick_winner_at"] = _trick_on_table(view, ctx["seat_names"], where)
    ctx["unplayable_reason"], ctx["unplayable_rule"] = _unplayable_reason(view)
    ctx["card_back"] = CARD_BACK
    in_play = view["phase"] not in (None, "over")
    unused_dummy = view["maker"] is None or view["maker"] in view["alone"]
    ctx["dummy_pile"] = range(5 if in_play and unused_dummy else 0)
    # The kitty: three face down under the up card, or four once it is turned down.
    ctx["kitty_pile"] = range(0 if not in_play else 4 if view["up_card_taken"] is False else 3)
    ctx["score_pad"] = _score_pad(view, ctx["seat_names"], order)
    last = view["tricks"][-1] if view["tricks"] else None
    ctx["last_trick"] = (
        {
            "cards": _trick(ctx["seat_names"], last["cards"]),
            "winner": ctx["seat_names"][last["winner"]],
        }
        if last
        else None
    )
    names_key = tuple(ctx["seat_names"].items())
    if last:
        ctx["last_trick_html"] = fragment(
            "last_trick",
            (repr(last), names_key),
            lambda: {"last_trick": ctx["last_trick"]},
        )
    ctx["phase_text"] = _phase_text(view, ctx["seat_names"])
    ctx["news"] = _news(view, ctx["seat_names"], ctx["phase_text"], ctx["your_turn"])
    ctx["last_hand"] = _hand_summary(
        view["last_hand"], ctx["seat_names"], view["hand_number"], view
    )
    if ctx["last_hand"]:
        ctx["last_hand_html"] = fragment(
            "hand_summary",
            (repr(view["last_hand"]), names_key, ctx["last_hand"]["number"]),
            lambda: {"last_hand": ctx["last_hand"]},
        )
    ctx["deadline"] = game.deadline if not view["over"] else None
    me_row = next((s for s in seats if s.position == me), None)
    ctx["my_seat_bot"] = bool(me_row and me_row.is_bot)
    ctx["auto_note"] = _auto_note(hand, ctx["seat_names"])
    ctx["maker_name"] = ctx["seat_names"].get(view["maker"]) if view["maker"] is not None else None
    ctx["dummy_text"] = _dummy_text(view, ctx["maker_name"])
    ctx["winner_name"] = (
        ctx["seat_names"].get(view["winner"]) if view["winner"] is not None else None
    )
    return ctx


def _stopped(view: GameView) -> GameView:
    """A game stopped before its end (a daily deal left half-played, or its
    day over) is over for the table although the engine would play on:
    nobody acts any more, and nobody won."""
    if view["over"]:
        return view
    stopped = GameView(**view)
    stopped["over"], stopped["winner"], stopped["to_act"] = True, None, None
    stopped["legal_actions"], stopped["exchange"] = [], None
    return stopped


def _auto_note(hand: Hand | None, names: dict[int, str]) -> str:
    """Mark a move the bot made for a player whose time ran out."""
    actions = hand.record["actions"] if hand is not None else []
    if actions and actions[-1].get("auto"):
        # Translators: a note on the table: the player's time to move ran out (tables played by turns), so a bot made that move. %(name)s is the player's name.
        return _("Time ran out: the bot moved for %(name)s.") % {"name": names[actions[-1]["seat"]]}
    return ""


def _dummy_text(view: GameView, maker: str | None) -> str:
    """What became of the dummy (a fourth hand dealt face down that the maker may take)."""
    if view["phase"] in (None, "over"):
        return ""
    if view["maker"] is not None and view["maker"] in view["alone"]:
        # Translators: next to the label "Dummy": nobody takes the dummy because the maker (%(name)s) plays alone.
        return pgettext("the dummy", "unused: %(name)s went alone") % {"name": maker}
    if view["phase"] in ("defender_alone", "play"):
        # Translators: next to the label "Dummy": the maker (%(name)s) took the dummy.
        return pgettext("the dummy", "taken by %(name)s") % {"name": maker}
    # Translators: next to the label "Dummy": the dummy's cards lie face down, nobody has taken them yet.
    return ngettext("%(n)s card face down", "%(n)s cards face down", 5) % {"n": 5}


def _my_phase_text(view: GameView, phase: str) -> str:
    """What the viewer whose turn it is has to do."""
    if phase == "joker_suit":
        # Translators: the Joker was turned up as the up card; the dealer (the reader) says which suit it stands for.
        return _("The Joker was turned up: as the dealer, name the suit it stands for.")
    if phase == "bid1":
        call = _call(view, view["seat"])
        if call == "assist":
            # Translators: the first round of bidding: the reader may "assist" (make the up card's suit trump, see the button "Assist") or pass.
            return _("First round: assist or pass.")
        if call == "accept":
            # Translators: the first round of bidding: the reader, the dealer, may "accept" (make the up card's suit trump, see the button "Accept") or pass.
            return _("First round: accept or pass.")
        # Translators: the first round of bidding: the reader may "order it up" (make the up card's suit trump, see the button "Order it up") or pass.
        return _("First round: order it up or pass.")
    if phase == "dealer_pickup":
        # Translators: the dealer (the reader) takes the up card into their hand and puts one card face down (the discard), or leaves it on the table.
        return _("Pick up the up card (choose your discard) or leave it.")
    if phase == "bid2":
        # Translators: the second round of bidding: the reader may choose any suit as trump (except the turned-down one, unless the table allows it) or pass.
        return _("Second round: name trump or pass.")
    if phase == "maker_choice":
        # Translators: the maker (who chose trump, the reader) takes the dummy (a fourth hand dealt face down) or plays alone.
        return _("You are the maker: use the dummy or go alone.")
    if phase == "dummy_keep":
        # Translators: the maker (the reader) took the dummy and keeps five of the ten cards.
        return _("You took the dummy: choose the five cards to keep.")
    if phase == "defender_alone":
        # Translators: the maker went alone; the reader, a defender, may also play alone (for more points) or play with the other defender.
        return _("Defend alone, or play with your partner for this hand.")
    if phase == "play":
        return _("Play a card.")
    return ""


def _their_phase_text(view: GameView, phase: str, who: str) -> str:
    """What the player whose turn it is (`who`, another) has to do."""
    name = {"name": who}
    if phase == "joker_suit":
        return (
            # Translators: the Joker was turned up as the up card; the dealer, %(name)s, says which suit it stands for.
            _("The Joker was turned up: %(name)s (the dealer) names the suit it stands for.") % name
        )
    if phase == "bid1":
        call = _call(view, view["to_act"])
        if call == "assist":
            # Translators: the first round of bidding: %(name)s may "assist" (make the up card's suit trump) or pass.
            return _("First round of bidding: %(name)s to assist or pass.") % name
        if call == "accept":
            # Translators: the first round of bidding: %(name)s, the dealer, may "accept" (make the up card's suit trump) or pass.
            return _("First round of bidding: %(name)s to accept or pass.") % name
        # Translators: the first round of bidding: %(name)s may "order it up" (make the up card's suit trump) or pass.
        return _("First round of bidding: %(name)s to order it up or pass.") % name
    if phase == "dealer_pickup":
        # Translators: the dealer, %(name)s, takes the up card into their hand (putting one card face down) or leaves it.
        return _("%(name)s (the dealer) picks up the up card or leaves it.") % name
    if phase == "bid2":
        # Translators: the second round of bidding: %(name)s may choose a suit as trump or pass.
        return _("Second round of bidding: %(name)s to name trump or pass.") % name
    if phase == "maker_choice":
        # Translators: the maker, %(name)s, takes the dummy (a fourth hand dealt face down) or plays alone.
        return _("%(name)s (the maker) uses the dummy or goes alone.") % name
    if phase == "dummy_keep":
        # Translators: the maker, %(name)s, took the dummy and keeps five of the ten cards.
        return _("%(name)s (the maker) took the dummy and keeps five of the ten cards.") % name
    if phase == "defender_alone":
        # Translators: the maker went alone; %(name)s, a defender, may also play alone against them.
        return _("%(name)s may defend alone.") % name
    if phase == "play":
        # Translators: it is %(name)s's turn to play a card.
        return _("%(name)s to play.") % name
    return ""


def _phase_text(view: GameView, names: dict[int, str]) -> str:
    if view["over"]:
        return _("The game is over.")
    phase = view["phase"] or ""
    to_act = view["to_act"]
    if to_act is None:
        return ""
    if to_act == view["seat"]:
        return _my_phase_text(view, phase)
    return _their_phase_text(view, phase, names.get(to_act, ""))


def _hand_summary(
    last: dict[str, Any] | None, names: dict[int, str], hand_number: int, view: GameView
) -> dict[str, Any] | None:
    """The end-of-hand summary: maker, trump, tricks, points, the whole deal."""
    if not last:
        return None
    res = last["result"]
    deal = last["deal"] or {}
    # The finished hand is the current one only at the end of the game.
    number = hand_number if view["over"] or view["phase"] == "over" else hand_number - 1
    rows = []
    for s in range(3):
        rows.append(
            {
                "name": names[s],
                "tricks": res["tricks"][s],
                "points": res["points"][s],
                "cards": [card(c) for c in (deal.get("hands") or [[], [], []])[s]],
            }
        )
    maker = res["maker"]
    return {
        "number": number,
        "heading": _hand_heading(number, res, names),
        "thrown_in": res["thrown_in"],
        "maker": names.get(maker) if maker is not None else None,
        "trump": words.suit_name(res["trump"]) if res["trump"] else None,
        "alone": [names[s] for s in res["alone"]],
        "rows": rows,
        "dummy": [card(c) for c in deal.get("dummy") or []],
        "kitty": [card(c) for c in deal.get("kitty") or []],
        "discards": [card(c) for c in _flat(deal.get("discards"))],
        "dealer": names[last["dealer"]],
    }


def _hand_heading(number: int, res: dict[str, Any], names: dict[int, str]) -> str:
    """The summary's title: "Hand 3: alice made hearts (alice alone) — march"."""
    maker = res["maker"]
    if res["thrown_in"] or maker is None:
        # Translators: the title of a finished hand's summary when nobody chose trump in either round.
        return _("Hand %(number)s: thrown in, everyone passed") % {"number": number}
    # Translators: the title of a finished hand's summary: %(maker)s chose trump, %(trump)s is the suit ("hearts").
    heading = _("Hand %(number)s: %(maker)s made %(trump)s") % {
        "number": number,
        "maker": names.get(maker, ""),
        "trump": words.suit_name(res["trump"]) if res["trump"] else "",
    }
    alone = [names[s] for s in res["alone"]]
    if len(alone) == 1:
        # Translators: part of a hand summary's title: %(name)s played the hand alone (without the dummy, or as the lone defender).
        alone_text = _("%(name)s alone") % {"name": alone[0]}
    elif alone:
        # Translators: part of a hand summary's title: the maker and a defender both played alone.
        alone_text = _("%(first)s and %(second)s alone") % {"first": alone[0], "second": alone[1]}
    else:
        alone_text = ""
    if alone_text:
        # Translators: a hand summary's title, %(heading)s, followed by who played alone.
        heading = pgettext("hand summary", "%(heading)s (%(alone)s)") % {
            "heading": heading,
            "alone": alone_text,
        }
    outcome = words.hand_outcome(res["tricks"][maker])
    if outcome:
        # Translators: a hand summary's title, %(heading)s, followed by the maker's result ("euchred" or "march").
        heading = pgettext("hand summary", "%(heading)s — %(outcome)s") % {
            "heading": heading,
            "outcome": outcome,
        }
    return heading


def _flat(discards: list[list[str]] | None) -> list[str]:
    """The deal's discards are listed per seat; the summary shows them together."""
    return [c for per_seat in discards or [] for c in per_seat]
