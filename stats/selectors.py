"""Reads for the pages: what a viewer may see, and the stored figures laid
out for the templates (constant work, whatever the history's length)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypedDict, cast

from django.contrib.auth.models import AnonymousUser
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils.formats import number_format
from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from accounts.models import User
from games import access, words
from games.models import Game, Hand, Table

from . import charts
from .facts import BOT_ONLY, DAILY, GUEST, HINTS, LEFT, MOSTLY_BOT, rules_label
from .models import (
    SHOWN_MU,
    GameFact,
    GamesBlock,
    HandFact,
    PlayerStats,
    RatingEvent,
    StoredStats,
    shown_rating,
)


def _lazy_str(say: Callable[[str], str], key: str) -> Promise:
    """`say(key)`, worked out when the label is turned into text (in the
    language active then), not when this module is imported."""
    return cast(Promise, lazy(say, str)(key))


def _suit_label(code: str) -> str:
    # Translators: a suit as the start of a statistics figure's name ("Hearts ♥: calls"): %(suit)s is the suit's name ("hearts"), %(symbol)s its sign (♥). The first letter is made upper case.
    text = pgettext("suit in a figure's name", "%(suit)s %(symbol)s") % {
        "suit": words.suit_name(code),
        "symbol": words.SUIT_SYMBOLS[code],
    }
    return capfirst(text)


# The suits as the figures name them: "Hearts ♥" (lazy).
SUIT_LABELS: dict[str, Promise] = {code: _lazy_str(_suit_label, code) for code in words.SUIT_CODES}

# The seats counted from the dealer, as a heading ("Left of dealer") and
# within a figure's name ("Calls per hand: left of dealer").
POSITION_LABELS: dict[str, Promise] = {
    # Translators: a player's seat counted from the dealer, as a label of a chart bar: the first player to bid, on the dealer's left.
    "left": pgettext_lazy("seat relative to the dealer", "Left of dealer"),
    # Translators: a player's seat counted from the dealer, as a label of a chart bar: the second player to bid (on the dealer's right in a three-player game).
    "second": pgettext_lazy("seat relative to the dealer", "Second"),
    # Translators: a player's seat counted from the dealer, as a label of a chart bar: the dealer, who bids last.
    "dealer": pgettext_lazy("seat relative to the dealer", "Dealer"),
}
POSITION_NAMES: dict[str, Promise] = {
    # Translators: a player's seat counted from the dealer, ending a statistics figure's name, as in "Calls per hand: left of dealer" (the first player to bid).
    "left": pgettext_lazy("seat relative to the dealer, in a figure's name", "left of dealer"),
    # Translators: a player's seat counted from the dealer, ending a statistics figure's name, as in "Calls per hand: second" (the second player to bid).
    "second": pgettext_lazy("seat relative to the dealer, in a figure's name", "second"),
    # Translators: a player's seat counted from the dealer, ending a statistics figure's name, as in "Calls per hand: dealer" (the dealer, who bids last).
    "dealer": pgettext_lazy("seat relative to the dealer, in a figure's name", "dealer"),
}


def _calls_per_hand_at(position: str) -> str:
    # Translators: a statistics figure: how often the player became the maker (chose trump) per hand dealt, from one seat; %(position)s is the seat ("left of dealer", "second", "dealer").
    return _("Calls per hand: %(position)s") % {"position": POSITION_NAMES[position]}


def _make_pct_at(position: str) -> str:
    # Translators: a statistics figure: the share (in per cent) of the player's calls as maker that made (took at least three tricks), from one seat; %(position)s is the seat ("left of dealer", "second", "dealer").
    return _("Make %%: %(position)s") % {"position": POSITION_NAMES[position]}


def _suit_calls(code: str) -> str:
    # Translators: a statistics figure: how often the player chose this suit as trump (as maker); %(suit)s is the suit with its sign ("Hearts ♥").
    return _("%(suit)s: calls") % {"suit": SUIT_LABELS[code]}


def _suit_make_pct(code: str) -> str:
    # Translators: a statistics figure: the share (in per cent) of the player's calls of this suit as trump that made (took at least three tricks); %(suit)s is the suit with its sign ("Hearts ♥").
    return _("%(suit)s: make %%") % {"suit": SUIT_LABELS[code]}


# (label, path in the figures, kind): kind "n" a count, "pct" a percentage, "x" a ratio.
# The labels are lazy: translated when a page shows them.
ROWS: list[tuple[Promise, list[tuple[Promise, str, str]]]] = [
    (
        # Translators: a heading of the statistics page: figures about whole games.
        pgettext_lazy("statistics section", "Games"),
        [
            # Translators: a statistics figure: how many games the player finished.
            (gettext_lazy("Games played"), "games.played", "n"),
            # Translators: a statistics figure: how many games the player won.
            (gettext_lazy("Games won"), "games.won", "n"),
            # Translators: a statistics figure: the share of games won, in per cent.
            (gettext_lazy("Win %"), "games.win_pct", "pct"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: figures about the hands (deals) played.
        pgettext_lazy("statistics section", "Hands"),
        [
            # Translators: a statistics figure: how many hands (deals) the player finished.
            (gettext_lazy("Hands played"), "hands", "n"),
            # Translators: a statistics figure: how many points the player scored in all.
            (pgettext_lazy("statistics figure", "Points"), "points", "n"),
            # Translators: a statistics figure: points scored divided by hands played.
            (gettext_lazy("Points per hand"), "points_per_hand", "x"),
            # Translators: a statistics figure: hands nobody chose trump in, so they were not played (thrown in).
            (pgettext_lazy("statistics figure", "Thrown in"), "thrown_in", "n"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: figures about the hands where the player was the maker (the player who chose trump and plays against the other two).
        pgettext_lazy("statistics section", "As maker"),
        [
            # Translators: a statistics figure: how many times the player became the maker (chose trump).
            (pgettext_lazy("statistics figure", "Calls"), "maker.calls", "n"),
            # Translators: a statistics figure: how many times the player became the maker (chose trump), per hand dealt.
            (gettext_lazy("Calls per hand"), "maker.calls_per_hand", "x"),
            # Translators: a statistics figure: calls as maker in the first round of bidding (taking the up card's suit as trump).
            (gettext_lazy("Called in the first round"), "maker.round1", "n"),
            # Translators: a statistics figure: calls as maker in the second round of bidding (naming another suit as trump).
            (gettext_lazy("Called in the second round"), "maker.round2", "n"),
            *[
                (_lazy_str(_calls_per_hand_at, k), f"maker.by_position.{k}.calls_per_hand", "x")
                for k in POSITION_LABELS
            ],
            *[
                (_lazy_str(_make_pct_at, k), f"maker.by_position.{k}.make_pct", "pct")
                for k in POSITION_LABELS
            ],
            # Translators: a statistics figure: calls as maker that made (the maker took at least three tricks).
            (pgettext_lazy("statistics figure", "Made"), "maker.made", "n"),
            # Translators: a statistics figure: the share (in per cent) of calls as maker that made (took at least three tricks).
            (gettext_lazy("Make %"), "maker.make_pct", "pct"),
            # Translators: a statistics figure: marches, the maker's hands that took all five tricks (a march scores more).
            (pgettext_lazy("statistics figure", "Marches"), "maker.marches", "n"),
            # Translators: a statistics figure: calls as maker that were euchred (the maker took fewer than three tricks, so the defenders scored).
            (pgettext_lazy("statistics figure", "Euchred"), "maker.euchred", "n"),
            # Translators: a statistics figure: the share (in per cent) of calls as maker that were euchred (took fewer than three tricks).
            (gettext_lazy("Euchred %"), "maker.euchred_pct", "pct"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: calls as maker where the maker took the dummy (a fourth hand of five cards dealt face down that the maker may take, then keeps five of the ten cards).
        pgettext_lazy("statistics section", "With the dummy"),
        [
            # Translators: a statistics figure: calls as maker where the maker took the dummy (the extra hand dealt face down).
            (gettext_lazy("Calls with the dummy"), "maker.dummy.calls", "n"),
            (gettext_lazy("Make %"), "maker.dummy.make_pct", "pct"),
            (pgettext_lazy("statistics figure", "Marches"), "maker.dummy.marches", "n"),
            (gettext_lazy("Euchred %"), "maker.dummy.euchred_pct", "pct"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: calls where the maker played alone (without the dummy, against both other players).
        pgettext_lazy("statistics section", "Going alone"),
        [
            # Translators: a statistics figure: calls as maker where the maker went alone (played without the dummy).
            (gettext_lazy("Calls alone"), "maker.alone.calls", "n"),
            (pgettext_lazy("statistics figure", "Made"), "maker.alone.made", "n"),
            (gettext_lazy("Make %"), "maker.alone.make_pct", "pct"),
            (pgettext_lazy("statistics figure", "Marches"), "maker.alone.marches", "n"),
            (gettext_lazy("Euchred %"), "maker.alone.euchred_pct", "pct"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: figures about the hands where the player defended (played against the maker, who chose trump).
        pgettext_lazy("statistics section", "As defender"),
        [
            # Translators: a statistics figure: hands where the player was a defender (played against the maker).
            (gettext_lazy("Hands defended"), "defender.hands", "n"),
            # Translators: a statistics figure: hands where the player, as a defender, euchred the maker (the maker took fewer than three tricks).
            (gettext_lazy("Euchres achieved"), "defender.euchres", "n"),
            # Translators: a statistics figure: the share (in per cent) of defended hands where the maker was euchred (took fewer than three tricks).
            (gettext_lazy("Euchre %"), "defender.euchre_pct", "pct"),
            # Translators: a statistics figure: hands where the player defended alone against the maker (the other defender sat out).
            (gettext_lazy("Defended alone"), "defender.alone.attempts", "n"),
            # Translators: a statistics figure: hands defended alone (the other defender sat out) that the defender won (took at least three tricks).
            (gettext_lazy("Alone: defence won"), "defender.alone.won", "n"),
            # Translators: a statistics figure: the share (in per cent) of hands defended alone that the defender won.
            (gettext_lazy("Alone: won %"), "defender.alone.won_pct", "pct"),
            # Translators: a statistics figure: hands defended alone where the lone defender took all five tricks (a march).
            (gettext_lazy("Alone: all five tricks"), "defender.alone.marches", "n"),
        ],
    ),
    (
        # Translators: a heading of the statistics page: figures by the suit the player chose as trump (the suit that beats all others in the hand) when they were the maker.
        pgettext_lazy("statistics section", "Trump (as maker)"),
        [
            *[(_lazy_str(_suit_calls, s), f"trump.{s}.calls", "n") for s in SUIT_LABELS],
            *[(_lazy_str(_suit_make_pct, s), f"trump.{s}.make_pct", "pct") for s in SUIT_LABELS],
        ],
    ),
    (
        # Translators: a heading of the statistics page: the dealer's choice to pick up the up card (the card turned face up after the deal) when another player ordered it up (took its suit as trump in the first round).
        pgettext_lazy("statistics section", "The dealer's pick-up"),
        [
            # Translators: a statistics figure: hands the player dealt where another player ordered up the up card (took its suit as trump in the first round), so the dealer could pick it up.
            (gettext_lazy("Chances (another player ordered it up)"), "dealer.chances", "n"),
            # Translators: a statistics figure: how often the dealer picked up the up card when they could.
            (pgettext_lazy("statistics figure", "Picked up"), "dealer.pickups", "n"),
            # Translators: a statistics figure: the share (in per cent) of those chances where the dealer picked up the up card.
            (gettext_lazy("Pick-up %"), "dealer.pickup_pct", "pct"),
        ],
    ),
]
PUBLIC = {
    "games.played",
    "games.won",
    "games.win_pct",
    "hands",
    "points_per_hand",
    "maker.make_pct",
}


def dig(data: object, path: str) -> object:
    """The value at a dotted `path` of stored figures (None where there is none)."""
    for part in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def number(value: float) -> str:
    """A count or an average in the reader's language ("3", "1.5", "2.33333")."""
    if isinstance(value, bool) or not isinstance(value, float):
        return number_format(value)
    return charts.number(value)


def percent(value: float, decimals: int = 1) -> str:
    """A percentage in the reader's language: "50.0%"."""
    # Translators: a percentage, %(value)s being the number ("50.0"): write the per cent sign where your language puts it (with a space before it if it needs one).
    return pgettext("percentage", "%(value)s%%") % {"value": number_format(value, decimals)}


def fmt(value: object, kind: str) -> str:
    """A stored figure (dig) in the reader's language; a dash for none."""
    if value is None:
        return "–"
    if not isinstance(value, (int, float)):
        raise TypeError(f"a figure is a number, not {type(value).__name__}")
    if kind == "pct":
        return percent(value)
    if kind == "x":
        return number_format(value, 2)
    return number(value)


class FigureRow(TypedDict):
    label: Promise
    path: str
    lifetime: str
    recent: str
    avg_lifetime: str
    avg_recent: str


class FigureSection(TypedDict):
    title: Promise
    rows: list[FigureRow]


def figure_sections(mine: StoredStats, avg: StoredStats, *, full: bool) -> list[FigureSection]:
    """The stored figures as table rows: mine and the average, lifetime and 30 days."""
    out: list[FigureSection] = []
    for title, rows in ROWS:
        lines: list[FigureRow] = []
        for label, path, kind in rows:
            if not full and path not in PUBLIC:
                continue
            lines.append(
                {
                    "label": label,
                    "path": path,
                    "lifetime": fmt(dig(mine.get("lifetime"), path), kind),
                    "recent": fmt(dig(mine.get("recent"), path), kind),
                    "avg_lifetime": fmt(dig(avg.get("lifetime"), path), kind),
                    "avg_recent": fmt(dig(avg.get("recent"), path), kind),
                }
            )
        if lines:
            out.append({"title": title, "rows": lines})
    return out


def _win_pct(block: GamesBlock | None) -> str:
    return fmt(block.get("win_pct") if block else None, "pct")


def _played(block: GamesBlock | None) -> float:
    return block.get("played", 0) if block else 0


class BreakdownRow(TypedDict):
    label: str | Promise | None  # a Table.Mode label or rules_label's words
    played: float
    won: float
    win_pct: str
    avg_win_pct: str
    recent_played: float
    recent_win_pct: str
    avg_recent_win_pct: str


def breakdown(mine: StoredStats, avg: StoredStats, key: str) -> list[BreakdownRow]:
    """Games by mode or by rules, lifetime and the last 30 days, each beside
    the average player's win %."""

    def rows_of(data: StoredStats, scope: str) -> dict[str, GamesBlock]:
        # key is "by_mode" or "by_rules": GamesFigures' dict of GamesBlock
        return cast("dict[str, GamesBlock]", dig(data.get(scope), f"games.{key}") or {})

    rows, recent = rows_of(mine, "lifetime"), rows_of(mine, "recent")
    avg_rows, avg_recent = rows_of(avg, "lifetime"), rows_of(avg, "recent")
    label = (lambda k: dict(Table.Mode.choices).get(k, k)) if key == "by_mode" else rules_label
    return [
        {
            "label": label(k),
            "played": v["played"],
            "won": v["won"],
            "win_pct": fmt(v["win_pct"], "pct"),
            "avg_win_pct": _win_pct(avg_rows.get(k)),
            "recent_played": _played(recent.get(k)),
            "recent_win_pct": _win_pct(recent.get(k)),
            "avg_recent_win_pct": _win_pct(avg_recent.get(k)),
        }
        for k, v in rows.items()
    ]


def stats_of(user_id: int) -> StoredStats:
    row: StoredStats | None = (
        PlayerStats.objects.filter(key=f"user:{user_id}").values_list("data", flat=True).first()
    )
    return row or {}


def average() -> StoredStats:
    row: StoredStats | None = (
        PlayerStats.objects.filter(key="all").values_list("data", flat=True).first()
    )
    return row or {}


def visible_games(user: User | AnonymousUser) -> Q:
    """Games whose finished hands `user` may look at: the ones they played in
    (docs/rules.md: the whole deal is shown to the three players in the history)."""
    return Q(table__seats__user=user) if isinstance(user, User) else Q(pk__in=[])


def finished_hand_for(user: User | AnonymousUser, hand_id: int) -> Hand | None:
    """A finished hand the user played in; else None."""
    hand = (
        Hand.objects.select_related("game__table")
        .filter(pk=hand_id, result__isnull=False, result__complete=True)
        .first()
    )
    if hand is None:
        return None
    return hand if access.may_view_game_records(user, hand.game.table) else None


def game_for(user: User | AnonymousUser, game_id: int) -> Game | None:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    return game if access.may_view_game_records(user, game.table) else None


def history(user: User, filters: Mapping[str, object]) -> QuerySet[HandFact]:
    """The user's finished hands, newest first, filtered by the cleaned data
    of a stats.forms.HistoryFilterForm (booleans, and `game` an id or None)."""
    qs = HandFact.objects.filter(user=user).select_related("hand", "game__table")
    if filters.get("maker"):
        qs = qs.filter(maker=True)
    if filters.get("euchred"):
        qs = qs.filter(euchred=True)
    if filters.get("alone"):
        qs = qs.filter(Q(maker_alone=True) | Q(defended_alone=True))
    game = filters.get("game")
    if game is not None:
        if not isinstance(game, int) or isinstance(game, bool):
            raise TypeError("history(): the game filter is a game id (HistoryFilterForm cleans it)")
        qs = qs.filter(game_id=game)
    return qs.order_by("-finished", "-hand_id")


def history_facts(user: User, hand_ids: list[int]) -> list[HandFact]:
    """The user's facts of a page of the hand history, by hand, in the history's order."""
    rows = HandFact.objects.filter(user=user, hand_id__in=hand_ids).select_related(
        "hand", "game__table"
    )
    return sorted(rows, key=lambda f: (f.finished, f.hand_id), reverse=True)


def seat_names(game: Game) -> dict[int, str]:
    return {s.position: s.display_name for s in game.table.seats.select_related("user")}


# The suit of trump in the hand history, as one letter ("H"), with its name.
SUIT_INITIALS: dict[str, Promise] = {
    # Translators: the suit clubs (♣) abbreviated to one letter, in the trump column of the hand history.
    "C": pgettext_lazy("suit initial", "C"),
    # Translators: the suit diamonds (♦) abbreviated to one letter, in the trump column of the hand history.
    "D": pgettext_lazy("suit initial", "D"),
    # Translators: the suit hearts (♥) abbreviated to one letter, in the trump column of the hand history.
    "H": pgettext_lazy("suit initial", "H"),
    # Translators: the suit spades (♠) abbreviated to one letter, in the trump column of the hand history.
    "S": pgettext_lazy("suit initial", "S"),
}


def hand_role(f: HandFact) -> str:
    """What the person did in a finished hand, for the hand history:
    "maker, alone: march", "defender: euchre", "thrown in"."""
    if f.thrown_in:
        # Translators: the hand history, what the player did: nothing, nobody chose trump so the hand was not played ("thrown in").
        return pgettext("hand history", "thrown in")
    if f.maker:
        if f.maker_alone:
            # Translators: the hand history, what the player did: they were the maker (chose trump) and played alone, without the dummy.
            role = pgettext("hand history", "maker, alone")
        elif f.maker_dummy:
            # Translators: the hand history, what the player did: they were the maker (chose trump) and took the dummy (the extra hand dealt face down).
            role = pgettext("hand history", "maker, dummy")
        else:
            # Translators: the hand history, what the player did: they were the maker (chose trump and played against the other two).
            role = pgettext("hand history", "maker")
        if f.march:
            # Translators: the hand history, how the maker's hand ended: a march, all five tricks taken.
            outcome = pgettext("hand history", "march")
        elif f.euchred:
            # Translators: the hand history, how the maker's hand ended: euchred, fewer than three tricks taken (the defenders score).
            outcome = pgettext("hand history", "euchred")
        else:
            # Translators: the hand history, how the maker's hand ended: made, three or four tricks taken.
            outcome = pgettext("hand history", "made")
    else:
        if f.defended_alone:
            # Translators: the hand history, what the player did: they defended alone against the maker (the other defender sat out).
            role = pgettext("hand history", "defender, alone")
        else:
            # Translators: the hand history, what the player did: they defended (played against the maker, who chose trump).
            role = pgettext("hand history", "defender")
        if not f.defender_euchre:
            return role
        # Translators: the hand history, how a defended hand ended: the defenders euchred the maker (the maker took fewer than three tricks).
        outcome = pgettext("hand history", "euchre")
    # Translators: the hand history, what the player did and how it ended: %(role)s is the part ("maker, alone"), %(outcome)s the result ("march"), as in "maker, alone: march".
    return pgettext("hand history", "%(role)s: %(outcome)s") % {"role": role, "outcome": outcome}


class HistoryRow(TypedDict):
    fact: HandFact
    sealed: bool  # its replay and records wait for the day's end (a daily deal)
    role: str  # what the player did and how it ended, in words
    trump: str  # the suit's initial in the active language, or ""
    trump_name: str  # the suit's name, or ""


def history_rows(facts: Iterable[HandFact]) -> list[HistoryRow]:
    """The hand history's rows: each fact with its role and trump in words,
    and whether its replay and records are still sealed (today's daily deal)."""
    return [
        {
            "fact": f,
            "sealed": access.daily_sealed(f.game.table),
            "role": hand_role(f),
            "trump": str(SUIT_INITIALS[f.trump]) if f.trump in SUIT_INITIALS else "",
            "trump_name": words.suit_name(f.trump) if f.trump in words.SUITS else "",
        }
        for f in facts
    ]


# --------------------------------------------------------------------------- games and their ratings

RECENT_GAMES = 20

# Why a game is not rated for the reader, or is rated otherwise (GameFact.rating_note).
RATING_NOTES: dict[str, Promise] = {
    # Translators: the reason given beside a game in the player's list of games: a bot made every decision of the player's seat (they turned "let a bot play for me" on before their first move, or never came), so the game is not theirs.
    BOT_ONLY: pgettext_lazy("unrated game", "Not counted: a bot played your seat from the start."),
    # Translators: the reason given beside a game in the player's list of games: a bot (the player's autopilot, or one moving when their time ran out) made more than half of their seat's decisions, so the game is not rated for them and never counts as their win.
    MOSTLY_BOT: pgettext_lazy(
        "unrated game", "Unrated: a bot made more than half of your decisions."
    ),
    # Translators: the reason given beside a game in the player's list of games: the player left the game before its end and a bot finished it for them, so they are rated as if they had finished last.
    LEFT: pgettext_lazy("unrated game", "Rated as last: you left, and a bot finished the game."),
    # Translators: the reason given beside a game in the player's list of games: the table showed hints (the best move), so nobody is rated.
    HINTS: pgettext_lazy("unrated game", "Unrated: a table with hints."),
    # Translators: the reason given beside a game in the player's list of games: the daily deal (the same five deals for everybody, once a day) is ranked on its own page, not rated.
    DAILY: pgettext_lazy("unrated game", "Unrated: the daily deal is ranked on its own page."),
    # Translators: the reason given beside a game in the player's list of games: they played it as a guest (without an account), before signing up.
    GUEST: pgettext_lazy("unrated game", "Unrated: played as a guest, before you signed up."),
}


def rating_before() -> Subquery:
    """For a RatingEvent queryset: the mu of the same rating's event before each
    one (None for its first)."""
    return Subquery(
        # at <= the event's: a range of the index (rating, at), read from its end.
        RatingEvent.objects.filter(rating=OuterRef("rating"), at__lte=OuterRef("at"))
        .filter(Q(at__lt=OuterRef("at")) | Q(at=OuterRef("at"), pk__lt=OuterRef("pk")))
        .order_by("-at", "-pk")
        .values("mu")[:1]
    )


def rating_change(mu: float, before: float | None) -> int:
    """What a game did to the shown rating (from a new player's 1500 for their first)."""
    return shown_rating(mu) - shown_rating(SHOWN_MU if before is None else before)


class RecentGame(TypedDict):
    fact: GameFact
    change: int | None  # of the shown rating; None: not rated for them
    rating: int | None  # the shown rating after it
    reason: str | Promise  # why it is not rated, or rated otherwise ("" if rated)


def recent_games(user_id: int, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The person's last finished games, newest first: each with its change of
    their shown rating (None when it is not rated for them) and, when it is not
    rated or rated otherwise, why. Two queries."""
    facts = list(
        GameFact.objects.filter(user_id=user_id)
        .select_related("game__table")
        .order_by("-finished", "-pk")[:limit]
    )
    events = {
        game_id: (mu, before)
        for game_id, mu, before in RatingEvent.objects.filter(
            rating__user_id=user_id, game_id__in=[f.game_id for f in facts]
        )
        .annotate(before=rating_before())
        .order_by()  # a dict: no order, so the (rating, game) index finds the rows
        .values_list("game_id", "mu", "before")
    }
    rows: list[RecentGame] = []
    for f in facts:
        event = events.get(f.game_id)
        rows.append(
            {
                "fact": f,
                "change": None if event is None else rating_change(*event),
                "rating": None if event is None else shown_rating(event[0]),
                "reason": RATING_NOTES.get(f.rating_note, ""),
            }
        )
    return rows
