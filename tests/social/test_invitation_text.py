"""Issue 21, item 8: an invitation e-mail carries no text its sender typed
(the table's name): it names the inviter's user name and the site; a table
name made before hidden characters were refused loses them on playing again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services as game_services
from games.models import Table
from social.models import Invitation

pytestmark = pytest.mark.django_db(transaction=True)

BAIT = "Claim your prize at https://evil.example/ now"


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_invitation_email_names_the_inviter_and_the_site_not_the_table(
    alice: Any, settings: Any, mailoutbox: list[Any]
) -> None:
    settings.SITE_URL = "https://euchre.example"
    table = game_services.table_create(
        owner=alice,
        name=BAIT,
        rules={},
        target=5,
        mode=Table.Mode.LIVE,
        move_seconds=None,
        visibility=Table.Visibility.PRIVATE,
    )
    r = client_for(alice).post(
        f"/tables/{table.pk}/invite-player/", {"name": "guest@example.com", "position": "1"}
    )
    assert r.status_code == 302
    [mail] = mailoutbox
    inv = Invitation.objects.get()
    text = mail.subject + "\n" + mail.body
    assert "evil.example" not in text and "prize" not in text
    assert mail.subject == "alice invites you to play Euchre"
    assert "alice is holding a seat for you at a table of Cutthroat Euchre" in mail.body
    assert "https://euchre.example\n" in mail.body
    assert f"https://euchre.example{inv.get_absolute_url()}" in mail.body


def test_play_again_leaves_hidden_characters_out_of_an_old_name(alice: Any, bob: Any) -> None:
    table = game_services.table_create(
        owner=alice,
        name="Friday",
        rules={},
        target=5,
        mode=Table.Mode.LIVE,
        move_seconds=None,
        visibility=Table.Visibility.PRIVATE,
    )
    game_services.table_join(table=table, user=bob, position=1)
    game_services.table_set_bot(table=table, user=alice, position=2, level="easy")
    # A name stored before such characters were refused.
    Table.objects.filter(pk=table.pk).update(
        name="\u202eFri\u200bday\u2066", status=Table.Status.FINISHED
    )
    assert client_for(bob).post(f"/tables/{table.pk}/play-again/").status_code == 302
    assert Table.objects.exclude(pk=table.pk).get().name == "Friday"
    # Nothing left of it: the usual name.
    Table.objects.filter(pk=table.pk).update(name="\u202e\u200b")
    assert client_for(alice).post(f"/tables/{table.pk}/play-again/").status_code == 302
    assert Table.objects.filter(name="Cutthroat table").count() == 1


def test_play_again_at_the_expert_cap_is_refused_with_its_reason(alice: Any, settings: Any) -> None:
    """The cap on expert tables (issue 21) answers play-again too: a 409 with
    the reason and nothing made (it was a 500)."""
    from tests.games.conftest import open_table

    settings.MAX_EXPERT_TABLES = 1
    done = open_table(alice, name="Done", bots={1: "expert", 2: "expert"})
    Table.objects.filter(pk=done.pk).update(status=Table.Status.FINISHED)
    open_table(alice, name="Busy", bots={1: "expert", 2: ""})  # her one expert table
    before = Table.objects.count()
    answer = client_for(alice).post(f"/tables/{done.pk}/play-again/")
    assert answer.status_code == 409
    assert Table.objects.count() == before
