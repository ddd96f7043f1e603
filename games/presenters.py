"""Turn one seat's view (from the engine) into what the table template shows.

Nothing here decides a rule: buttons and clickable cards are the view's
`legal_actions`, labelled for people.
"""

from __future__ import annotations

import datetime
import functools
import json
import threading
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict

from cachetools import LRUCache
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games import engine
from games.engine import (
    ActionDict,
    Call,
    GameView,
    HandOutcome,
    LastHand,
    MakerPlay,
    Outcome,
    SeatCard,
    TrickDict,
)
from games.engine import HandResult as EngineHandResult
from games.engine.cards import N_CARDS, card_str

from . import felt, messages, narration, words
from .models import TIMEOUTS_BEFORE_HANDOVER, Game, Hand, Seat, Table

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

# A partial's template context, as Django's render_to_string takes it.
Context = Mapping[str, object]

SUIT_SYMBOLS = words.SUIT_SYMBOLS


def card_html(code: str) -> str:
    """A face-up card with its text alternative (its name in the active language)."""
    return _card_html(code, get_language())


@functools.lru_cache(maxsize=512)
def _card_html(code: str, language: str | None) -> str:
    """Rendered once per card code and language (the table shows dozens of
    cards to every viewer after every move): the card's picture from the
    page's sprite (card_symbols), named for screen readers by its text
    alternative. A card holds no text of its own, so what a card button
    shows is its picture and its accessible name alone says it."""
    suit = "joker" if code == "JK" else code[1]
    return format_html(
        '<span class="card s-{}" data-card="{}" role="img" aria-label="{}">'
        '<svg viewBox="0 0 50 70" aria-hidden="true" focusable="false">'
        '<use href="#{}"/></svg></span>',
        suit,
        code,
        words.card_label(code),
        _face_id(code),
    )


def _face_id(code: str) -> str:
    """The sprite's id of a card's face: not the card's code, which the page
    shows only for the cards its reader may see (the sprite holds them all)."""
    return "face-joker" if code == "JK" else f"face-{code[0].lower()}-{code[1].lower()}"


def card_symbols() -> SafeString:
    """The SVG symbols card_html's pictures use, drawn once per page
    (_card_sprite.html): each rank's corner index in the active language,
    and each card's face (its corners' index and suit, a large suit in the
    middle). A frame then names a card's face in one short <use>: the faces
    were nearly half of a table's frame, some twenty cards of five shapes."""
    return _card_symbols(get_language())


def _face_symbol(code: str) -> str:
    rank, suit = ("joker", "joker") if code == "JK" else (code[0], code[1])
    corner = format_html(
        '<use href="#rank-{}"/><use href="#pip-{}" x="3.5" y="18" width="10" height="10"/>',
        rank,
        suit,
    )
    return format_html(
        '<symbol id="{}" overflow="visible">{}'
        '<use href="#pip-{}" x="13" y="21" width="24" height="28"/>'
        '<g transform="rotate(180 25 35)">{}</g></symbol>',
        _face_id(code),
        corner,
        suit,
        corner,
    )


@functools.lru_cache(maxsize=16)
def _card_symbols(language: str | None) -> SafeString:
    ranks = [(code, words.rank_corner(code)) for code in words.RANK_CODES]
    corners = "".join(
        format_html(
            '<symbol id="rank-{}" overflow="visible">'
            '<text class="card-index" x="4" y="15">{}</text></symbol>',
            code,
            index,
        )
        for code, index in [*ranks, ("joker", "★")]
    )
    faces = "".join(_face_symbol(card_str(c)) for c in range(N_CARDS))
    return SafeString(corners + faces)


# A card seen from behind (opponents' hands, the dummy, the kitty): no name,
# the count is said next to it.
CARD_BACK = SafeString(
    '<span class="card back" aria-hidden="true"><svg viewBox="0 0 50 70" focusable="false">'
    '<rect x="3" y="3" width="44" height="64" rx="4" fill="url(#card-back-weave)"/></svg></span>'
)


# Rendered parts of the table that every viewer sees alike, keyed by all they
# show (public data only) and the language: rendered once, then reused for
# every viewer reading that language and every move. Bounded by their length,
# not their number: a game in play keeps about a dozen alive (its head, and
# each viewer's last trick, last hand and score pad), so the 1,024 entries
# this held before were about 80 tables' worth, and at 200 tables nearly
# every one was rendered again at every move. A game's dozen are some 30 KB
# (the last hand's summary, a viewer's, about 5.5 KB): this budget holds
# about 500 tables' in one language; the least recently used go first.
FRAGMENTS_CHARS = 16_000_000
_FRAGMENTS: LRUCache[tuple[Hashable, ...], SafeString] = LRUCache(FRAGMENTS_CHARS, getsizeof=len)
_fragments_lock = threading.Lock()


def fragment(name: str, key: tuple[Hashable, ...], context: Callable[[], Context]) -> str:
    """The partial `games/table.html#<name>` rendered with `context()`, reused
    for the same `key`, which must hold everything the partial shows (the
    active language is added to it)."""
    full = (name, get_language(), *key)
    with _fragments_lock:
        html = _FRAGMENTS.get(full)
    if html is not None:
        return html
    html = render_to_string(f"games/table.html#{name}", context())
    with _fragments_lock:
        _FRAGMENTS[full] = html
    return html


@functools.lru_cache(maxsize=1024)
def _urls(prefix: str, urlconf: str | None, table_id: int, game_id: int | None) -> dict[str, str]:
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


def _posted(action: Mapping[str, object]) -> str:
    """A legal action as the page posts it: without its seat (always the poster's)."""
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, separators=(",", ":"))


# --------------------------------------------------------------------------- the hint
# A hint as games.hints works it out (language-neutral) and as the table shows
# it in words: here, below the frames and pushes that carry it.


class ReasonParams(TypedDict, total=False):
    """A reason's facts, as games.bots.explain states them (each code its own few)."""

    card: str
    suit: str
    led: str
    best: str
    seat: int
    trump: int  # how many trumps the hand holds
    top: list[str]
    aces: list[str]
    tricks: float


Reason = tuple[str, ReasonParams]


class Choice(TypedDict):
    """A move the search weighed and the share of its deals in which it was best."""

    action: ActionDict
    share: float


class Hint(TypedDict):
    """A position's hint, language-neutral (`compute`): cached, then put into
    words (`in_words`). The keys read with .get came later: an older cached
    hint may lack them."""

    action: ActionDict
    share: float
    reasons: list[Reason]
    dealer: int
    up_suit: str | None
    phase: NotRequired[str | None]
    maker_alone: NotRequired[bool]
    lone_march: NotRequired[int]
    choices: NotRequired[int]
    ranked: NotRequired[int]
    others: NotRequired[list[Choice]]
    equal: NotRequired[list[str]]


class AskedHint(Hint):
    """A hint labelled with the game version it was asked at."""

    version: int


class HintWords(TypedDict):
    """A hint in the reader's language (`in_words`): what to do, why, how sure."""

    version: int
    do: str
    why: list[str]
    sure: str


class ShownHint(HintWords):
    """A hint in words as the table shows it (games/table.html), with its game."""

    game: int


class Thinking(TypedDict):
    """The table's "Thinking…" while a worker works the hint out."""

    thinking: bool
    version: int
    game: int


TableHint = ShownHint | Thinking


# --------------------------------------------------------------------------- the view model
# What the table template renders, as a tree of frozen dataclasses: the
# template only lays them out. Built per viewer from that seat's engine view.


class Drawn:
    """A base of the template's dataclasses: `obj[name]` is `obj.name`.
    Django's templates try a lookup by key first, and on an object without
    `__getitem__` it fails with an exception before they try the attribute;
    a table frame makes some four hundred such lookups."""

    __slots__ = ()

    def __getitem__(self, name: str) -> object:
        return getattr(self, name)


@dataclass(frozen=True, slots=True)
class Face(Drawn):
    """A face-up card: its code, name (in the reader's language) and picture."""

    code: str
    name: str
    html: str
    index: str  # what its corner shows, rank and suit: "Q♦"


@dataclass(frozen=True, slots=True)
class HandCard(Drawn):
    """One of the viewer's cards: clickable (`action`), refused (`refused`,
    the engine's reason) or only shown."""

    face: Face
    action: str | None = None
    label: str = ""  # the button's accessible name: its corner first, then what it does
    refused: str = ""


@dataclass(frozen=True, slots=True)
class Button(Drawn):
    label: str
    action: str
    style: str = ""


@dataclass(frozen=True, slots=True)
class Plate(Drawn):
    """A seat on the felt: its player, score, role badges and cards."""

    position: int
    name: str
    where: str  # "bottom" (the viewer, or seat 1 for a spectator), "left", "right"
    relative: str  # "on your left", said for screen readers
    is_you: bool
    is_bot: bool
    score: int
    dealer: bool
    maker: bool
    alone: bool
    with_dummy: bool
    sitting_out: bool
    to_act: bool
    takes_trick: bool
    cards_left: int
    tricks: int

    @property
    def backs(self) -> range:
        return range(self.cards_left)

    @property
    def name_size(self) -> str:
        """A long name is drawn smaller (and on up to three lines) rather than cut."""
        n = len(self.name) + (6 if self.is_you else 0)
        return "" if n <= 14 else "long" if n <= 22 else "longer"

    @property
    def trick_stack(self) -> range:
        return range(self.tricks)

    @property
    def html(self) -> SafeString:
        """games/_plate.jinja for this plate (games.felt): it shows the
        plate's fields alone, so it is rendered once per plate and language
        (three on every frame, and most are as they were a move before)."""
        return _plate_html(self, get_language())


@functools.lru_cache(maxsize=4096)
def _plate_html(plate: Plate, language: str | None) -> SafeString:
    return felt.plate(plate, CARD_BACK)


@dataclass(frozen=True, slots=True)
class TrickCard(Drawn):
    seat: int
    where: str
    player: str
    face: Face
    won: bool


@dataclass(frozen=True, slots=True)
class Trick(Drawn):
    """The cards in the middle, each in front of its player; once complete
    (until the next lead) its winner, named in words."""

    cards: tuple[TrickCard, ...]
    winner_where: str | None = None
    winner_note: str = ""

    def at(self, where: str) -> TrickCard | None:
        return next((c for c in self.cards if c.where == where), None)

    @property
    def left(self) -> TrickCard | None:
        return self.at("left")

    @property
    def right(self) -> TrickCard | None:
        return self.at("right")

    @property
    def bottom(self) -> TrickCard | None:
        return self.at("bottom")


@dataclass(frozen=True, slots=True)
class Pile(Drawn):
    """A labelled pile of face-down cards in the centre (the dummy, the kitty)."""

    label: str
    count: int
    note: str = ""

    @property
    def backs(self) -> range:
        return range(min(self.count, 5))


@dataclass(frozen=True, slots=True)
class Centre(Drawn):
    up_card: Face | None
    up_label: str
    turned_down: Face | None
    banned_suit: str | None
    dummy: Pile
    kitty: Pile
    trump: str | None  # the suit's code
    trump_name: str | None
    trump_symbol: str
    maker_name: str | None


@dataclass(frozen=True, slots=True)
class ResultRow(Drawn):
    position: int
    name: str
    tricks: int
    points: int
    score: int
    maker: bool
    alone: bool
    is_you: bool


@dataclass(frozen=True, slots=True)
class HandResult(Drawn):
    """The end of a hand, on the felt: who made what, how it went, the points."""

    number: int
    heading: str
    how: str  # "with the dummy" / "alone" / "" (thrown in)
    outcome: str  # "march", "euchred" or ""
    thrown_in: bool
    rows: tuple[ResultRow, ...]
    last_trick: tuple[TrickCard, ...]  # the hand's fifth trick, and who took it
    last_trick_note: str
    fresh: bool  # the next hand has not started: nobody has bid yet


@dataclass(frozen=True, slots=True)
class Standing(Drawn):
    position: int
    name: str
    score: int
    is_you: bool
    winner: bool


@dataclass(frozen=True, slots=True)
class GameOver(Drawn):
    you_won: bool
    winner_name: str | None
    standings: tuple[Standing, ...]
    just_over: bool  # its ratings may still be on their way (the statistics task)


@dataclass(frozen=True, slots=True)
class PadCell(Drawn):
    tricks: int
    points: int
    score: int


@dataclass(frozen=True, slots=True)
class PadRow(Drawn):
    number: int
    dealer: str
    maker: str | None
    trump: str | None
    trump_symbol: str | None
    alone: bool
    outcome: str
    cells: tuple[PadCell, ...]


@dataclass(frozen=True, slots=True)
class SummaryRow(Drawn):
    name: str
    tricks: int
    points: int
    cards: tuple[Face, ...]
    # The cards the seat played to the hand's tricks, in order: public.
    played: tuple[Face, ...] = ()


@dataclass(frozen=True, slots=True)
class HandSummary(Drawn):
    """The previous hand's details (beside the felt): the whole deal for its
    three players; for a spectator (`public`) only its public history: no
    dealt hand, dummy, kitty or discard (RULES.md "What each player may
    see"), each row's `cards` empty and its `played` cards shown instead."""

    number: int
    heading: str
    rows: tuple[SummaryRow, ...]
    dummy: tuple[Face, ...]
    kitty: tuple[Face, ...]
    discards: tuple[Face, ...]
    dealer: str
    public: bool = False
    # A daily deal's (`seen`): its player sees the hand as they saw it during
    # play until the day is over: the played cards (`public`), the up card,
    # and the dummy and discards only if they were theirs (`dummy`,
    # `discards`; `kitty` holds the up card alone).
    seen: bool = False


@dataclass(frozen=True, slots=True)
class LastTrick(Drawn):
    winner: str
    cards: tuple[TrickCard, ...]


@dataclass(frozen=True, slots=True)
class News(Drawn):
    moves: tuple[tuple[str, tuple[str, ...]], ...]
    now: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableView(Drawn):
    """One viewer's table during (or after) a game."""

    game_id: int
    version: int
    moved_at: int | str
    hand_number: int
    hand_limit: int | None
    target_text: str
    live: bool
    plates: tuple[Plate, ...]  # bottom, left, right
    you: int | None
    your_turn: bool
    phase: str | None
    phase_text: str
    to_act_name: str | None
    deadline: datetime.datetime | None
    auto_note: str
    # To a person back at their seat: what the stand-in bot did meanwhile.
    stood_in: str
    hand: tuple[HandCard, ...]
    hand_mode: str  # "play", "discard" (the dealer's pick-up), "keep" (five of ten) or "show"
    refused_text: str
    refused_rule: str | None
    buttons: tuple[Button, ...]
    centre: Centre
    trick: Trick
    result: HandResult | None
    over: GameOver | None
    hands_played: int  # the finished hands (the score pad's rows)
    score_pad_html: str
    last_trick_html: str
    last_hand_html: str
    news: News
    my_seat_bot: bool
    dummy_cards: tuple[Face, ...]
    my_discards: tuple[Face, ...]

    def plate(self, where: str) -> Plate:
        return next(p for p in self.plates if p.where == where)

    @property
    def bottom(self) -> Plate:
        return self.plate("bottom")

    @property
    def left(self) -> Plate:
        return self.plate("left")

    @property
    def right(self) -> Plate:
        return self.plate("right")

    @property
    def me(self) -> Plate | None:
        return self.bottom if self.you is not None else None

    @property
    def hand_size(self) -> int:
        return len(self.hand)


@dataclass(frozen=True, slots=True)
class SeatRow(Drawn):
    """A seat before the game: who sits there (`seat` is the row, for its forms)."""

    position: int
    name: str
    seat: Seat


class Seated(Protocol):
    """What a plate shows of a seat (a Seat, or the tutorial's stand-ins)."""

    @property
    def display_name(self) -> str: ...

    @property
    def is_bot(self) -> bool: ...


def face(code: str) -> Face:
    """The card as the active language shows it (a frozen Face: made once per
    card and language, as a table shows dozens of cards to every viewer)."""
    return _face(code, get_language())


@functools.lru_cache(maxsize=512)
def _face(code: str, language: str | None) -> Face:
    return Face(code, words.card_label(code), _card_html(code, language), _index(code))


def _index(code: str) -> str:
    if code == "JK":
        return "★"
    return words.rank_corner(code[0]) + SUIT_SYMBOLS[code[1]]


def _card_button_label(verb: str, card: Face) -> str:
    """What a clickable card does, its visible corner first ("Q♦ Queen of
    diamonds: play"), so that its accessible name starts with what one sees."""
    if verb == "discard":
        # Translators: a card button's label when the dealer picks up the up card: the clicked card is put face down in exchange. %(index)s is what the card's corner shows ("Q♦"), %(card)s its name ("Queen of diamonds"); keep %(index)s first.
        text = pgettext("card button", "%(index)s %(card)s: discard it and pick up")
    else:
        # Translators: a card button's label: play this card. %(index)s is what the card's corner shows ("Q♦"), %(card)s its name ("Queen of diamonds"); keep %(index)s first.
        text = pgettext("card button", "%(index)s %(card)s: play")
    return text % {"index": card.index, "card": card.name}


def _card(code: str, action: Mapping[str, object] | None = None, verb: str = "play") -> HandCard:
    f = face(code)
    if action is None:
        return HandCard(f, label=f.name)
    return HandCard(f, _posted(action), _card_button_label(verb, f))


def _button(label: str, action: Mapping[str, object], style: str = "") -> Button:
    return Button(label, _posted(action), style)


def _call(view: GameView, seat: int | None) -> str:
    """The first-round call of `seat` in this hand ("order", "assist",
    "accept"): the view's `call` for its own seat, else the engine's."""
    if seat is not None and seat == view["seat"] and view["call"]:
        return view["call"]
    return engine.call_code(view["dealer"] or 0, seat or 0)


def _buttons(view: GameView) -> tuple[Button, ...]:
    """Labels for the non-card legal actions, named for the seat's position
    (words.button_label: the hints name the moves the same way)."""
    out = []
    phase = view["phase"]
    styles = {"pass": "secondary", "leave": "secondary", "alone": "danger"}
    for a in view["legal_actions"]:
        t = a["type"]
        if t == "dummy" and phase != "maker_choice":
            continue  # the keep-five: chosen by clicking cards
        label = words.button_label(a, phase, view["dealer"] or 0, view["up_suit"])
        if label:
            out.append(_button(label, a, styles.get(t, "")))
    return tuple(out)


def _hand(view: GameView) -> tuple[tuple[HandCard, ...], str]:
    """The viewer's cards as the phase asks: to play (those the engine
    refuses carry its reason), to discard one of six, to keep five of ten, or
    only to look at."""
    legal = view["legal_actions"]
    picks = [a for a in legal if a["type"] == "pickup"]
    if picks:
        return tuple(_card(a["discard"], a, verb="discard") for a in picks), "discard"
    if view["exchange"]:
        return tuple(_card(c) for c in view["exchange"]), "keep"
    plays = {a["card"]: a for a in legal if a["type"] == "play"}
    refused = {r["card"]: messages.card_refusal(r) for r in view["refused"]}
    cards = []
    for code in view["hand"] or []:
        if code in plays:
            cards.append(_card(code, plays[code]))
        else:
            f = face(code)
            cards.append(HandCard(f, label=f.name, refused=refused.get(code, "")))
    return tuple(cards), "play" if plays else "show"


def _refused_text(view: GameView) -> tuple[str, str | None]:
    """Why some of the viewer's cards may not be played now, said once, with
    its rule: only when the engine refuses some card."""
    if not view["refused"]:
        return "", None
    first = view["refused"][0]
    return messages.card_refusal(first), messages.RULE_ANCHORS.get(first["code"])


def _trick(view: GameView, names: dict[int, str], where: dict[int, str]) -> Trick:
    """The cards in the middle, each in front of the player who played it:
    the trick under way, or, until the next card is led, the trick just won
    (its winner named). A hand's last trick is told by its result instead."""
    cards, winner = view["current_trick"], None
    if not cards and view["phase"] == "play" and view["tricks"]:
        last = view["tricks"][-1]
        cards, winner = last["cards"], last["winner"]
    played = tuple(_trick_cards(cards, winner, names, where))
    if winner is None:
        return Trick(played)
    return Trick(played, where[winner], narration.trick_won(names[winner]))


def _trick_cards(
    cards: list[SeatCard], winner: int | None, names: dict[int, str], where: dict[int, str]
) -> list[TrickCard]:
    return [TrickCard(s, where[s], names[s], face(c), s == winner) for s, c in cards]


def _plates(
    view: GameView,
    seats: Mapping[int, Seated],
    order: list[int],
    trick: Trick,
    where: dict[int, str],
) -> tuple[Plate, ...]:
    me = view["seat"]
    alone = view["alone"]
    maker = view["maker"]
    with_dummy = view["outcome"]["maker_play"] == MakerPlay.DUMMY
    rows = []
    for pos in order:
        s = seats[pos]
        rows.append(
            Plate(
                position=pos,
                name=s.display_name,
                where=where[pos],
                relative=words.relative_seat(pos, me),
                is_you=pos == me,
                is_bot=s.is_bot,
                score=view["scores"][pos],
                dealer=pos == view["dealer"],
                maker=pos == maker,
                alone=pos in alone,
                with_dummy=with_dummy and pos == maker,
                sitting_out=pos == view["sitting_out"],
                to_act=pos == view["to_act"],
                takes_trick=trick.winner_where == where[pos],
                cards_left=view["hand_counts"][pos],
                tricks=view["tricks_won"][pos],
            )
        )
    return tuple(rows)


def _centre(view: GameView, names: dict[int, str]) -> Centre:
    in_play = view["phase"] not in (None, "over")
    maker = view["maker"]
    maker_name = names.get(maker) if maker is not None else None
    unused_dummy = view["outcome"]["maker_play"] != MakerPlay.DUMMY
    dummy = Pile(
        # Translators: the label of the dummy's place on the table: a fourth hand of five cards dealt face down that the maker may take.
        str(pgettext("game term", "Dummy")),
        5 if in_play and unused_dummy else 0,
        _dummy_text(view, maker_name),
    )
    # Translators: the label of the kitty's place on the table: the cards left over after the deal, face down (the up card is turned from it).
    kitty = Pile(str(pgettext("game term", "Kitty")), view["kitty_size"] if in_play else 0)
    up = face(view["up_card"]) if view["up_card"] else None
    # Translators: above the up card (the card turned face up after the deal) once the dealer has picked it up.
    taken = _("Dealer took")
    up_label = taken if view["up_card_taken"] else str(pgettext("game term", "Up card"))
    trump = view["trump"]
    return Centre(
        up_card=up,
        up_label=up_label,
        turned_down=face(view["turned_down"]) if view["turned_down"] else None,
        banned_suit=words.suit_name(view["banned_suit"]) if view["banned_suit"] else None,
        dummy=dummy,
        kitty=kitty,
        trump=trump,
        trump_name=words.suit_name(trump) if trump else None,
        trump_symbol=SUIT_SYMBOLS.get(trump or "", ""),
        maker_name=maker_name,
    )


def _result(
    view: GameView, names: dict[int, str], me: int | None, where: dict[int, str]
) -> HandResult | None:
    """The hand just over, for the felt: shown from the end of a hand until
    the next one's first bid (the page may keep it longer: static/js/table.js)."""
    last = view["last_hand"]
    if not last or view["over"]:
        return None
    res = last["result"]
    trick = last["last_trick"]
    number = view["hand_number"] - 1
    maker = res["maker"]
    outcome = last["outcome"]
    thrown = outcome["outcome"] == Outcome.THROWN_IN
    alone = set(res["alone"])
    if thrown:
        how = ""
    elif outcome["maker_play"] == MakerPlay.ALONE:
        how = str(pgettext("table role", "Alone"))
    else:
        # Translators: at a hand's result: the maker played with the dummy (the fourth hand dealt face down), not alone.
        how = pgettext("hand result", "with the dummy")
    rows = tuple(
        ResultRow(
            position=s,
            name=names[s],
            tricks=res["tricks"][s],
            points=res["points"][s],
            score=view["scores"][s],
            maker=s == maker,
            alone=s in alone,
            is_you=s == me,
        )
        for s in range(3)
    )
    return HandResult(
        number=number,
        heading=_hand_heading(number, res, outcome, names),
        how=how,
        outcome=words.hand_outcome(outcome["outcome"]),
        thrown_in=thrown,
        rows=rows,
        last_trick=tuple(_trick_cards(trick["cards"], trick["winner"], names, where))
        if trick
        else (),
        last_trick_note=narration.trick_won(names[trick["winner"]]) if trick else "",
        fresh=not view["history"],
    )


RATINGS_AWAITED = datetime.timedelta(seconds=60)


def _game_over(
    view: GameView, names: dict[int, str], me: int | None, finished: datetime.datetime | None
) -> GameOver | None:
    if not view["over"]:
        return None
    winner = view["winner"]
    standings = sorted(range(3), key=lambda s: (-view["scores"][s], s))
    return GameOver(
        you_won=winner is not None and winner == me,
        winner_name=names.get(winner) if winner is not None else None,
        standings=tuple(
            Standing(s, names[s], view["scores"][s], s == me, s == winner) for s in standings
        ),
        just_over=finished is not None and timezone.now() - finished < RATINGS_AWAITED,
    )


def _score_pad(view: GameView, names: dict[int, str], order: list[int]) -> tuple[PadRow, ...]:
    """Every finished hand of the game: dealer, maker and trump, and for each
    seat (in `order`, the table's) its tricks, points and score after it."""
    rows, running = [], [0, 0, 0]
    for n, h in enumerate(view["score_pad"], start=1):
        res = h["result"]
        running = [a + b for a, b in zip(running, res["points"], strict=True)]
        maker = res["maker"]
        rows.append(
            PadRow(
                number=n,
                dealer=names[h["dealer"]],
                maker=names[maker] if maker is not None else None,
                trump=words.suit_name(res["trump"]) if res["trump"] else None,
                trump_symbol=SUIT_SYMBOLS.get(res["trump"] or ""),
                alone=h["outcome"]["maker_play"] == MakerPlay.ALONE,
                outcome=words.hand_outcome(h["outcome"]["outcome"]),
                cells=tuple(PadCell(res["tricks"][p], res["points"][p], running[p]) for p in order),
            )
        )
    return tuple(rows)


def _score_pad_html(game: Game, view: GameView, names: dict[int, str], order: list[int]) -> str:
    """The score pad's panel: what it shows is the game's finished hands (the
    game and how many: a finished hand never changes) and the players'
    names in the viewer's order, so it is rendered once for them (a frame
    rendered it anew after every move, and it grows by a row a hand). Its
    rows are worked out only then."""
    if not view["score_pad"]:
        return ""
    in_order = tuple(names[p] for p in order)
    key = (game.pk, game.created, len(view["score_pad"]), tuple(order), in_order)
    return fragment(
        "score_pad",
        key,
        lambda: {"pad_rows": _score_pad(view, names, order), "pad_names": in_order},
    )


def _target_text(view: GameView) -> str:
    if view["hand_limit"]:
        # Translators: under the scores of a game of a fixed number of hands (the daily deal: five): the number of the hand being played, and how many there are.
        return _("Hand %(hand)s of %(limit)s") % {
            "hand": view["hand_number"],
            "limit": view["hand_limit"],
        }
    # Translators: under the scores: the score that wins the game, and the number of the hand being played.
    return _("First to %(target)s · hand %(hand)s") % {
        "target": view["target"],
        "hand": view["hand_number"],
    }


NEWS_KEPT = 8  # moves each table carries for the announcements


def _hand_news(
    number: int,
    history: list[ActionDict],
    tricks: list[TrickDict],
    dealer: int,
    names: dict[int, str],
    result: EngineHandResult | None,
    outcome: HandOutcome | None,
) -> list[tuple[str, tuple[str, ...]]]:
    """Each move of hand `number` in words, keyed "hand-step": the move, the
    trick it won, and for the last of a finished hand, how the hand went."""
    ends, played, out = [], 0, []
    for trick in tricks:
        played += len(trick["cards"])
        ends.append((played, trick["winner"]))
    plays, first = 0, len(history) - NEWS_KEPT  # only the moves a table carries are told
    language, names_key = get_language(), tuple(names.items())
    for step, action in enumerate(history):
        plays += action["type"] == "play"
        if step < first:
            continue
        won = tuple(names[w] for n, w in ends if n == plays) if action["type"] == "play" else ()
        move = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in action.items())
        out.append((f"{number}-{step}", _move_lines(language, move, names_key, dealer, won)))
    if result is not None and outcome is not None:
        out.append((f"{number}-end", (_hand_heading(number, result, outcome, names),)))
    return out


@functools.lru_cache(maxsize=4096)
def _move_lines(
    language: str | None,
    move: tuple[tuple[str, object], ...],
    names: tuple[tuple[int, str], ...],
    dealer: int,
    won: tuple[str, ...],
) -> tuple[str, ...]:
    """One move in words, then who won the trick it ended (`won`), in
    `language` (the active one): told again to every viewer after every move
    while the table carries it, so kept."""
    said = narration.describe(dict(move), dict(names), dealer)
    return (said, *(narration.trick_won(name) for name in won))


def _news(view: GameView, names: dict[int, str], phase_text: str, your_turn: bool) -> News:
    """What happened lately and whose turn it is, in words, for the table's
    screen-reader announcements: the last moves (as this viewer may see
    them), each keyed so that a page says only those it has not said yet,
    even when it missed a table in between; then what comes next."""
    moves: list[tuple[str, tuple[str, ...]]] = []
    last, number = view["last_hand"], view["hand_number"]
    if last and not view["over"]:
        moves += _hand_news(
            number - 1,
            last["history"],
            last["tricks"],
            last["dealer"],
            names,
            last["result"],
            last["outcome"],
        )
    moves += _hand_news(
        number,
        view["history"],
        view["tricks"],
        view["dealer"] or 0,
        names,
        last["result"] if view["over"] and last else None,
        last["outcome"] if view["over"] and last else None,
    )
    now = [_("Your turn.")] if your_turn else []
    if phase_text:
        now.append(phase_text)
    return News(tuple(moves[-NEWS_KEPT:]), tuple(now))


class TableContext(TypedDict, total=False):
    """What games/table.html#table renders: `table_context`'s keys, and the
    ones games.frames.render_table adds (message to csrf_token)."""

    table: Table
    game: Game | None
    user: User | AnonymousUser | None
    urls: dict[str, str]
    header_html: str
    is_owner: bool
    invite_url: str
    card_back: SafeString
    seats: tuple[SeatRow, ...]
    my_seat_taken: bool
    t: TableView
    message: str
    rule: str | None
    hint: TableHint | None
    oob: bool
    csrf_token: str
    felt_html: SafeString  # the table in play (games.felt), when `t`


def table_context(
    game: Game | None,
    table: Table,
    seats: list[Seat],
    view: GameView | None,
    hand: Hand | None,
    user: User | AnonymousUser | None = None,
    state: engine.GameState | None = None,
) -> TableContext:
    """What the table partial renders for one viewer: the table, its game,
    its form targets, and `t`, the view model (a `TableView` during and
    after the game; the seats and this user's controls before it). `seats`
    are the table's, loaded by the caller (games.frames)."""
    user_id = getattr(user, "pk", None)
    ctx: TableContext = {
        "table": table,
        "game": game,
        "user": user,
        "urls": table_urls(table, game),
        "header_html": _table_head(table, game),
        "is_owner": user_id is not None and table.owner_id == user_id,
        "card_back": CARD_BACK,
    }
    if game is None or view is None:
        # A path: the page shows it whole on its own address (static/js/site.js).
        ctx["invite_url"] = table.invite_url()
        ctx["seats"] = tuple(SeatRow(s.position, s.display_name, s) for s in seats)
        ctx["my_seat_taken"] = any(s.user_id == user_id for s in seats if user_id is not None)
        return ctx
    ctx["t"] = table_view(game, table, view, hand, {s.position: s for s in seats}, state)
    return ctx


def table_view(
    game: Game,
    table: Table,
    view: GameView,
    hand: Hand | None,
    seats: dict[int, Seat],
    state: engine.GameState | None = None,
) -> TableView:
    """One viewer's table during or after the game."""
    if game.status == Game.Status.FINISHED:
        view = _stopped(view)
    me = view["seat"]
    bottom = me if me is not None else 0
    order = [bottom, (bottom + 1) % 3, (bottom + 2) % 3]  # you, your left, your right
    where = {order[0]: "bottom", order[1]: "left", order[2]: "right"}
    names = {p: s.display_name for p, s in seats.items()}
    names_key = tuple(names.items())
    trick = _trick(view, names, where)
    your_turn = me is not None and view["to_act"] == me
    phase_text = _phase_text(view, names)
    hand_cards, hand_mode = _hand(view)
    refused_text, refused_rule = _refused_text(view)
    last = view["tricks"][-1] if view["tricks"] else None
    last_trick_html = ""
    if last:
        last_trick = LastTrick(
            names[last["winner"]],
            tuple(
                TrickCard(s, where[s], names[s], face(c), s == last["winner"])
                for s, c in last["cards"]
            ),
        )
        last_trick_html = fragment(
            "last_trick", (repr(last), names_key), lambda: {"last_trick": last_trick}
        )
    last_hand_html = ""
    if view["last_hand"]:
        seen = table.daily_date is not None
        # A finished hand never changes: the game and the hand's number say
        # what it shows. A spectator's summary differs from the players' of
        # the same hand, and a daily deal's from one seat to another.
        ended = view["over"] or view["phase"] == "over"
        last_hand_html = fragment(
            "hand_summary",
            (game.pk, game.created, view["hand_number"], ended, names_key, seen, me),
            lambda: {
                "last_hand": _hand_summary(
                    view["last_hand"], names, view["hand_number"], view, seen=seen
                )
            },
        )
    moved_at = int(game.last_move_at.timestamp() * 1000) if game.last_move_at else ""
    return TableView(
        game_id=game.pk,
        version=game.version,
        moved_at=moved_at,
        hand_number=view["hand_number"],
        hand_limit=view["hand_limit"],
        target_text=_target_text(view),
        live=table.mode == Table.Mode.LIVE,
        plates=_plates(view, seats, order, trick, where),
        you=me,
        your_turn=your_turn,
        phase=view["phase"],
        phase_text=phase_text,
        to_act_name=names.get(view["to_act"]) if view["to_act"] is not None else None,
        deadline=game.deadline if not view["over"] else None,
        auto_note=_auto_note(hand, names),
        stood_in=_stood_in(state, me, seats),
        hand=hand_cards,
        hand_mode=hand_mode,
        refused_text=refused_text,
        refused_rule=refused_rule,
        buttons=_buttons(view),
        centre=_centre(view, names),
        trick=trick,
        result=_result(view, names, me, where),
        over=_game_over(view, names, me, game.finished),
        hands_played=len(view["score_pad"]),
        score_pad_html=_score_pad_html(game, view, names, order),
        last_trick_html=last_trick_html,
        last_hand_html=last_hand_html,
        news=_news(view, names, phase_text, your_turn),
        my_seat_bot=bool(me is not None and seats[me].is_bot),
        dummy_cards=tuple(face(c) for c in view["dummy"] or []),
        my_discards=tuple(face(c) for c in view["my_discards"]),
    )


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


def _stood_in(state: engine.GameState | None, me: int | None, seats: dict[int, Seat]) -> str:
    """To a person back at their seat (not away, not handed over): what the
    stand-in bot did for them since their own last move."""
    seat = seats.get(me) if me is not None else None
    if state is None or seat is None or seat.user_id is None or seat.away:
        return ""
    if seat.timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER:
        return ""
    return narration.stood_in(state.hands, seat.position)


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
    if view["outcome"]["maker_play"] == MakerPlay.ALONE:
        # Translators: next to the label "Dummy": nobody takes the dummy because the maker (%(name)s) plays alone.
        return pgettext("the dummy", "unused: %(name)s went alone") % {"name": maker}
    if view["outcome"]["maker_play"] == MakerPlay.DUMMY:
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
        if call == Call.ASSIST:
            # Translators: the first round of bidding: the reader may "assist" (make the up card's suit trump, see the button "Assist") or pass.
            return _("First round: assist or pass.")
        if call == Call.ACCEPT:
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
        # Translators: the maker chose the dummy or to go alone; the reader, a defender, may now defend alone (the other defender sits out; it scores more only if the lone defender takes all five tricks) or play with the other defender.
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
        if call == Call.ASSIST:
            # Translators: the first round of bidding: %(name)s may "assist" (make the up card's suit trump) or pass.
            return _("First round of bidding: %(name)s to assist or pass.") % name
        if call == Call.ACCEPT:
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
        # Translators: the maker chose the dummy or to go alone; %(name)s, a defender, may now defend alone (the other defender then sits out).
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
    last: LastHand | None,
    names: dict[int, str],
    hand_number: int,
    view: GameView,
    *,
    seen: bool = False,
) -> HandSummary | None:
    """The previous hand's details: maker, trump, tricks, points, and the
    whole deal for the hand's players. A spectator (the view of no seat) sees
    the hand only as its public history: the cards each seat played, never
    a dealt hand, the dummy, the kitty or a discard (the engine's view of a
    finished hand shows its deal to everyone, so it is left out here).
    With `seen` (a daily deal, whose five deals everyone plays the same day)
    the player sees only what they saw during the hand (`_as_seen`)."""
    if not last:
        return None
    res = last["result"]
    public = view["seat"] is None or seen
    deal: engine.DealDict | SeenDeal = (
        _as_seen(last, view["seat"]) if seen else {} if public else (last["deal"] or {})
    )
    # The finished hand is the current one only at the end of the game.
    number = hand_number if view["over"] or view["phase"] == "over" else hand_number - 1
    hands = deal.get("hands") or [[], [], []]
    played: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for trick in last.get("tricks") or []:
        for s, c in trick["cards"]:
            played[s].append(c)
    return HandSummary(
        number=number,
        heading=_hand_heading(number, res, last["outcome"], names),
        rows=tuple(
            SummaryRow(
                names[s],
                res["tricks"][s],
                res["points"][s],
                tuple(face(c) for c in hands[s]),
                tuple(face(c) for c in played[s]),
            )
            for s in range(3)
        ),
        dummy=tuple(face(c) for c in deal.get("dummy") or []),
        kitty=tuple(face(c) for c in deal.get("kitty") or []),
        discards=tuple(face(c) for c in _flat(deal.get("discards"))),
        dealer=names[last["dealer"]],
        public=public,
        seen=seen and view["seat"] is not None,
    )


class SeenDeal(TypedDict, total=False):
    """The part of a finished hand's deal a seat saw (`_as_seen`); `hands`, never."""

    hands: list[list[str]]
    dummy: list[str] | None
    kitty: list[str]
    discards: list[list[str]]


def _as_seen(last: LastHand, seat: int | None) -> SeenDeal:
    """The part of a finished hand's deal `seat` saw while it was played
    (RULES.md "What each player may see"): the up card, and the dummy and
    discards only if they were this seat's. Nobody's hand: the played cards
    are public anyway, and the rest of the deal stays hidden."""
    deal = last["deal"] or {}
    if seat is None or not deal:
        return {}
    took_dummy = any(a.get("type") == "dummy" and a.get("seat") == seat for a in last["history"])
    discards = deal.get("discards") or [[], [], []]
    return {
        "kitty": (deal.get("kitty") or [])[:1],
        "dummy": deal.get("dummy") if took_dummy else [],
        "discards": [discards[seat]],
    }


def _hand_heading(
    number: int, res: EngineHandResult, outcome: HandOutcome, names: dict[int, str]
) -> str:
    """The summary's title: "Hand 3: alice made hearts (alice alone) — march"."""
    maker = res["maker"]
    if outcome["outcome"] == Outcome.THROWN_IN or maker is None:
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
    said = words.hand_outcome(outcome["outcome"])
    if said:
        # Translators: a hand summary's title, %(heading)s, followed by the maker's result ("euchred" or "march").
        heading = pgettext("hand summary", "%(heading)s — %(outcome)s") % {
            "heading": heading,
            "outcome": said,
        }
    return heading


def _flat(discards: list[list[str]] | None) -> list[str]:
    """The deal's discards are listed per seat; the summary shows them together."""
    return [c for per_seat in discards or [] for c in per_seat]
