"""What other apps ask of the social graph (reads only)."""

from __future__ import annotations

from django.db.models import Q

from .models import Block, FriendRequest, Mute


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
