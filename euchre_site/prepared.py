"""Reads compiled once: a hot queryset's SQL, made by the ORM the first time a
connection runs it, then run again with a new value.

Django compiles a queryset's SQL anew each time it runs. For the two reads
of every move (the game with its table, and the table's seats with their
users) the compiling and the prefetch's machinery were twenty times the
queries themselves: about 1.9 ms against 0.08 on SQLite, a sixth of a bot
move's worker time. `Prepared` keeps what the ORM made (the SQL, the
columns, the converters, the populators of `select_related`) on each
database connection, and builds the rows' model instances the way Django's
own iterator does. The queryset must take one value, and only in its SQL's
one parameter (checked when compiled); it may select related rows but not
annotate or prefetch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

# A value no row has, to find the value's place among the SQL's parameters.
_PROBE = -7_340_033


@dataclass(frozen=True, slots=True)
class _Compiled:
    compiler: SQLCompiler
    sql: str
    model: Any  # the queryset's model: type[M]
    fields: slice
    init_list: list[str]
    converters: dict[int, Any]
    populators: list[Any]
    fetch_mode: Any


class Prepared[M: Model]:
    """`Prepared(lambda value: SomeModel.objects...filter(x=value))`; then
    `.fetch(value)` is the list the queryset would give, from SQL compiled
    once per connection."""

    def __init__(self, build: Callable[[Any], QuerySet[M]], *, using: str = "default") -> None:
        self.build = build
        self.using = using
        self._key = f"prepared_{id(self)}"

    def _compile(self) -> _Compiled:
        queryset: Any = self.build(_PROBE).using(self.using)  # its private parts are read
        if queryset._prefetch_related_lookups or queryset.query.annotations:
            raise ValueError("a prepared read may not prefetch or annotate")
        compiler = queryset.query.get_compiler(using=self.using)
        sql, params = compiler.as_sql()
        if tuple(params) != (_PROBE,):
            raise ValueError(f"a prepared read takes its value as its one parameter: {params!r}")
        select, klass_info = compiler.select, compiler.klass_info
        assert klass_info is not None
        fields = klass_info["select_fields"]
        columns = slice(fields[0], fields[-1] + 1)
        fetch_mode = queryset._fetch_mode
        return _Compiled(
            compiler=compiler,
            sql=sql,
            model=klass_info["model"],
            fields=columns,
            init_list=[f[0].target.attname for f in select[columns]],
            converters=compiler.get_converters([s[0] for s in select]),
            populators=get_related_populators(klass_info, select, self.using, fetch_mode),
            fetch_mode=fetch_mode,
        )

    def fetch(self, value: Any) -> list[M]:
        connection = connections[self.using]
        # Kept on the connection: one per thread, made again with it.
        compiled: _Compiled | None = connection.__dict__.get(self._key)
        if compiled is None:
            compiled = connection.__dict__[self._key] = self._compile()
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, (value,))
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        objects: list[M] = []
        for row in rows:
            obj = compiled.model.from_db(
                self.using, compiled.init_list, row[compiled.fields], fetch_mode=compiled.fetch_mode
            )
            for populator in compiled.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects
