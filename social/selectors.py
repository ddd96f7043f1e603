"""What other apps ask of the social graph (reads only)."""

from __future__ import annotations

import datetime
from typing import TypedDict

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games import presence
from games.models import Game, Seat
from stats.models import GameFact

from .models import Block, FriendRequest, Invitation, Mute


def blocked_either_way(a_id: int, b_id: int) -> bool:
    """Either player blocked the other (the blocked one is never told)."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def has_blocked(blocker_id: int, other_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=other_id).exists()


def hidden_senders(user_id: int) -> set[int]:
    """Players whose chat messages `user_id` does not see: muted or blocked by them."""
    muted = Mute.objects.filter(muter_id=user_id).values_list("muted_id", flat=True)
    blocked = Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True)
    return set(muted) | set(blocked)


def friend_ids(user_id: int) -> set[int]:
    rows = FriendRequest.objects.filter(
        Q(sender_id=user_id) | Q(recipient_id=user_id), status=FriendRequest.Status.ACCEPTED
    ).values_list("sender_id", "recipient_id")
    return {b if a == user_id else a for a, b in rows}


def are_friends(a_id: int, b_id: int) -> bool:
    return FriendRequest.objects.filter(
        Q(sender_id=a_id, recipient_id=b_id) | Q(sender_id=b_id, recipient_id=a_id),
        status=FriendRequest.Status.ACCEPTED,
    ).exists()


# The token of the invitation a visitor followed before signing up: the seat
# is taken for them as soon as their account exists (social.receivers).
SIGNUP_INVITATION_KEY = "social.invitation"


def search(q: str, viewer_id: int, limit: int) -> list[User]:
    """Active players whose name starts with `q` (any case), then those that
    contain it; players who blocked the viewer are not found."""
    blockers = Block.objects.filter(blocked_id=viewer_id).values_list("blocker_id", flat=True)
    base = (
        User.objects.filter(is_active=True, is_guest=False)
        .exclude(pk__in=blockers)
        .order_by("username")
    )
    first = list(base.filter(username__istartswith=q)[:limit])
    if len(first) < limit:
        seen = [u.pk for u in first]
        first += list(base.filter(username__icontains=q).exclude(pk__in=seen)[: limit - len(first)])
    return first


class Relation(TypedDict):
    """The viewer and another player, as the buttons on a profile need it."""

    friends: bool
    sent: bool  # the viewer's request waits for the other's answer
    received: bool  # the other's request waits for the viewer's
    blocked: bool  # the viewer blocked the other
    muted: bool  # the viewer muted the other


def relation(viewer: User, other: User) -> Relation:
    """What the viewer's buttons on `other`'s profile should offer."""
    live = {
        (r.sender_id, r.status)
        for r in FriendRequest.objects.filter(
            Q(sender=viewer, recipient=other) | Q(sender=other, recipient=viewer),
            status__in=[FriendRequest.Status.PENDING, FriendRequest.Status.ACCEPTED],
        )
    }
    friends = any(status == FriendRequest.Status.ACCEPTED for _, status in live)
    return {
        "friends": friends,
        "sent": (viewer.pk, FriendRequest.Status.PENDING) in live,
        # A request from someone the viewer blocked is never shown.
        "received": (other.pk, FriendRequest.Status.PENDING) in live
        and not has_blocked(viewer.pk, other.pk),
        "blocked": has_blocked(viewer.pk, other.pk),
        "muted": Mute.objects.filter(muter=viewer, muted=other).exists(),
    }


def online(user_ids: set[int]) -> set[int]:
    """Those with a page of the site open now (games.presence, the notifications socket)."""
    return presence.online(user_ids)


class SharedGame(TypedDict):
    game: Game
    their_turn: bool
    your_turn: bool


class FriendRow(TypedDict):
    user: User
    online: bool
    games: list[SharedGame]


class FriendsPage(TypedDict):
    rows: list[FriendRow]
    received: list[FriendRequest]
    sent: list[FriendRequest]
    invitations: list[Invitation]
    blocked: list[User]
    muted: list[User]


def friends_page(user: User) -> FriendsPage:
    """Friends (online first), requests both ways, invitations waiting, blocks and mutes."""
    ids = friend_ids(user.pk)
    friends = list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))
    here = online(ids)
    # Games in progress that the user shares with a friend, and whose turn it is.
    my_tables = Seat.objects.filter(user=user).values_list("table_id", flat=True)
    shared: dict[int, list[SharedGame]] = {}
    games = (
        Game.objects.filter(table_id__in=my_tables, status=Game.Status.PLAYING)
        .select_related("table")
        .prefetch_related("table__seats")
    )
    for game in games:
        seats = {s.position: s.user_id for s in game.table.seats.all() if s.user_id is not None}
        waiting_on = seats.get(game.to_act) if game.to_act is not None else None
        for uid in set(seats.values()) & ids:
            shared.setdefault(uid, []).append(
                {"game": game, "their_turn": waiting_on == uid, "your_turn": waiting_on == user.pk}
            )
    rows: list[FriendRow] = [
        {"user": f, "online": f.pk in here, "games": shared.get(f.pk, [])}
        for f in sorted(friends, key=lambda f: (f.pk not in here, f.username.lower()))
    ]
    blocked_ids = set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))
    received = [
        r
        for r in FriendRequest.objects.filter(
            recipient=user, status=FriendRequest.Status.PENDING
        ).select_related("sender")
        if r.sender_id not in blocked_ids
    ]
    sent = list(
        FriendRequest.objects.filter(
            sender=user, status=FriendRequest.Status.PENDING
        ).select_related("recipient")
    )
    invitations = [
        inv
        for inv in Invitation.objects.filter(
            invitee=user, status=Invitation.Status.PENDING, expires__gt=timezone.now()
        ).select_related("table", "inviter")
        if inv.inviter_id not in blocked_ids
    ]
    return {
        "rows": rows,
        "received": received,
        "sent": sent,
        "invitations": invitations,
        "blocked": list(User.objects.filter(pk__in=blocked_ids).order_by("username")),
        "muted": list(
            User.objects.filter(
                pk__in=Mute.objects.filter(muter=user).values_list("muted_id", flat=True)
            ).order_by("username")
        ),
    }


def seat_holds(table_id: int) -> dict[int, Invitation]:
    """The table's seats held for invited players, by position."""
    return {
        inv.position: inv
        for inv in Invitation.objects.filter(
            table_id=table_id, status=Invitation.Status.PENDING, expires__gt=timezone.now()
        ).select_related("invitee")
    }


class RecentGame(TypedDict):
    finished: datetime.datetime | None
    won: bool
    others: list[str]  # the other players' names, bots' in the active language
    score: int | None  # the player's own


def recent_games(user_id: int, limit: int = 10) -> list[RecentGame]:
    """A player's last finished games, for their public profile: when, the
    other players, and whether they won (no table names: a private table's
    name is its players' business)."""
    # Through the player's game facts (stats: one row per finished game and
    # person, indexed by person and end): a few rows read, however many
    # games they played, where the games' own rows would all be joined.
    facts = (
        GameFact.objects.filter(user_id=user_id)
        .select_related("game")
        .prefetch_related("game__table__seats__user")
        .order_by("-finished", "-pk")[:limit]
    )
    out: list[RecentGame] = []
    for g in (f.game for f in facts):
        seats = list(g.table.seats.all())
        mine = next((s.position for s in seats if s.user_id == user_id), None)
        out.append(
            {
                "finished": g.finished,
                "won": g.winner is not None and g.winner == mine,
                "others": [s.display_name for s in seats if s.position != mine],
                "score": g.scores[mine] if mine is not None and len(g.scores) == 3 else None,
            }
        )
    return out
