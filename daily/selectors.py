"""Read-only queries for the daily pages (no state changes here)."""

from __future__ import annotations

import datetime
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from accounts.models import User
from games import words
from games.models import Game, Hand

from .models import HANDS, SEAT, DailyDeal, Entry

LEADERBOARD_SIZE = 50
RECENT_DAYS = 14


def entry_of(deal: DailyDeal, user: User | AnonymousUser) -> Entry | None:
    if not isinstance(user, User):
        return None
    return Entry.objects.filter(deal=deal, user=user).select_related("game").first()


def lagging(deal: DailyDeal, entry: Entry | None) -> bool:
    """The viewer's attempt is over but not yet counted in the day's figures
    (the worker counts it within seconds; the player followed the table's
    link at once): the page counts it first, so one's own finish always shows."""
    if entry is None or entry.game is None:
        return False
    if entry.status == Entry.Status.PLAYING:
        return entry.game.status == Game.Status.FINISHED
    at = deal.summary.get("at")
    return entry.ended is not None and (not at or datetime.datetime.fromisoformat(at) < entry.ended)


def may_compare(deal: DailyDeal, entry: Entry | None, today: datetime.date) -> bool:
    """The day's page: for a past day, every signed-in player; for today,
    only once the viewer's own attempt is over, and then only the totals
    (`comparison` leaves each hand's figures out until the day is over)."""
    return deal.date < today or (entry is not None and entry.done)


def may_replay(deal: DailyDeal, today: datetime.date) -> bool:
    """Everyone's hands of a day (and each hand's best and average) open
    once the day is over, not before, whoever has played it: a second
    account's attempt must not show the first the deals
    (games.access.daily_sealed says the same for the replay pages)."""
    return deal.date < today


def current_streak(user: User, today: datetime.date) -> int:
    """Days in a row up to today, or up to yesterday while today's deal is
    not started yet; 0 once a day was missed."""
    last = (
        Entry.objects.filter(user=user, deal__date__lte=today)
        .select_related("deal")
        .order_by("-deal__date")
        .first()
    )
    if last is None or last.deal.date < today - datetime.timedelta(days=1):
        return 0
    return last.streak


def recent(user: User, limit: int = RECENT_DAYS) -> list[Entry]:
    """The player's latest attempts, newest first."""
    return list(
        Entry.objects.filter(user=user).select_related("deal").order_by("-deal__date")[:limit]
    )


def _dealer_name(seat: int) -> str:
    if seat == SEAT:
        # Translators: in the daily deal's table of hands: the reader dealt this hand.
        return _("You")
    return words.bot_name("hard", seat + 1)


def _hand_ids(deal: DailyDeal) -> dict[int, dict[int, int]]:
    """{entry id: {hand number: hand id}} of the day's finished hands."""
    rows = Hand.objects.filter(game__daily_entry__deal=deal, result__complete=True).values_list(
        "game__daily_entry__pk", "number", "pk"
    )
    out: dict[int, dict[int, int]] = {}
    for entry_id, number, hand_id in rows:
        out.setdefault(entry_id, {})[number] = hand_id
    return out


class DayHand(TypedDict):
    """One hand of the day's comparison (best and average once the day is over)."""

    number: int
    dealer: str
    mine: int | None  # the viewer's points, None if they did not play it
    best: int | None
    best_name: str | None
    best_hand: int | None  # the id of the best player's hand, for its replay
    average: float | None
    players: int
    my_hand: int | None


class BoardHand(TypedDict):
    number: int
    id: int | None  # the hand's id, for its replay


class BoardRow(TypedDict):
    """One player on the day's leaderboard."""

    place: int | None
    ranked: bool
    name: str
    is_you: bool
    total: int
    hands_played: int
    status: str
    done: bool
    hands: list[BoardHand]  # their hands' replays, once the day is over


class Comparison(TypedDict):
    hands: list[DayHand]
    board: list[BoardRow]
    players: int


def comparison(deal: DailyDeal, entry: Entry | None, *, replays: bool) -> Comparison:
    """What the day's page shows: the viewer's points in each hand, and the
    leaderboard: the ranked entries (top LEADERBOARD_SIZE by total, ties
    sharing a place), then as many unranked ones, marked so. With `replays`
    (the day is over) also each hand's best and average and the links to
    every player's hands; before, nothing that tells of a deal's cards."""
    hand_ids = _hand_ids(deal) if replays else {}
    summary = (deal.summary.get("hands") if replays else None) or [{} for _ in range(HANDS)]
    best_entries = {h.get("best_entry") for h in summary if h.get("best_entry")}
    best_names = dict(Entry.objects.filter(pk__in=best_entries).values_list("pk", "user__username"))
    hands: list[DayHand] = []
    for n, figures in enumerate(summary):
        best_entry = figures.get("best_entry")
        mine = entry.points[n] if entry is not None and len(entry.points) > n else None
        hands.append(
            {
                "number": n + 1,
                "dealer": _dealer_name((deal.first_dealer + n) % 3),
                "mine": mine,
                "best": figures.get("best"),
                "best_name": best_names.get(best_entry),
                "best_hand": hand_ids.get(best_entry, {}).get(n) if best_entry else None,
                "average": figures.get("average"),
                "players": figures.get("players", 0),
                "my_hand": hand_ids.get(entry.pk, {}).get(n) if entry is not None else None,
            }
        )
    shown = deal.entries.filter(hidden=False).exclude(points=[]).select_related("user")
    board = [
        *shown.filter(place__isnull=False).order_by("place", "pk")[:LEADERBOARD_SIZE],
        *shown.filter(place__isnull=True).order_by("-total", "pk")[:LEADERBOARD_SIZE],
    ]
    rows: list[BoardRow] = [
        {
            "place": e.place,
            "ranked": e.place is not None,
            "name": e.user.username,
            "is_you": entry is not None and e.pk == entry.pk,
            "total": e.total,
            "hands_played": e.hands_played,
            "status": e.get_status_display(),
            "done": e.done,
            "hands": [
                {"number": n + 1, "id": hand_ids.get(e.pk, {}).get(n)}
                for n in range(e.hands_played)
            ]
            if replays
            else [],
        }
        for e in board
    ]
    return {
        "hands": hands,
        "board": rows,
        "players": deal.summary.get("players", 0),
    }
