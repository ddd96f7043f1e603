"""Friends, blocks, mutes and invitations by name, through the site's views."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import services as game_services
from games.models import Seat, Table
from notifications.models import Notification
from social import selectors, services
from social.models import Block, FriendRequest, Invitation, Mute

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def friend(c: Client, name: str, do: str) -> Any:
    return c.post(f"/players/{name}/friend/", {"do": do})


def open_table(owner: Any, **kw: Any) -> Table:
    return game_services.table_create(
        owner=owner,
        name=kw.pop("name", "Friday table"),
        rules={},
        target=5,
        mode=kw.pop("mode", Table.Mode.LIVE),
        move_seconds=kw.pop("move_seconds", None),
        visibility=kw.pop("visibility", Table.Visibility.PRIVATE),
    )


# --------------------------------------------------------------------------- friends


def test_a_friend_request_is_told_accepted_and_listed(alice: Any, bob: Any) -> None:
    a, b = client_for(alice), client_for(bob)
    assert friend(a, "BOB", "send").status_code == 302  # names in any case
    note = Notification.objects.get(user=bob, kind="friend_request")
    assert note.params == {"sender": "alice"}
    page = b.get("/friends/").content.decode()
    assert "Friend requests" in page and "/stats/players/alice/" in page
    assert friend(b, "alice", "accept").status_code == 302
    assert selectors.are_friends(alice.pk, bob.pk)
    assert Notification.objects.filter(user=alice, kind="friend_accepted").count() == 1
    assert "/stats/players/bob/" in a.get("/friends/").content.decode()
    # Twice: a clear refusal, nothing changes.
    r = friend(a, "bob", "send")
    assert r.status_code == 409 and "already friends" in r.content.decode()
    assert friend(a, "bob", "remove").status_code == 302
    assert not selectors.are_friends(alice.pk, bob.pk)


def test_declined_withdrawn_and_crossed_requests(alice: Any, bob: Any, carol: Any) -> None:
    a, b = client_for(alice), client_for(bob)
    friend(a, "bob", "send")
    r = friend(a, "bob", "send")
    assert r.status_code == 409 and "already waiting" in r.content.decode()
    assert friend(b, "alice", "decline").status_code == 302
    assert FriendRequest.objects.get(sender=alice).status == "declined"
    friend(a, "bob", "send")
    assert friend(a, "bob", "withdraw").status_code == 302
    assert friend(b, "alice", "accept").status_code == 409  # nothing waiting any more
    # Both ask: the second request accepts the first.
    friend(a, "carol", "send")
    friend(client_for(carol), "alice", "send")
    assert selectors.are_friends(alice.pk, carol.pk)
    assert FriendRequest.objects.filter(status="accepted").count() == 1


@pytest.mark.parametrize(
    ("name", "do", "status"),
    [
        ("alice", "send", 400),  # oneself
        ("nobody-here", "send", 404),
        ("bob", "hug", 400),
        ("bob", "", 400),
        ("x" * 400, "send", 400),
    ],
)
def test_bad_friend_posts_are_refused(
    alice: Any, bob: Any, name: str, do: str, status: int
) -> None:
    r = client_for(alice).post(f"/players/{name}/friend/", {"do": do})
    assert r.status_code == status
    assert not FriendRequest.objects.exists()


def test_get_and_anonymous_posts_change_nothing(alice: Any, bob: Any) -> None:
    assert client_for(alice).get("/players/bob/friend/").status_code == 405
    assert Client().post("/players/bob/friend/", {"do": "send"}).status_code == 302  # log in
    assert not FriendRequest.objects.exists()


def test_friend_requests_are_rate_limited(alice: Any, settings: Any) -> None:
    settings.SOCIAL_RATE = "3/d"
    others = [User.objects.create_user(f"p{i}", f"p{i}@example.com", "x") for i in range(4)]
    a = client_for(alice)
    codes = [friend(a, o.username, "send").status_code for o in others]
    assert codes == [302, 302, 302, 429]
    assert FriendRequest.objects.count() == 3


# --------------------------------------------------------------------------- search and profile


def test_find_a_player_by_name(alice: Any, bob: Any, carol: Any) -> None:
    page = client_for(alice).get("/players/", {"q": "BO"}).content.decode()
    assert "/stats/players/bob/" in page and "/stats/players/carol/" not in page
    page = client_for(alice).get("/players/", {"q": "zzz"}).content.decode()
    assert "No player" in page
    for q in ["\x00", "%", "_" * 500, "<script>"]:
        r = client_for(alice).get("/players/", {"q": q})
        assert r.status_code == 200 and "<script>" not in r.content.decode().split("<main")[-1]


def test_the_profile_offers_friendship_and_lists_friends(alice: Any, bob: Any, carol: Any) -> None:
    services.friend_request_send(sender=carol, recipient=bob)
    services.friend_request_answer(recipient=bob, sender=carol, accept=True)
    page = client_for(alice).get("/stats/players/bob/").content.decode()
    assert "Add friend" in page and "Block" in page and "Mute" in page
    assert "/stats/players/carol/" in page  # bob's friends
    assert "Recent games" in page


# --------------------------------------------------------------------------- block and mute


def test_a_blocked_player_cannot_befriend_invite_or_sit_and_is_not_told(
    alice: Any, bob: Any
) -> None:
    a, b = client_for(alice), client_for(bob)
    assert a.post("/players/bob/block/").status_code == 302
    # Bob's friend request looks sent, but alice never sees it or hears of it.
    r = friend(b, "alice", "send")
    assert r.status_code == 302
    assert not Notification.objects.filter(user=alice).exists()
    assert "Friend requests" not in a.get("/friends/").content.decode()
    # Bob's invitation holds the seat as usual, but alice is never told.
    table = open_table(bob)
    r = b.post(f"/tables/{table.pk}/invite-player/", {"name": "alice", "position": "1"})
    assert r.status_code == 302
    assert not Notification.objects.filter(user=alice).exists()
    assert "Invitations to a seat" not in a.get("/friends/").content.decode()
    # Alice's own table refuses bob a seat, without saying why.
    mine = open_table(alice, visibility=Table.Visibility.PUBLIC)
    r = b.post(f"/tables/{mine.pk}/join/", {"position": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 403
    assert "block" not in r.content.decode().lower()
    assert not Seat.objects.filter(table=mine, user=bob).exists()
    # Unblocked, bob may sit down.
    assert a.post("/players/bob/unblock/").status_code == 302
    assert b.post(f"/tables/{mine.pk}/join/", {"position": "1"}).status_code == 302
    assert Seat.objects.filter(table=mine, user=bob).exists()


def test_blocking_ends_a_friendship(alice: Any, bob: Any) -> None:
    services.friend_request_send(sender=alice, recipient=bob)
    services.friend_request_answer(recipient=bob, sender=alice, accept=True)
    services.block(user=bob, other=alice)
    assert not selectors.are_friends(alice.pk, bob.pk)
    assert selectors.hidden_senders(bob.pk) == {alice.pk}
    r = friend(client_for(bob), "alice", "send")
    assert r.status_code == 409 and "unblock" in r.content.decode()


def test_mute_hides_and_unmute_shows(alice: Any, bob: Any) -> None:
    a = client_for(alice)
    assert a.post("/players/bob/mute/").status_code == 302
    assert a.post("/players/bob/mute/").status_code == 302  # again: still one
    assert Mute.objects.count() == 1 and selectors.hidden_senders(alice.pk) == {bob.pk}
    assert a.post("/players/bob/unmute/", HTTP_HX_REQUEST="true").status_code == 200
    assert selectors.hidden_senders(alice.pk) == set()
    assert a.post("/players/alice/mute/").status_code == 400
    assert not Block.objects.exists()


# --------------------------------------------------------------------------- invitations


def invite(c: Client, table: Table, name: str, position: int | str) -> Any:
    return c.post(f"/tables/{table.pk}/invite-player/", {"name": name, "position": str(position)})


def test_an_invitation_holds_the_seat_and_one_click_seats_the_invitee(
    alice: Any, bob: Any, carol: Any
) -> None:
    table = open_table(alice, visibility=Table.Visibility.PUBLIC)
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    assert invite(a, table, "bob", 2).status_code == 302
    inv = Invitation.objects.get()
    note = Notification.objects.get(user=bob, kind="invitation")
    assert note.url == f"/invitations/{inv.token}/"
    # The held seat: the table says so, and nobody else may take it.
    assert "held for bob" in a.get(table.get_absolute_url()).content.decode()
    r = c.post(f"/tables/{table.pk}/join/", {"position": "2"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 409 and "held" in r.content.decode()
    r = a.post(
        f"/tables/{table.pk}/bot/", {"position": "2", "level": "easy"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 409
    # Another player's invitation page is not theirs.
    assert c.get(inv.get_absolute_url()).status_code == 404
    # Bob opens it and accepts in one click: seated, sent to the table.
    assert "Accept and sit down" in b.get(inv.get_absolute_url()).content.decode()
    r = b.post(f"/invitations/{inv.token}/answer/", {"do": "accept"})
    assert r.status_code == 302 and r["Location"] == table.get_absolute_url()
    assert Seat.objects.get(table=table, position=2).user == bob
    inv.refresh_from_db()
    assert inv.status == "accepted"
    # Accepting again changes nothing.
    assert b.post(f"/invitations/{inv.token}/answer/", {"do": "accept"}).status_code == 410


def test_decline_cancel_and_expiry_free_the_seat(alice: Any, bob: Any, carol: Any) -> None:
    table = open_table(alice)
    a, b = client_for(alice), client_for(bob)
    invite(a, table, "bob", 1)
    inv = Invitation.objects.get()
    assert b.post(f"/invitations/{inv.token}/answer/", {"do": "decline"}).status_code == 302
    inv.refresh_from_db()
    assert inv.status == "declined"
    assert game_services.table_join(table=table, user=carol, position=1) is None
    game_services.table_leave(table=table, user=carol)
    # Cancelled by the inviter.
    invite(a, table, "bob", 1)
    second = Invitation.objects.get(status="pending")
    assert b.post(f"/invitations/{second.pk}/cancel/").status_code == 404  # not bob's to cancel
    assert a.post(f"/invitations/{second.pk}/cancel/").status_code == 302
    # Seven days pass: the seat is free even before the sweep, then the sweep closes it.
    invite(a, table, "bob", 1)
    third = Invitation.objects.get(status="pending")
    Invitation.objects.filter(pk=third.pk).update(expires=timezone.now() - datetime.timedelta(1))
    assert b.post(f"/invitations/{third.token}/answer/", {"do": "accept"}).status_code == 410
    assert services.invitations_expire() == 1
    assert Invitation.objects.get(pk=third.pk).status == "expired"
    game_services.table_join(table=table, user=carol, position=1)


@pytest.mark.parametrize(
    ("name", "position", "status", "says"),
    [
        ("bob", "0", 409, "taken"),  # alice's own seat
        ("bob", "3", 400, "seat"),
        ("bob", "", 400, "seat"),
        ("bob", "1.0", 400, "seat"),
        ("alice", "1", 400, "you"),
        ("nobody-here", "1", 404, "no player"),
        ("", "1", 400, "user name"),
        ("not@an@address", "1", 400, "e-mail"),
    ],
)
def test_bad_invitations_are_refused(
    alice: Any, bob: Any, name: str, position: str, status: int, says: str
) -> None:
    table = open_table(alice)
    r = invite(client_for(alice), table, name, position)
    assert r.status_code == status
    assert says in r.content.decode().lower()
    assert not Invitation.objects.exists()


def test_inviting_twice_to_a_full_or_started_table_or_from_outside(
    alice: Any, bob: Any, carol: Any, outsider: Any
) -> None:
    table = open_table(alice)
    a = client_for(alice)
    invite(a, table, "bob", 1)
    r = invite(a, table, "bob", 2)
    assert r.status_code == 409 and "already invited" in r.content.decode()
    r = invite(a, table, "carol", 1)
    assert r.status_code == 409 and "held" in r.content.decode()
    # Someone not seated at the table may not invite (a private table: not even seen).
    assert invite(client_for(outsider), table, "carol", 2).status_code == 404
    # Started: the invitation is refused with a clear message.
    inv = Invitation.objects.get()
    client_for(bob).post(f"/invitations/{inv.token}/answer/", {"do": "accept"})
    game_services.table_join(table=table, user=carol, position=2)
    r = invite(a, table, "oscar", 1)
    assert r.status_code == 409 and "already started" in r.content.decode()
    assert Invitation.objects.count() == 1


def test_an_invitation_by_email_takes_a_new_person_through_sign_up_to_the_seat(
    alice: Any, settings: Any, mailoutbox: list[Any]
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    table = open_table(alice)
    assert invite(client_for(alice), table, "newcomer@example.com", 1).status_code == 302
    inv = Invitation.objects.get()
    assert inv.invitee is None and inv.email == "newcomer@example.com"
    [mail] = mailoutbox
    assert mail.to == ["newcomer@example.com"]
    assert inv.get_absolute_url() in mail.body and "alice" in mail.subject
    # The link, not signed in: to sign-up, and from there straight to the seat.
    visitor = Client()
    r = visitor.get(inv.get_absolute_url())
    assert r.status_code == 302 and r["Location"].startswith("/accounts/signup/")
    r = visitor.post(
        r["Location"],
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-secret-77",
            "password2": "a-long-secret-77",
        },
    )
    assert r.status_code == 302
    newcomer = User.objects.get(username="newcomer")
    assert Seat.objects.get(table=table, position=1).user == newcomer
    r = visitor.get(r["Location"])
    assert r.status_code == 302 and r["Location"] == table.get_absolute_url()


def test_play_again_opens_a_new_table_and_invites_the_same_people(
    alice: Any, bob: Any, carol: Any
) -> None:
    table = open_table(alice)
    game_services.table_join(table=table, user=bob, position=1)
    game_services.table_set_bot(table=table, user=alice, position=2, level="easy")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    r = client_for(bob).post(f"/tables/{table.pk}/play-again/")
    new = Table.objects.exclude(pk=table.pk).get()
    assert r.status_code == 302 and r["Location"] == new.get_absolute_url()
    seats = {s.position: s for s in new.seats.all()}
    assert seats[1].user == bob and seats[2].bot_level == "easy" and seats[0].user is None
    inv = Invitation.objects.get(table=new)
    assert (inv.invitee, inv.position, inv.inviter) == (alice, 0, bob)
    assert Notification.objects.filter(user=alice, kind="invitation").count() == 1
    # Not finished, or not a player: refused.
    assert client_for(carol).post(f"/tables/{table.pk}/play-again/").status_code == 404
    assert client_for(bob).post(f"/tables/{new.pk}/play-again/").status_code == 409


# --------------------------------------------------------------------------- the real worker


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_an_invitation_reaches_the_invitee_in_app_and_by_email_from_the_worker(
    social_mail: Any, alice: Any, bob: Any
) -> None:
    table = open_table(alice)
    services.invitation_send(table=table, inviter=alice, name="bob", position=1)
    services.invitation_send(table=table, inviter=alice, name="guest@example.com", position=2)
    messages = social_mail.wait_for(2)
    assert sorted(m["To"] for m in messages) == ["bob@example.com", "guest@example.com"]
    to_bob = next(m for m in messages if m["To"] == "bob@example.com")
    assert to_bob["Subject"] == "alice invites you to a seat at Friday table."
    assert Notification.objects.get(user=bob).kind == "invitation"


def test_friends_online_now_and_waiting_on_a_turn(alice: Any, bob: Any, carol: Any) -> None:
    """Online: bob has a page of the site open (its notifications socket);
    waiting: a game alice and bob share shows whose turn it is."""
    import threading

    from asgiref.sync import async_to_sync, sync_to_async

    from tests.games.wsclient import acommunicator

    services.friend_request_send(sender=alice, recipient=bob)
    services.friend_request_answer(recipient=bob, sender=alice, accept=True)
    a = client_for(alice)
    assert "offline" in a.get("/friends/").content.decode()
    seen: list[str] = []

    async def with_bob_online() -> None:
        ws = await acommunicator("/ws/notifications/", bob)
        assert (await ws.connect())[0]
        await ws.receive_from(timeout=5)  # the badge: connected and counted
        seen.append(await sync_to_async(lambda: a.get("/friends/").content.decode())())
        await ws.disconnect()

    thread = threading.Thread(target=async_to_sync(with_bob_online))
    thread.start()
    thread.join(30)
    assert "online now" in seen[0]
    assert "offline" in a.get("/friends/").content.decode()  # the page closed
    # A game they share: whose turn it is.
    table = open_table(alice)
    game_services.table_join(table=table, user=bob, position=1)
    game = game_services.table_join(table=table, user=carol, position=2)
    assert game is not None and game.to_act is not None
    page = a.get("/friends/").content.decode()
    expected = {0: "your turn", 1: "their turn", 2: "in play"}[game.to_act]
    assert "<bdi>Friday table</bdi></a>:" in page and expected in page


@pytest.mark.parametrize(
    "url",
    [
        "/invitations/99999999999999999999999999/cancel/",
        "/tables/99999999999999999999999999/invite-player/",
        "/tables/99999999999999999999999999/play-again/",
        "/invitations/%00/answer/",
        "/invitations/" + "x" * 300 + "/answer/",
        "/players/%00/friend/",
        "/players/%00/block/",
    ],
)
def test_forged_ids_and_names_are_4xx(alice: Any, url: str) -> None:
    r = client_for(alice).post(url, {"do": "accept", "name": "bob\x00", "position": "1"})
    assert 400 <= r.status_code < 500, r.status_code


def test_next_never_leaves_the_site(alice: Any, bob: Any) -> None:
    r = client_for(alice).post("/players/bob/mute/", {"next": "https://evil.example/"})
    assert r.status_code == 302 and r["Location"] == "/friends/"
    r = client_for(alice).post("/players/bob/unmute/", {"next": "/stats/players/bob/"})
    assert r["Location"] == "/stats/players/bob/"


def test_a_nul_or_huge_name_in_an_invitation_is_refused(alice: Any) -> None:
    table = open_table(alice)
    for name in ["bob\x00", "a@b\x00.com", "x" * 5000, "@" * 300]:
        r = invite(client_for(alice), table, name, 1)
        assert r.status_code in (400, 404), (name[:10], r.status_code)
    assert not Invitation.objects.exists()


def test_the_invitation_form_offers_only_free_seats_and_friends(alice: Any, bob: Any) -> None:
    services.friend_request_send(sender=alice, recipient=bob)
    services.friend_request_answer(recipient=bob, sender=alice, accept=True)
    table = open_table(alice)
    game_services.table_set_bot(table=table, user=alice, position=2, level="easy")
    page = client_for(alice).get(table.get_absolute_url()).content.decode()
    form = page.split('class="invite-player"')[1].split("</form>")[0]
    assert '<option value="1">Seat 2</option>' in form and 'value="2"' not in form
    assert '<option value="bob">' in form  # a friend, suggested
    services.invitation_send(table=table, inviter=alice, name="bob", position=1)
    page = client_for(alice).get(table.get_absolute_url()).content.decode()
    assert "Invite a player" not in page  # no seat left to invite to
