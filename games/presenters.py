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

from games import engine
from games.engine import GameView

from .models import Game, Hand, Table

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_TEXT = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


@functools.cache
def card_html(code: str) -> str:
    """A face-up card with its text alternative, rendered once per card code
    (the table shows dozens of cards to every viewer after every move)."""
    name = engine.card_name(code)
    if code == "JK":
        rank, suit, colour = "★", "", "joker"
    else:
        rank, suit = RANK_TEXT[code[0]], SUIT_SYMBOLS[code[1]]
        colour = "red" if code[1] in "DH" else "black"
    return format_html(
        '<span class="card {}" data-card="{}" role="img" aria-label="{}">'
        '<span class="rank" aria-hidden="true">{}</span><span class="suit" aria-hidden="true">{}</span></span>',
        colour,
        code,
        name,
        rank,
        suit,
    )


# Rendered parts of the table that every viewer sees alike, keyed by all they
# show (public data only): rendered once, then reused for every viewer and move.
_FRAGMENTS: OrderedDict[tuple[Hashable, ...], SafeString] = OrderedDict()
_FRAGMENTS_SIZE = 1024
_fragments_lock = threading.Lock()


def fragment(name: str, key: tuple[Hashable, ...], context: Callable[[], dict[str, Any]]) -> str:
    """The partial `games/table.html#<name>` rendered with `context()`, reused
    for the same `key`, which must hold everything the partial shows."""
    full = (name, *key)
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
        for name in ("join", "bot", "leave", "rematch", "act", "autopilot", "revoke_invite")
    }
    if game_id is not None:
        urls["record"] = reverse("games:record", args=[game_id])
    return urls


def table_urls(table: Table, game: Game | None) -> dict[str, str]:
    """The table's form targets (reversed once per table and game)."""
    return _urls(get_script_prefix(), get_urlconf(), table.pk, game.pk if game else None)


def _table_head(table: Table, game: Game | None) -> str:
    number = game.number if game else None
    key = (table.name, table.mode, table.move_seconds, table.visibility, table.target)
    return fragment(
        "table_head",
        (*key, repr(table.rules), number),
        lambda: {"table": table, "game": game},
    )


def _posted(action: dict[str, Any]) -> str:
    """A legal action as the page posts it: without its seat (always the poster's)."""
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, separators=(",", ":"))


def card(code: str, action: dict[str, Any] | None = None, verb: str = "Play") -> dict[str, Any]:
    """A card for the template: its html, text alternative and (if clickable) its action."""
    name = engine.card_name(code)
    return {
        "code": code,
        "name": name,
        "html": card_html(code),
        "action": _posted(action) if action else None,
        "label": f"{verb} {name}" if action else name,
    }


def _button(label: str, action: dict[str, Any], style: str = "") -> dict[str, Any]:
    return {"label": label, "action": _posted(action), "style": style}


def _buttons(view: GameView) -> list[dict[str, Any]]:
    """Labels for the non-card legal actions, named for the seat's position."""
    out = []
    phase = view["phase"]
    for a in view["legal_actions"]:
        t = a["type"]
        if t == "pass":
            label = "Don't defend alone" if phase == "defender_alone" else "Pass"
            out.append(_button(label, a, "secondary"))
        elif t == "order":
            suit = SUIT_NAMES.get(view["up_suit"] or "", "")
            out.append(_button(f"{view['call_name']} ({suit} trump)", a))
        elif t == "name":
            out.append(_button(f"Name {SUIT_NAMES[a['suit']]} {SUIT_SYMBOLS[a['suit']]}", a))
        elif t == "joker_suit":
            out.append(_button(f"The Joker stands for {SUIT_NAMES[a['suit']]}", a))
        elif t == "leave":
            out.append(_button("Leave the up card", a, "secondary"))
        elif t == "dummy" and phase == "maker_choice":
            out.append(_button("Use the dummy", a))
        elif t == "alone":
            out.append(
                _button("Defend alone" if phase == "defender_alone" else "Go alone", a, "danger")
            )
    return out


def _hand_cards(view: GameView) -> list[dict[str, Any]]:
    hand = view["hand"] or []
    plays = {a["card"]: a for a in view["legal_actions"] if a["type"] == "play"}
    return [card(c, plays.get(c)) for c in hand]


def _discard_choices(view: GameView) -> list[dict[str, Any]]:
    """The dealer's pick-up: each of the six cards, clickable to discard it."""
    picks = [a for a in view["legal_actions"] if a["type"] == "pickup"]
    return [card(a["discard"], a, verb="Pick up and discard") for a in picks]


def _trick(names: dict[int, str], cards: list[list[Any]]) -> list[dict[str, Any]]:
    return [{"seat": s, "player": names[s], "card": card(c)} for s, c in cards]


def table_context(
    game: Game | None,
    table: Table,
    view: GameView | None,
    hand: Hand | None,
    user: Any = None,
) -> dict[str, Any]:
    """Everything the table partial renders for one viewer."""
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
                "dealer": pos == view["dealer"],
                "maker": pos == view["maker"],
                "alone": pos in view["alone"],
                "sitting_out": pos == view["sitting_out"],
                "to_act": pos == view["to_act"],
                "score": view["scores"][pos],
                "tricks": view["tricks_won"][pos],
                "cards_left": view["hand_counts"][pos],
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
    ctx["trump_name"] = SUIT_NAMES.get(view["trump"] or "")
    ctx["trump_symbol"] = SUIT_SYMBOLS.get(view["trump"] or "")
    ctx["dummy_cards"] = [card(c) for c in view["dummy"] or []]
    ctx["my_discards"] = [card(c) for c in view["my_discards"]]
    ctx["current_trick"] = _trick(ctx["seat_names"], view["current_trick"])
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


def _auto_note(hand: Hand | None, names: dict[int, str]) -> str:
    """Mark a move the bot made for a player whose time ran out."""
    actions = hand.record["actions"] if hand is not None else []
    if actions and actions[-1].get("auto"):
        return f"Time ran out: the bot moved for {names[actions[-1]['seat']]}."
    return ""


def _dummy_text(view: GameView, maker: str | None) -> str:
    if view["phase"] in (None, "over"):
        return ""
    if view["maker"] is not None and view["maker"] in view["alone"]:
        return f"unused: {maker} went alone"
    if view["phase"] in ("defender_alone", "play"):
        return f"taken by {maker}"
    return "5 cards face down"


def _phase_text(view: GameView, names: dict[int, str]) -> str:
    if view["over"]:
        return "The game is over."
    phase = view["phase"] or ""
    to_act = view["to_act"]
    if to_act is None:
        return ""
    if to_act == view["seat"]:
        return {
            "joker_suit": "The Joker was turned up: as the dealer, name the suit it stands for.",
            "bid1": f"First round: {(view['call_name'] or '').lower()} or pass.",
            "dealer_pickup": "Pick up the up card (choose your discard) or leave it.",
            "bid2": "Second round: name trump or pass.",
            "maker_choice": "You are the maker: use the dummy or go alone.",
            "dummy_keep": "You took the dummy: choose the five cards to keep.",
            "defender_alone": "Defend alone, or play with your partner for this hand.",
            "play": "Play a card.",
        }.get(phase, "")
    who = names.get(to_act, "")
    return {
        "joker_suit": f"The Joker was turned up: {who} (the dealer) names the suit it stands for.",
        "bid1": f"First round of bidding: {who} to order it up or pass.",
        "dealer_pickup": f"{who} (the dealer) picks up the up card or leaves it.",
        "bid2": f"Second round of bidding: {who} to name trump or pass.",
        "maker_choice": f"{who} (the maker) uses the dummy or goes alone.",
        "dummy_keep": f"{who} (the maker) took the dummy and keeps five of the ten cards.",
        "defender_alone": f"{who} may defend alone.",
        "play": f"{who} to play.",
    }.get(phase, "")


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
    return {
        "number": number,
        "thrown_in": res["thrown_in"],
        "maker": names.get(res["maker"]) if res["maker"] is not None else None,
        "trump": SUIT_NAMES.get(res["trump"] or ""),
        "alone": [names[s] for s in res["alone"]],
        "rows": rows,
        "dummy": [card(c) for c in deal.get("dummy") or []],
        "kitty": [card(c) for c in deal.get("kitty") or []],
        "discards": [card(c) for c in _flat(deal.get("discards"))],
        "dealer": names[last["dealer"]],
    }


def _flat(discards: list[list[str]] | None) -> list[str]:
    """The deal's discards are listed per seat; the summary shows them together."""
    return [c for per_seat in discards or [] for c in per_seat]
