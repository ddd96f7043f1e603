"""Reads for the pages: what a viewer may see, and the stored figures laid
out for the templates (constant work, whatever the history's length)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Q, QuerySet

from games import access
from games.models import Game, Hand, Table

from .facts import rules_label
from .models import HandFact, PlayerStats

SUIT_LABELS = {"C": "Clubs ♣", "D": "Diamonds ♦", "H": "Hearts ♥", "S": "Spades ♠"}
POSITION_LABELS = {"left": "Left of dealer", "second": "Second", "dealer": "Dealer"}

# (label, path in the figures, kind): kind "n" a count, "pct" a percentage, "x" a ratio.
ROWS: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "Games",
        [
            ("Games played", "games.played", "n"),
            ("Games won", "games.won", "n"),
            ("Win %", "games.win_pct", "pct"),
        ],
    ),
    (
        "Hands",
        [
            ("Hands played", "hands", "n"),
            ("Points", "points", "n"),
            ("Points per hand", "points_per_hand", "x"),
            ("Thrown in", "thrown_in", "n"),
        ],
    ),
    (
        "As maker",
        [
            ("Calls", "maker.calls", "n"),
            ("Calls per hand", "maker.calls_per_hand", "x"),
            ("Called in the first round", "maker.round1", "n"),
            ("Called in the second round", "maker.round2", "n"),
            *[
                (f"Calls per hand: {label.lower()}", f"maker.by_position.{k}.calls_per_hand", "x")
                for k, label in POSITION_LABELS.items()
            ],
            *[
                (f"Make %: {label.lower()}", f"maker.by_position.{k}.make_pct", "pct")
                for k, label in POSITION_LABELS.items()
            ],
            ("Made", "maker.made", "n"),
            ("Make %", "maker.make_pct", "pct"),
            ("Marches", "maker.marches", "n"),
            ("Euchred", "maker.euchred", "n"),
            ("Euchred %", "maker.euchred_pct", "pct"),
        ],
    ),
    (
        "With the dummy",
        [
            ("Calls with the dummy", "maker.dummy.calls", "n"),
            ("Make %", "maker.dummy.make_pct", "pct"),
            ("Marches", "maker.dummy.marches", "n"),
            ("Euchred %", "maker.dummy.euchred_pct", "pct"),
        ],
    ),
    (
        "Going alone",
        [
            ("Calls alone", "maker.alone.calls", "n"),
            ("Made", "maker.alone.made", "n"),
            ("Make %", "maker.alone.make_pct", "pct"),
            ("Marches", "maker.alone.marches", "n"),
            ("Euchred %", "maker.alone.euchred_pct", "pct"),
        ],
    ),
    (
        "As defender",
        [
            ("Hands defended", "defender.hands", "n"),
            ("Euchres achieved", "defender.euchres", "n"),
            ("Euchre %", "defender.euchre_pct", "pct"),
            ("Defended alone", "defender.alone.attempts", "n"),
            ("Alone: defence won", "defender.alone.won", "n"),
            ("Alone: won %", "defender.alone.won_pct", "pct"),
            ("Alone: all five tricks", "defender.alone.marches", "n"),
        ],
    ),
    (
        "Trump (as maker)",
        [
            *[(f"{label}: calls", f"trump.{s}.calls", "n") for s, label in SUIT_LABELS.items()],
            *[
                (f"{label}: make %", f"trump.{s}.make_pct", "pct")
                for s, label in SUIT_LABELS.items()
            ],
        ],
    ),
    (
        "The dealer's pick-up",
        [
            ("Chances (another player ordered it up)", "dealer.chances", "n"),
            ("Picked up", "dealer.pickups", "n"),
            ("Pick-up %", "dealer.pickup_pct", "pct"),
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


def dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def fmt(value: Any, kind: str) -> str:
    if value is None:
        return "–"
    if kind == "pct":
        return f"{value:.1f}%"
    if kind == "x":
        return f"{value:.2f}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def figure_sections(
    mine: dict[str, Any], avg: dict[str, Any], *, full: bool
) -> list[dict[str, Any]]:
    """The stored figures as table rows: mine and the average, lifetime and 30 days."""
    out = []
    for title, rows in ROWS:
        lines = []
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


def breakdown(mine: dict[str, Any], avg: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """Games by mode or by rules, lifetime and the last 30 days, each beside
    the average player's win %."""

    def rows_of(data: dict[str, Any], scope: str) -> dict[str, Any]:
        return dig(data.get(scope), f"games.{key}") or {}

    rows, recent = rows_of(mine, "lifetime"), rows_of(mine, "recent")
    avg_rows, avg_recent = rows_of(avg, "lifetime"), rows_of(avg, "recent")
    label = (lambda k: dict(Table.Mode.choices).get(k, k)) if key == "by_mode" else rules_label
    return [
        {
            "label": label(k),
            "played": v["played"],
            "won": v["won"],
            "win_pct": fmt(v["win_pct"], "pct"),
            "avg_win_pct": fmt((avg_rows.get(k) or {}).get("win_pct"), "pct"),
            "recent_played": (recent.get(k) or {}).get("played", 0),
            "recent_win_pct": fmt((recent.get(k) or {}).get("win_pct"), "pct"),
            "avg_recent_win_pct": fmt((avg_recent.get(k) or {}).get("win_pct"), "pct"),
        }
        for k, v in rows.items()
    ]


def stats_of(user_id: int) -> dict[str, Any]:
    row = PlayerStats.objects.filter(key=f"user:{user_id}").values_list("data", flat=True).first()
    return row or {}


def average() -> dict[str, Any]:
    row = PlayerStats.objects.filter(key="all").values_list("data", flat=True).first()
    return row or {}


def visible_games(user: Any) -> Q:
    """Games whose finished hands `user` may look at: the ones they played in
    (docs/rules.md: the whole deal is shown to the three players in the history)."""
    return Q(table__seats__user=user) if user.is_authenticated else Q(pk__in=[])


def finished_hand_for(user: Any, hand_id: int) -> Hand | None:
    """A finished hand the user played in; else None."""
    hand = (
        Hand.objects.select_related("game__table")
        .filter(pk=hand_id, result__isnull=False, result__complete=True)
        .first()
    )
    if hand is None:
        return None
    return hand if access.may_view_game_records(user, hand.game.table) else None


def game_for(user: Any, game_id: int) -> Game | None:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    return game if access.may_view_game_records(user, game.table) else None


def history(user: Any, filters: Mapping[str, Any]) -> QuerySet[HandFact]:
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


def seat_names(game: Game) -> dict[int, str]:
    return {s.position: s.display_name for s in game.table.seats.select_related("user")}
