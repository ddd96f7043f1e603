"""Every change to who plays with whom: one service per change.

A refusal raises `euchre_site.refusal.Refusal` (a clear message and the
4xx status to answer with); nothing has changed then. What a blocked player is refused never says
that they are blocked: a friend request or an invitation to someone who
blocked its sender is stored as usual and simply never shown to them.
"""

from __future__ import annotations

import datetime
import functools

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import realtime as game_realtime
from games import services as game_services
from games.forms import without_hidden_characters
from games.models import Seat, Table
from notifications.services import notify

from . import selectors, signals
from .models import INVITATION_DAYS, Block, FriendRequest, Invitation, Mute

MAX_NAME = 150  # accounts.User.username's length


def player_named(name: str) -> User:
    """The active player with this user name (any case), or a 404 refusal."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME or "\x00" in name:
        raise Refusal(_("Type a player's user name."))
    # Guests (accounts.guests) are nobody's friends or invitees: not found.
    user = User.objects.filter(username__iexact=name, is_active=True, is_guest=False).first()
    if user is None:
        # Translators: %(name)s is what the reader typed as a player's user name.
        raise Refusal(
            _("There is no player called %(name)s.") % {"name": name}, code=Code.NOT_FOUND
        )
    return user


def _not_guest(*users: User) -> None:
    """Guests have no friends, invitations or blocks: they sign up first."""
    if any(guests.is_guest(u) for u in users):
        raise Refusal(guests.refusal(), code=Code.GUEST)


def _not_self(user: User, other: User) -> None:
    if user.pk == other.pk:
        raise Refusal(_("That is you."))


def _tell(user: User, kind: str, url: str, params: dict[str, str]) -> None:
    notify(user=user, kind=kind, game=None, url=url, params=params)


# --------------------------------------------------------------------------- friends


def friend_request_send(*, sender: User, recipient: User) -> FriendRequest:
    """Ask to be friends; a request the other way already waiting is accepted instead."""
    _not_self(sender, recipient)
    _not_guest(sender, recipient)
    if selectors.has_blocked(sender.pk, recipient.pk):
        raise Refusal(
            _("You blocked %(name)s: unblock them first.") % {"name": recipient.username},
            code=Code.CONFLICT,
        )
    with transaction.atomic():
        live = FriendRequest.objects.select_for_update().filter(
            Q(sender=sender, recipient=recipient) | Q(sender=recipient, recipient=sender),
            status__in=[FriendRequest.Status.PENDING, FriendRequest.Status.ACCEPTED],
        )
        for req in live:
            if req.status == FriendRequest.Status.ACCEPTED:
                raise Refusal(
                    _("You and %(name)s are already friends.") % {"name": recipient.username},
                    code=Code.CONFLICT,
                )
            if req.sender_id == sender.pk:
                raise Refusal(
                    _("Your request to %(name)s is already waiting for an answer.")
                    % {"name": recipient.username},
                    code=Code.CONFLICT,
                )
            if not selectors.has_blocked(recipient.pk, sender.pk):
                return _answer(req, FriendRequest.Status.ACCEPTED)
        try:
            with transaction.atomic():
                req = FriendRequest.objects.create(sender=sender, recipient=recipient)
        except IntegrityError:  # the same request twice at once
            raise Refusal(
                _("Your request to %(name)s is already waiting for an answer.")
                % {"name": recipient.username},
                code=Code.CONFLICT,
            ) from None
    if not selectors.has_blocked(recipient.pk, sender.pk):
        transaction.on_commit(
            lambda: _tell(recipient, "friend_request", "/friends/", {"sender": sender.username}),
            robust=True,
        )
    return req


def _answer(req: FriendRequest, status: str) -> FriendRequest:
    req.status = status
    req.answered = timezone.now()
    req.save(update_fields=["status", "answered"])
    if status == FriendRequest.Status.ACCEPTED:
        sender, recipient = req.sender, req.recipient
        transaction.on_commit(
            lambda: _tell(sender, "friend_accepted", "/friends/", {"friend": recipient.username}),
            robust=True,
        )
    return req


def _pending(*, sender: User, recipient: User) -> FriendRequest:
    req = (
        FriendRequest.objects.select_for_update()
        .filter(sender=sender, recipient=recipient, status=FriendRequest.Status.PENDING)
        .first()
    )
    if req is None:
        raise Refusal(_("There is no friend request waiting."), code=Code.CONFLICT)
    return req


def friend_request_answer(*, recipient: User, sender: User, accept: bool) -> FriendRequest:
    """Accept or decline a request waiting for `recipient`."""
    with transaction.atomic():
        req = _pending(sender=sender, recipient=recipient)
        if selectors.has_blocked(recipient.pk, sender.pk):  # never shown to them
            raise Refusal(_("There is no friend request waiting."), code=Code.CONFLICT)
        status = FriendRequest.Status.ACCEPTED if accept else FriendRequest.Status.DECLINED
        return _answer(req, status)


def friend_request_withdraw(*, sender: User, recipient: User) -> None:
    with transaction.atomic():
        req = _pending(sender=sender, recipient=recipient)
        req.status = FriendRequest.Status.WITHDRAWN
        req.answered = timezone.now()
        req.save(update_fields=["status", "answered"])


def unfriend(*, user: User, other: User) -> None:
    ended = FriendRequest.objects.filter(
        Q(sender=user, recipient=other) | Q(sender=other, recipient=user),
        status=FriendRequest.Status.ACCEPTED,
    ).update(status=FriendRequest.Status.ENDED, answered=timezone.now())
    if not ended:
        raise Refusal(_("You are not friends."), code=Code.CONFLICT)


# --------------------------------------------------------------------------- block and mute


def block(*, user: User, other: User) -> None:
    """Block `other`: it ends a friendship and any request or invitation
    between the two (the blocked player is not told)."""
    _not_self(user, other)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        FriendRequest.objects.filter(
            Q(sender=user, recipient=other) | Q(sender=other, recipient=user),
            status__in=[FriendRequest.Status.PENDING, FriendRequest.Status.ACCEPTED],
        ).update(status=FriendRequest.Status.ENDED, answered=timezone.now())
        Invitation.objects.filter(
            Q(inviter=user, invitee=other) | Q(inviter=other, invitee=user),
            status=Invitation.Status.PENDING,
        ).update(status=Invitation.Status.CANCELLED, answered=timezone.now())


def unblock(*, user: User, other: User) -> None:
    Block.objects.filter(blocker=user, blocked=other).delete()


def mute(*, user: User, other: User) -> None:
    _not_self(user, other)
    Mute.objects.get_or_create(muter=user, muted=other)


def unmute(*, user: User, other: User) -> None:
    Mute.objects.filter(muter=user, muted=other).delete()


# --------------------------------------------------------------------------- invitations


def _held_seat(table: Table, position: int, now: datetime.datetime) -> Invitation | None:
    return (
        Invitation.objects.filter(
            table=table, position=position, status=Invitation.Status.PENDING, expires__gt=now
        )
        .select_related("invitee")
        .first()
    )


def check_seat(*, table: Table, position: int, user: User | None) -> None:
    """games.signals.seat_wanted: a held seat is for its invitee, and nobody
    sits down at a table where a seated player blocked them."""
    now = timezone.now()
    held = _held_seat(table, position, now)
    if held is not None and (user is None or held.invitee_id != user.pk):
        raise Refusal(_("That seat is held for an invited player."), code=Code.CONFLICT)
    if user is not None:
        seated = list(
            Seat.objects.filter(table=table, user__isnull=False).values_list("user_id", flat=True)
        )
        if Block.objects.filter(blocker_id__in=[*seated, table.owner_id], blocked=user).exists():
            raise Refusal(_("You cannot sit at this table."), code=Code.FORBIDDEN)


def seat_taken(*, table: Table, user: User) -> None:
    """games.signals.seat_taken: the invitee sat down (by the invitation or
    not): their invitation to this table is answered."""
    Invitation.objects.filter(table=table, invitee=user, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.ACCEPTED, answered=timezone.now()
    )


def invitation_send(*, table: Table, inviter: User, name: str, position: int) -> Invitation:
    """Hold seat `position` of `table` for the player called `name`, or for
    whoever follows the link sent to `name` when it is an e-mail address."""
    _not_guest(inviter)
    name = (name or "").strip()
    email = ""
    invitee = None
    if "@" in name:
        try:
            validate_email(name)
        except ValidationError:
            raise Refusal(_("Type a player's user name or an e-mail address.")) from None
        email = name[:254]
    else:
        invitee = player_named(name)
        _not_self(inviter, invitee)
        if selectors.has_blocked(inviter.pk, invitee.pk):
            raise Refusal(
                _("You blocked %(name)s: unblock them first.") % {"name": invitee.username},
                code=Code.CONFLICT,
            )
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        seats = {s.position: s for s in table.seats.all()}
        if inviter.pk not in {s.user_id for s in seats.values()}:
            raise Refusal(_("Only the players at this table can invite."), code=Code.FORBIDDEN)
        game_services.check_seat_free(table, position)  # games says which seats are free
        if invitee is not None and invitee.pk in {s.user_id for s in seats.values()}:
            raise Refusal(
                _("%(name)s already has a seat at this table.") % {"name": invitee.username},
                code=Code.CONFLICT,
            )
        Invitation.objects.filter(
            table=table, status=Invitation.Status.PENDING, expires__lte=now
        ).update(status=Invitation.Status.EXPIRED)
        pending = Invitation.objects.filter(table=table, status=Invitation.Status.PENDING)
        if pending.filter(position=position).exists():
            raise Refusal(_("That seat is held for an invited player."), code=Code.CONFLICT)
        if invitee is not None and pending.filter(invitee=invitee).exists():
            raise Refusal(
                _("%(name)s is already invited to this table.") % {"name": invitee.username},
                code=Code.CONFLICT,
            )
        if email and pending.filter(email__iexact=email).exists():
            raise Refusal(
                _("%(name)s is already invited to this table.") % {"name": email},
                code=Code.CONFLICT,
            )
        invitation = Invitation.objects.create(
            table=table,
            position=position,
            inviter=inviter,
            invitee=invitee,
            email=email,
            expires=now + datetime.timedelta(days=INVITATION_DAYS),
        )
        table_id = table.pk
        transaction.on_commit(lambda: game_realtime.broadcast_table_changed(table_id), robust=True)
        if invitee is not None and not selectors.has_blocked(invitee.pk, inviter.pk):
            params = {"table": table.name, "inviter": inviter.username}
            url = invitation.get_absolute_url()
            transaction.on_commit(lambda: _tell(invitee, "invitation", url, params), robust=True)
        elif email:
            invitation_id = invitation.pk
            transaction.on_commit(
                lambda: signals.invitation_to_mail.send(
                    sender=Invitation, invitation_id=invitation_id
                ),
                robust=True,
            )
    return invitation


def _live_invitation_for(token: str, user: User) -> Invitation:
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("table", "inviter")
        .filter(token=token[:64])
        .first()
    )
    if invitation is None or (
        invitation.invitee_id is not None and invitation.invitee_id != user.pk
    ):
        raise Refusal(_("This invitation is not for you."), code=Code.NOT_FOUND)
    if invitation.invitee_id is not None and selectors.has_blocked(user.pk, invitation.inviter_id):
        raise Refusal(_("This invitation is not for you."), code=Code.NOT_FOUND)
    if not invitation.is_live():
        raise Refusal(_("This invitation is no longer open."), 410, code=Code.CONFLICT)
    return invitation


def invitation_accept(*, token: str, user: User) -> Table:
    """Take the held seat (the game starts if it was the last one)."""
    _not_guest(user)
    with transaction.atomic():
        invitation = _live_invitation_for(token, user)
        if invitation.invitee_id is None:  # an e-mailed link: its holder is the invitee
            invitation.invitee = user
            invitation.save(update_fields=["invitee"])
        # games refuses a seat it will not give (a Refusal), and nothing is kept.
        game_services.table_join(table=invitation.table, user=user, position=invitation.position)
        invitation.refresh_from_db()
        invitation.status = Invitation.Status.ACCEPTED
        invitation.answered = timezone.now()
        invitation.save(update_fields=["status", "answered"])
        return invitation.table


def invitation_decline(*, token: str, user: User) -> None:
    with transaction.atomic():
        invitation = _live_invitation_for(token, user)
        _close(invitation, Invitation.Status.DECLINED)


def invitation_cancel(*, invitation_id: int, user: User) -> None:
    """The inviter (or the table's owner) takes an invitation back: the seat is free again."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("table")
            .filter(pk=invitation_id, status=Invitation.Status.PENDING)
            .first()
        )
        if invitation is None or user.pk not in (invitation.inviter_id, invitation.table.owner_id):
            raise Refusal(_("There is no such invitation."), code=Code.NOT_FOUND)
        _close(invitation, Invitation.Status.CANCELLED)


def _close(invitation: Invitation, status: str) -> None:
    invitation.status = status
    invitation.answered = timezone.now()
    invitation.save(update_fields=["status", "answered"])
    table_id = invitation.table_id
    transaction.on_commit(lambda: game_realtime.broadcast_table_changed(table_id), robust=True)


def invitations_expire(now: datetime.datetime | None = None) -> int:
    """Invitations past their 7 days, or to tables whose game started without
    their invitee, are closed (Celery beat); their seats are free again."""
    now = now or timezone.now()
    stale = Invitation.objects.filter(status=Invitation.Status.PENDING).filter(
        Q(expires__lte=now) | ~Q(table__status=Table.Status.OPEN)
    )
    table_ids = set(stale.values_list("table_id", flat=True))
    n = stale.update(status=Invitation.Status.EXPIRED, answered=now)
    for table_id in table_ids:
        transaction.on_commit(
            functools.partial(game_realtime.broadcast_table_changed, table_id), robust=True
        )
    return n


def play_again(*, table: Table, user: User) -> Table:
    """A new table with the same options: the asker sits in their seat, the
    same bots in theirs, and the other people are invited to theirs."""
    seats = list(table.seats.select_related("user"))
    if table.status != Table.Status.FINISHED or user.pk not in {s.user_id for s in seats}:
        raise Refusal(_("Only the players of a finished game can play again."), code=Code.CONFLICT)
    # games may refuse (a cap on expert bots, a guest): nothing is made.
    return _play_again(table, user, seats)


def _play_again(table: Table, user: User, seats: list[Seat]) -> Table:
    with transaction.atomic():
        # The old name may hold characters refused since (direction marks,
        # zero-width characters): they are left out of the new table's.
        name = without_hidden_characters(table.name).strip() or _("Cutthroat table")
        new = game_services.table_create(
            owner=user,
            name=name,
            rules=table.rules,
            target=table.target,
            mode=table.mode,
            move_seconds=table.move_seconds,
            visibility=table.visibility,
            hints=table.hints,
        )
        mine = next(s.position for s in seats if s.user_id == user.pk)
        # table_create seats the owner in seat 0: keep everyone in their own seat
        # by numbering the new seats from the asker's.
        if mine != 0:
            Seat.objects.filter(table=new, position=0).update(user=None)
            Seat.objects.filter(table=new, position=mine).update(user=user)
        for s in seats:
            if s.position == mine:
                continue
            if s.user_id is not None and s.user is not None:
                if selectors.blocked_either_way(user.pk, s.user_id):
                    continue
                invitation_send(table=new, inviter=user, name=s.user.username, position=s.position)
            elif s.bot_level:
                game_services.table_set_bot(
                    table=new, user=user, position=s.position, level=s.bot_level
                )
    return new
