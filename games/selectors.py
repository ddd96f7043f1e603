"""Read-only queries for pages (no state changes here)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch, QuerySet

from accounts.models import User

from .models import Game, Seat, Table


@dataclass(frozen=True, slots=True)
class MyGame:
    """One row of "My games": a table of the player's and its latest game."""

    table: Table
    game: Game | None
    your_turn: bool
    to_act: str | None  # who is to act, by name, while the game is under way
    deadline: datetime.datetime | None
    status: str  # the table's status in the reader's language
    scores: list[tuple[str, int]]  # (name, points) by seat
    bot_playing: bool  # a bot plays the player's seat


MY_GAMES_PAGE = 25  # finished tables a page of "My games"
MY_GAMES_IN_PLAY = 200  # tables not finished yet, at most, all on the first page


def _my_game_rows(seats: Iterable[Seat]) -> list[MyGame]:
    rows = []
    for seat in seats:
        table = seat.table
        games = list(table.games.all())
        game = games[0] if games else None
        names = {s.position: s.display_name for s in table.seats.all()}
        playing = game is not None and game.status == Game.Status.PLAYING
        your_turn = (
            playing and game is not None and game.to_act == seat.position and not seat.is_bot
        )
        rows.append(
            MyGame(
                table=table,
                game=game,
                your_turn=your_turn,
                to_act=names.get(game.to_act)
                if playing and game and game.to_act is not None
                else None,
                deadline=game.deadline if playing and game else None,
                status=str(table.get_status_display()),  # in the reader's language
                scores=[(names[p], s) for p, s in enumerate(game.scores)] if game else [],
                bot_playing=seat.is_bot,
            )
        )
    return rows


def _my_seats(user: User) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(user=user)
        .select_related("table")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.select_related("user")),
            Prefetch("table__games", queryset=Game.objects.order_by("-number")),
        )
    )


def my_games(user: User, page: str | int | None = None) -> tuple[list[MyGame], Page[Seat]]:
    """The user's games: on the first page every table not finished yet,
    theirs to play first by deadline, then the rest; then the finished ones,
    newest table first, MY_GAMES_PAGE a page (Django's Paginator: numbered
    pages, links without JavaScript). The pages run over all the user's
    seats by the index (user, table), so a page reads a page of rows; the
    tables not finished are left out of them (they head the first page).
    `page` is the page's number as asked (a wrong one gives the first or
    the last page)."""
    seats = Paginator(_my_seats(user).order_by("-table_id"), MY_GAMES_PAGE).get_page(page)
    rows = []
    if seats.number == 1:
        in_play = _my_game_rows(
            _my_seats(user)
            .filter(table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
            .order_by("-table_id")[:MY_GAMES_IN_PLAY]
        )
        far = datetime.datetime.max.replace(tzinfo=datetime.UTC)
        in_play.sort(key=lambda r: (not r.your_turn, r.deadline or far))
        rows = in_play
    finished = [s for s in seats.object_list if s.table.status == Table.Status.FINISHED]
    return rows + _my_game_rows(finished), seats


def latest_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def latest_game_version(table_id: int) -> tuple[int, int] | None:
    """(game id, version) of the table's latest game: what an up-to-date page shows."""
    row = (
        Game.objects.filter(table_id=table_id)
        .order_by("-number")
        .values_list("pk", "version")
        .first()
    )
    return (row[0], row[1]) if row else None


def with_seats[M: (Table, Game)](queryset: QuerySet[M]) -> QuerySet[M]:
    """Tables (or games) with their seats and seated users loaded in one go."""
    prefix = "table__" if queryset.model is Game else ""
    return queryset.prefetch_related(
        Prefetch(f"{prefix}seats", queryset=Seat.objects.select_related("user"))
    )


def open_tables() -> QuerySet[Table]:
    return (
        with_seats(
            Table.objects.filter(visibility=Table.Visibility.PUBLIC, status=Table.Status.OPEN)
        )
        .select_related("owner")
        .order_by("-created")[:100]
    )
