"""Hard-bot review of a finished hand: at each of one person's decisions,
what the hard bot would have done and in how many of the deals it imagined
each move was the best one.

Only the person's own moves are theirs to review: a move a bot made for them
(autopilot, a stand-in, their time running out) is left out. A share is kept
only where the search compared moves: where it had one move to try (the cards
were equal, or it chose by rules of thumb) the share is None, and two equal
cards count as the same move.

Runs only on finished hands and only over the requesting person's own seat
(the views it asks about are that seat's, as the person saw them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import access, bots, engine
from games.bots import hard
from games.bots.common import Knowledge
from games.engine.cards import CARD_INDEX
from games.models import Hand

from . import signals
from .facts import bot_made
from .models import HandFact, Review
from .services import player_stats_recompute

BUDGET_MS = 120


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The bot's choice matches the person's: the dummy decision by its kind
    (the five kept are a second step the view cannot yet rank)."""
    if a.get("type") != b.get("type"):
        return False
    if a["type"] == "dummy":
        return True
    keys = ("card", "suit", "discard")
    return all(a.get(k) == b.get(k) for k in keys)


def _equal_cards(view: Any, a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two card plays that are the same card for this seat (no card still out
    ranks between them): the search tries only one of them."""
    if a.get("type") != "play" or b.get("type") != "play":
        return False
    k = Knowledge.from_view(view)
    return hard._same_run(k, CARD_INDEX[a["card"]], CARD_INDEX[b["card"]])


def decisions_of(record: dict[str, Any], seat: int) -> list[tuple[int, dict[str, Any], Any]]:
    """(index, action, state before it) of each real choice the seat's person
    made (not those a bot made for them)."""
    state = engine.hand_from_record({**record, "actions": []})
    out = []
    for i, a in enumerate(record["actions"]):
        if a["seat"] == seat and not bot_made(a):
            v = engine.view(state, seat)
            if len(v["legal_actions"]) > 1:
                out.append((i, a, state))
        state = engine.apply_recorded(state, engine.Action.from_dict(a))
    return out


def review_request(*, hand: Hand, user: User) -> Review:
    """Queue a review of `user`'s decisions in a finished hand they played."""
    if hand.result is None or not hand.result.get("complete"):
        # Translators: a hard-bot review (the strongest computer player looks at a person's decisions) was asked for a hand not yet over.
        raise Refusal(_("Only finished hands can be reviewed."), code=Code.CONFLICT)
    seat = access.seat_of(hand.game.table, user)
    if seat is None:
        # Translators: a hard-bot review was asked for by someone who did not play the hand.
        raise Refusal(_("You did not play this hand."), code=Code.FORBIDDEN)
    try:
        with transaction.atomic():
            review, created = Review.objects.get_or_create(
                hand=hand,
                user=user,
                defaults={"total_steps": len(decisions_of(hand.record, seat))},
            )
    except IntegrityError:
        return Review.objects.get(hand=hand, user=user)
    if created:
        rid = review.pk
        transaction.on_commit(
            lambda: signals.review_wanted.send(sender=Review, review_id=rid), robust=True
        )
    return review


AGREEMENT_HANDS = 20  # the most reviews one agreement run queues


def agreement_request(*, user: User, limit: int = AGREEMENT_HANDS) -> int:
    """Queue reviews of the player's last `limit` (at most AGREEMENT_HANDS)
    finished hands that have none (thrown-in hands hold few decisions and are
    left out); how many were queued. Nothing while any review of theirs is still
    queued or running: asking again before a run is done adds no work. The
    caller limits how often (AGREEMENT_RATE)."""
    with transaction.atomic():
        # One run at a time per player: the player's row is locked (on
        # PostgreSQL; SQLite's immediate transactions take the whole database),
        # so a second run at the same moment waits, then sees the first one's
        # reviews queued.
        list(
            get_user_model()
            .objects.select_for_update()
            .filter(pk=user.pk)
            .values_list("pk", flat=True)
        )
        pending = (Review.Status.QUEUED, Review.Status.RUNNING)
        if Review.objects.filter(user=user, status__in=pending).exists():
            return 0
        hand_ids = list(
            HandFact.objects.filter(user=user, thrown_in=False)
            .exclude(hand__reviews__user=user)
            .order_by("-finished", "-hand_id")
            .values_list("hand_id", flat=True)[: max(0, min(limit, AGREEMENT_HANDS))]
        )
        queued = 0
        for hand in Hand.objects.select_related("game__table").filter(pk__in=hand_ids):
            review_request(hand=hand, user=user)
            queued += 1
        return queued


def agreement_progress(*, user: User) -> dict[str, int]:
    """Reviews of the player's hands: how many in all, and how many done."""
    rows = Review.objects.filter(user=user)
    total = rows.count()
    done = rows.filter(status=Review.Status.DONE).count()
    return {"total": total, "done": done, "pending": total - done}


def run(*, review_id: int) -> str:
    review = Review.objects.select_related("hand__game__table", "user").filter(pk=review_id).first()
    if review is None or review.status == Review.Status.DONE:
        return "nothing to do"
    hand = review.hand
    if hand.result is None or not hand.result.get("complete"):
        return "not over"
    seat = access.seat_of(hand.game.table, review.user)
    if seat is None:
        return "not a player"
    todo = decisions_of(hand.record, seat)
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.RUNNING, total_steps=len(todo), done_steps=0
    )
    rng = random.Random(hand.pk)
    out = []
    agreed = 0
    for n, (index, action, state) in enumerate(todo, start=1):
        view = engine.view(state, seat)
        ranking = bots.analyse(view, rng, BUDGET_MS)
        best = ranking[0]["action"] if ranking else None
        mine = next((r for r in ranking if _same(r["action"], action)), None)
        mine = mine or next((r for r in ranking if _equal_cards(view, r["action"], action)), None)
        agree = best is not None and (_same(best, action) or _equal_cards(view, best, action))
        agreed += agree
        compared = len(ranking) > 1  # else no share means anything
        out.append(
            {
                "index": index,
                "action": action,
                "best": best,
                "best_share": round(ranking[0]["share"], 2) if compared else None,
                "my_share": (round(mine["share"], 2) if mine else 0.0) if compared else None,
                "agree": agree,
                "ranking": [
                    {"action": r["action"], "share": round(r["share"], 2), "score": r["score"]}
                    for r in ranking[:5]
                ],
            }
        )
        Review.objects.filter(pk=review.pk).update(done_steps=n, decisions=out)
    Review.objects.filter(pk=review.pk).update(
        status=Review.Status.DONE, decisions=out, agreed=agreed, total_steps=len(todo)
    )
    player_stats_recompute(user_id=review.user_id)
    return "done"
