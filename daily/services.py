"""Every state change of the daily deal, one function each.

A day's deal is fixed once (`deal_for_day`: a secret seed from `secrets`,
five deals and the first dealer drawn from it). A player's attempt is a
private live table of the games app with two hard bots
(`games.services.daily_table_create`): the same seat, the same cards and
dealer order for everyone, and the bots' randomness fixed by the seed, so
identical play meets identical bot moves. The results are computed by
daily.tasks as hands end (`entry_update`, then `day_results_update` at most
every tasks.DAY_RESULTS_EVERY seconds a day). The services queue no task:
what must follow a commit is announced (daily.signals) and daily.receivers
queues it, so the imports go one way (tasks -> services).
"""

from __future__ import annotations

import datetime
import hashlib
import random
import secrets
from typing import TypedDict

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import guests
from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import engine
from games import services as games
from games.engine import Rules
from games.models import Game
from stats.facts import DAILY
from stats.models import GameFact

from . import signals
from .models import HANDS, SEAT, DailyDeal, Entry


def today(now: datetime.datetime | None = None) -> datetime.date:
    """The current UTC day: a new deal starts at 00:00 UTC."""
    return (now or timezone.now()).astimezone(datetime.UTC).date()


# A hand record's `deal` (docs/hand-record.md): every card once.
Deal = engine.RecordDeal


def draw_deals(seed: str, rules: Rules) -> tuple[int, list[Deal]]:
    """The first dealer and the day's deals, drawn from its seed (hex): the
    seed alone gives them back, which anyone can check once it is shown."""
    rng = random.Random(int(seed, 16))
    first_dealer = rng.randrange(3)
    deals = [
        engine.hand_to_record(engine.new_hand(rules, (first_dealer + n) % 3, rng))["deal"]
        for n in range(HANDS)
    ]
    return first_dealer, deals


def bot_seed(seed: str) -> str:
    """The bots' seed of a day (games.tasks.fixed_rng): from the day's seed,
    one way, so no game row carries the day's seed itself."""
    return hashlib.sha256(f"daily-bots:{seed}".encode()).hexdigest()


def deal_for_day(*, day: datetime.date) -> DailyDeal:
    """The day's deal, made now if nobody made it yet (the beat at 00:00 UTC,
    or the first page that asks): race-safe, one row per date."""
    existing = DailyDeal.objects.filter(date=day).first()
    if existing is not None:
        return existing
    seed = secrets.token_hex(32)
    rules = Rules()
    first_dealer, deals = draw_deals(seed, rules)
    deal, _created = DailyDeal.objects.get_or_create(
        date=day,
        defaults={
            "seed": seed,
            "rules": rules.to_dict(),
            "first_dealer": first_dealer,
            "deals": deals,
        },
    )
    return deal


def attempt_start(*, user: User, now: datetime.datetime | None = None) -> Entry:
    """Start the player's attempt at today's deal, or give back the one under
    way (it is resumed at the same table). A second attempt after the first
    ended is refused (a Refusal, CONFLICT) and changes nothing."""
    if guests.is_guest(user):
        raise Refusal(guests.refusal(), code=Code.GUEST)
    day = today(now)
    entries_close_past(day=day, user=user)
    deal = deal_for_day(day=day)
    with transaction.atomic():
        entry = Entry.objects.filter(deal=deal, user=user).first()
        if entry is None:
            try:
                with transaction.atomic():
                    entry = Entry.objects.create(deal=deal, user=user)
            except IntegrityError:  # the same player's second click, a moment apart
                entry = Entry.objects.get(deal=deal, user=user)
            else:
                fixed = games.FixedDeals(
                    deals=tuple(deal.deals),
                    first_dealer=deal.first_dealer,
                    bot_seed=bot_seed(deal.seed),
                )
                entry.game = games.daily_table_create(
                    owner=user, day=day, rules=deal.rules, fixed=fixed
                )
                entry.streak = streak_of(user_id=user.pk, day=day)
                entry.save(update_fields=["game", "streak"])
                return entry
        if entry.status != Entry.Status.PLAYING:
            raise Refusal(
                # Translators: the daily deal (the same five deals for every player) is played once a day; the next starts at midnight UTC.
                _("You have played today's daily deal already. The next one starts at 00:00 UTC."),
                code=Code.CONFLICT,
            )
        return entry


def attempt_stop(*, user: User, now: datetime.datetime | None = None) -> Entry:
    """The player leaves today's deal half-played: the hands played so far
    count, the hand in progress and the rest do not (they score nothing)."""
    entry = Entry.objects.filter(deal__date=today(now), user=user).select_related("game").first()
    if entry is None or entry.status != Entry.Status.PLAYING:
        # Translators: the player asked to stop a daily deal they are not playing.
        raise Refusal(_("You are not playing today's daily deal."), code=Code.CONFLICT)
    _stop(entry)
    return entry


def entries_close_past(*, day: datetime.date, user: User | None = None) -> int:
    """Attempts of days before `day` still under way end now (the day is
    over): their hands played so far count. Returns how many ended."""
    stale = Entry.objects.filter(deal__date__lt=day, status=Entry.Status.PLAYING)
    if user is not None:
        stale = stale.filter(user=user)
    n = 0
    for entry in stale.select_related("game"):
        _stop(entry)
        n += 1
    return n


def _stop(entry: Entry) -> None:
    with transaction.atomic():
        # The game's end announces itself (games.signals.game_finished), and
        # daily.receivers queues the day's results; else this entry announces it.
        stopped = entry.game_id is not None and games.game_stop(game_id=entry.game_id)
        entry_refresh(entry=entry)
        if entry.status == Entry.Status.PLAYING:  # the game was gone or over already
            entry.status, entry.ended = Entry.Status.STOPPED, timezone.now()
            entry.save(update_fields=["status", "ended"])
        if not stopped:
            entry_id = entry.pk

            transaction.on_commit(
                lambda: signals.entry_ended.send(sender=Entry, entry_id=entry_id), robust=True
            )


def entry_refresh(*, entry: Entry) -> bool:
    """The entry's points from its game's finished hands (the player's own
    points in each), and its end once its game is over. Idempotent; returns
    whether anything changed."""
    game = Game.objects.filter(pk=entry.game_id).first() if entry.game_id else None
    before = (list(entry.points), entry.status)
    if game is not None:
        results = game.hands.filter(result__complete=True).order_by("number")
        entry.points = [
            int(result["points"][SEAT])
            for result in results.values_list("result", flat=True)
            if result  # all of them: complete ones
        ]
        entry.total = sum(entry.points)
        if game.status == Game.Status.FINISHED and entry.status == Entry.Status.PLAYING:
            entry.status = (
                Entry.Status.FINISHED if len(entry.points) >= HANDS else Entry.Status.STOPPED
            )
            entry.ended = game.finished or timezone.now()
    changed = (entry.points, entry.status) != before
    if changed:
        entry.save(update_fields=["points", "total", "status", "ended"])
    return changed


def streak_of(*, user_id: int, day: datetime.date) -> int:
    """Days in a row the player has played the daily deal, up to `day`
    (UTC days; a day counts once its attempt is started)."""
    dates = (
        Entry.objects.filter(user_id=user_id, deal__date__lte=day)
        .order_by("-deal__date")
        .values_list("deal__date", flat=True)[:3660]
    )
    streak, expected = 0, day
    for d in dates:
        if d != expected:
            break
        streak += 1
        expected = d - datetime.timedelta(days=1)
    return streak


def places(totals: list[int]) -> list[int]:
    """1 for the highest total; equal totals share a place (1, 2, 2, 4)."""
    return [1 + sum(other > t for other in totals) for t in totals]


# The day's leaderboard ranks only accounts that cost something to make: a
# verified address, and a day's age when the attempt began or this many
# finished games (a throwaway account's result shows, marked unranked).
RANKED_AFTER_GAMES = 10
RANKED_AFTER_AGE = datetime.timedelta(days=1)


def ranked_entries(entries: list[Entry]) -> set[int]:
    """The ids of the entries that the day's leaderboard ranks (see above)."""
    if not entries:
        return set()
    user_ids = {e.user_id for e in entries}
    verified = set(
        EmailAddress.objects.filter(user_id__in=user_ids, verified=True).values_list(
            "user_id", flat=True
        )
    )
    joined = dict(get_user_model().objects.filter(pk__in=verified).values_list("pk", "date_joined"))
    games = dict(
        GameFact.objects.filter(user_id__in=verified, counted=True)
        .exclude(rating_note=DAILY)
        .values("user_id")
        .annotate(n=Count("pk"))
        .values_list("user_id", "n")
    )
    return {
        e.pk
        for e in entries
        if e.user_id in verified
        and not e.hidden
        and (
            e.started - joined[e.user_id] >= RANKED_AFTER_AGE
            or games.get(e.user_id, 0) >= RANKED_AFTER_GAMES
        )
    }


class HandFigures(TypedDict):
    """One hand of the day over its ranked players (None: nobody played it)."""

    best: int | None
    average: float | None
    players: int
    best_entry: int | None  # the id of the first entry with the best score


class DaySummary(TypedDict):
    """DailyDeal.summary: the day's figures as last computed."""

    players: int
    hands: list[HandFigures]
    at: str  # when, ISO 8601 (selectors.lagging compares an entry's end)


def day_results_update(*, deal_id: int) -> DaySummary | None:
    """Recompute the day's figures from its ranked entries (`ranked_entries`;
    staff-hidden ones never count): each hand's best score (and whose), the
    average and how many played it, over the players who played that hand;
    each ranked player's place by total (others have none). Serialised on the
    day's row, so two workers finishing hands at once cannot write a stale view."""
    with transaction.atomic():
        deal = DailyDeal.objects.select_for_update().filter(pk=deal_id).first()
        if deal is None:
            return None
        everyone = [e for e in deal.entries.order_by("pk") if e.points]
        ranked = ranked_entries(everyone)
        for e in everyone:
            e.ranked = e.pk in ranked
        Entry.objects.bulk_update(everyone, ["ranked"])
        deal.entries.filter(points=[]).update(ranked=False)
        entries = [e for e in everyone if e.ranked]
        hands: list[HandFigures] = []
        for n in range(HANDS):
            played = [(e.points[n], e.pk) for e in entries if len(e.points) > n]
            if not played:
                hands.append({"best": None, "average": None, "players": 0, "best_entry": None})
                continue
            best = max(p for p, _ in played)
            hands.append(
                {
                    "best": best,
                    "average": round(sum(p for p, _ in played) / len(played), 2),
                    "players": len(played),
                    "best_entry": next(pk for p, pk in played if p == best),
                }
            )
        ranks = places([e.total for e in entries])
        for entry, place in zip(entries, ranks, strict=True):
            entry.place = place
        Entry.objects.bulk_update(entries, ["place"])
        deal.entries.exclude(pk__in=[e.pk for e in entries]).update(place=None)
        summary: DaySummary = {
            "players": len(entries),
            "hands": hands,
            "at": timezone.now().isoformat(),
        }
        deal.summary = summary
        deal.save(update_fields=["summary"])
    return summary


def entry_update(*, entry_id: int, day: bool = True) -> int | None:
    """An entry's points and end, and its streak; with `day`, the day's
    figures and places too (else the caller queues them). Returns the day's
    row id, or None if the entry is gone."""
    entry = Entry.objects.filter(pk=entry_id).select_related("deal").first()
    if entry is None:
        return None
    entry_refresh(entry=entry)
    streak = streak_of(user_id=entry.user_id, day=entry.deal.date)
    if streak != entry.streak:
        entry.streak = streak
        entry.save(update_fields=["streak"])
    if day:
        day_results_update(deal_id=entry.deal_id)
    return entry.deal_id


def new_day(*, now: datetime.datetime | None = None) -> DailyDeal:
    """The beat at 00:00 UTC: fix the new day's deal, and end the attempts
    of earlier days still under way (their hands played so far count)."""
    day = today(now)
    deal = deal_for_day(day=day)
    entries_close_past(day=day)
    return deal
