"""A move's read of its game (services.state.locked_game, through
euchre_site.prepared): the same rows the ORM's queryset gives, in two
queries, with the table's seats and their users loaded."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Prefetch
from django.test.utils import CaptureQueriesContext

from euchre_site.prepared import Prepared
from games.models import Game, Seat, Table
from games.services.state import locked_game

pytestmark = pytest.mark.django_db


def fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_the_game_its_table_and_seats_as_the_orm_reads_them(game: Game) -> None:
    seat = game.table.seats.get(position=1)
    seat.user = None
    seat.bot_level = "hard"  # a bot's seat: no user
    seat.save()
    orm = (
        Game.objects.select_related("table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("user")))
        .get(pk=game.pk)
    )
    for _ in range(2):  # compiled on the first read, reused on the second
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            read = locked_game(game.pk)
            assert read is not None
            assert fields(read) == fields(orm) and fields(read.table) == fields(orm.table)
            seats = list(read.table.seats.all())
            assert [fields(s) for s in seats] == [fields(s) for s in orm.table.seats.all()]
            assert [s.position for s in seats] == [0, 1, 2]
            users = [s.user and fields(s.user) for s in seats]
            assert users == [s.user and fields(s.user) for s in orm.table.seats.all()]
            assert users[1] is None and all(s.table is read.table for s in seats)
        assert len(queries) == 2  # the game with its table, the seats with their users
        assert isinstance(read.scores, list) and read.created.tzinfo is not None  # converted


def test_no_such_game(game: Game) -> None:
    with transaction.atomic():
        assert locked_game(game.pk + 1000) is None


def test_a_read_with_more_than_its_one_value_is_refused(game: Game) -> None:
    two = Prepared(lambda pk: Table.objects.filter(pk=pk, status=Table.Status.OPEN))
    with pytest.raises(ValueError, match="one parameter"):
        two.fetch(game.table.pk)
    prefetching = Prepared(lambda pk: Table.objects.prefetch_related("seats").filter(pk=pk))
    with pytest.raises(ValueError, match="prefetch"):
        prefetching.fetch(game.table.pk)
