"""The games app tells players through `notify`: a real start and a real move
of a by-turns game, with Celery run in-process and the e-mails in `mailoutbox`."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games import services as game_services
from games.models import Game, Seat, Table
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_a_start_and_a_move_tell_the_right_people_once(
    alice: Any, bob: Any, carol: Any, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    table = game_services.table_create(
        owner=alice,
        name="Sunday table",
        rules={},
        target=5,
        mode=Table.Mode.TURNS,
        move_seconds=86400,
        visibility=Table.Visibility.PRIVATE,
    )
    game_services.table_join(table=table, user=bob, position=1)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.table_join(table=table, user=carol, position=2)
    game = Game.objects.select_related("table").get(table=table)
    assert game.to_act is not None
    first = Seat.objects.get(table=table, position=game.to_act).user
    assert first is not None

    for user in (alice, bob, carol):
        kinds = sorted(Notification.objects.filter(user=user).values_list("kind", flat=True))
        assert kinds == (["game_started", "turn"] if user == first else ["game_started"])
    # One e-mail each; the first player's has the start and the turn together.
    assert sorted(m.to[0] for m in mailoutbox) == sorted(u.email for u in (alice, bob, carol))
    mine = next(m for m in mailoutbox if m.to == [first.email])
    assert mine.subject == "Your turn in Sunday table"
    assert f"http://testserver/tables/{table.pk}/" in mine.body

    mailoutbox.clear()
    state = game_services.game_state(game)
    assert state.current is not None
    legal = engine.game_view(state, game.to_act)["legal_actions"]
    action = {k: v for k, v in legal[0].items() if k != "seat"}
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_act(
            game_id=game.pk,
            version=game.version,
            action=action,
            actor=game_services.Actor.person(first),
        )
    game.refresh_from_db()
    assert game.to_act is not None
    second = Seat.objects.get(table=table, position=game.to_act).user
    assert second is not None and second != first
    turn = Notification.objects.get(user=second, kind="turn")
    assert turn.turn_key == f"{game.pk}:{game.version}"
    assert [m.to for m in mailoutbox] == [[second.email]]
    assert mailoutbox[0].subject == "Your turn in Sunday table"
