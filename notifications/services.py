"""Everything a notification does happens here; views, consumers and tasks only call in.

`notify` is the one door for the games app: it stores the in-app notification
(once per `turn_key`), pushes the new badge and a toast to the user's socket,
and after commit queues the e-mail batch and the web push that the user's
preferences, quiet hours and presence allow. The e-mail task sends one message
with every pending, still-relevant notification of the user, so several turns
combine and each is mailed at most once.

A notification stores what happened (kind and params); its words are written
when it is read or sent (notifications.texts). Whatever leaves the site for a
user (e-mail, push, the socket's badge and toast) is written in that user's
language (`texts.in_language_of`), whoever's request or task sends it.
"""

from __future__ import annotations

import datetime
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass

import requests
from django.conf import settings
from django.core import mail
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext
from pywebpush import WebPushException, webpush

from accounts import timezones
from accounts.models import User
from games import presence
from games.models import Game, Seat

from . import push_endpoints, realtime, signals, texts
from .models import Notification, Preferences, PushSubscription
from .texts import Params

log = logging.getLogger(__name__)

KINDS = set(Notification.Kind.values)
# Kinds about a turn: only worth an e-mail or push while the game still waits there.
TURN_KINDS = {Notification.Kind.TURN, Notification.Kind.REMINDER}
# What the table itself shows: not told at all (in-app, e-mail or push) to a
# player who has that table open.
SHOWN_AT_THE_TABLE = {*TURN_KINDS, Notification.Kind.GAME_STARTED, Notification.Kind.GAME_ENDED}
# The start and end of a live game are news only to a player who is not
# playing it (a bot stands in for them: Seat.away).
LIVE_NEWS = {Notification.Kind.GAME_STARTED, Notification.Kind.GAME_ENDED}
MAX_REMINDER_MINUTES = 24 * 60


# --------------------------------------------------------------------------- preferences


def preferences_for(user: User) -> Preferences:
    prefs, _ = Preferences.objects.get_or_create(user=user)
    return prefs


def preferences_by_token(token: str) -> Preferences | None:
    return Preferences.objects.filter(unsubscribe_token=token).first()


def preferences_unsubscribe(*, token: str) -> Preferences | None:
    """The one-click unsubscribe: e-mail off for the token's owner (None: unknown token)."""
    prefs = preferences_by_token(token)
    if prefs is None:
        return None
    if prefs.email_enabled or prefs.daily_digest:
        prefs.email_enabled = False
        prefs.daily_digest = False
        prefs.save(update_fields=["email_enabled", "daily_digest"])
    Notification.objects.filter(user_id=prefs.user_id, email_pending=True).update(
        email_pending=False
    )
    return prefs


def time_zone_of(prefs: Preferences) -> datetime.tzinfo:
    """The user's zone for quiet hours and the times in their e-mails: their
    profile's (User.time_zone, the one home, accounts.timezones), else one
    kept here from before it, else UTC."""
    return timezones.zone_of(prefs.user) or timezones.zone_named(prefs.time_zone) or datetime.UTC


def _local_time(prefs: Preferences, now: datetime.datetime) -> datetime.datetime:
    return now.astimezone(time_zone_of(prefs))


def in_quiet_hours(prefs: Preferences, now: datetime.datetime) -> bool:
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return False
    t = _local_time(prefs, now).time().replace(tzinfo=None)
    if start < end:
        return start <= t < end
    return t >= start or t < end  # over midnight, e.g. 22:00-07:00


def quiet_hours_end(prefs: Preferences, now: datetime.datetime) -> datetime.datetime:
    """When the quiet hours that `now` falls in are over (aware, UTC)."""
    assert prefs.quiet_end is not None
    local = _local_time(prefs, now)
    end = datetime.datetime.combine(local.date(), prefs.quiet_end, tzinfo=local.tzinfo)
    if end <= local:
        end = datetime.datetime.combine(
            local.date() + datetime.timedelta(days=1), prefs.quiet_end, tzinfo=local.tzinfo
        )
    return end.astimezone(datetime.UTC)


def push_configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


class PushSubscriptionTaken(Exception):
    """The endpoint is registered by another account; it is not moved."""


def push_subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    """Store the browser's subscription and switch push on for the user.

    The endpoint must pass `push_endpoints.check_endpoint` (else EndpointRefused,
    whose message is for the user). An endpoint that another account registered
    stays theirs (PushSubscriptionTaken); the same user posting it again gets
    the new keys.
    """
    push_endpoints.check_endpoint(endpoint)
    sub = _push_subscription_store(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    Preferences.objects.get_or_create(user=user)
    Preferences.objects.filter(user=user).update(push_enabled=True)
    return sub


def _push_subscription_store(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    for _ in range(2):
        own = PushSubscription.objects.filter(endpoint=endpoint, user=user)
        if own.update(p256dh=p256dh, auth=auth):
            return own.get()
        try:
            with transaction.atomic():
                return PushSubscription.objects.create(
                    user=user, endpoint=endpoint, p256dh=p256dh, auth=auth
                )
        except IntegrityError:  # someone has it: this user (a race with itself) or another
            if not PushSubscription.objects.filter(endpoint=endpoint, user=user).exists():
                raise PushSubscriptionTaken(endpoint) from None
    raise PushSubscriptionTaken(endpoint)


def push_endpoints_of(user: User) -> list[str]:
    return list(PushSubscription.objects.filter(user=user).values_list("endpoint", flat=True))


def push_subscription_delete(*, user: User, endpoint: str) -> None:
    PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    if not PushSubscription.objects.filter(user=user).exists():
        Preferences.objects.filter(user=user).update(push_enabled=False)


def push_subscriptions_forget(*, user: User, endpoints: list[str]) -> None:
    """On log-out: the subscriptions that this browser registered during the session go."""
    if endpoints and PushSubscription.objects.filter(user=user, endpoint__in=endpoints).exists():
        PushSubscription.objects.filter(user=user, endpoint__in=endpoints).delete()
        if not PushSubscription.objects.filter(user=user).exists():
            Preferences.objects.filter(user=user).update(push_enabled=False)


# --------------------------------------------------------------------------- in-app


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_for(user: User, limit: int = 100) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user).select_related("game__table")[:limit]


def mark_read(user: User, notification_id: int) -> Notification | None:
    """Mark one of the user's notifications read; None if it is not theirs."""
    note = Notification.objects.filter(pk=notification_id, user=user).first()
    if note is None:
        return None
    if note.read_at is None:
        note.read_at = timezone.now()
        note.save(update_fields=["read_at"])
        _push_badge_on_commit(user)
    return note


def mark_all_read(user: User) -> int:
    changed = Notification.objects.filter(user=user, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    _push_badge_on_commit(user)
    return changed


def mark_read_by_key(*, user_id: int, kind: str, key_prefix: str) -> int:
    """Mark read the user's unread notifications of `kind` whose key starts
    with `key_prefix` (e.g. a table's chat once its page is open)."""
    unread = Notification.objects.filter(
        user_id=user_id, kind=kind, turn_key__startswith=key_prefix, read_at__isnull=True
    )
    return _read_now(unread, user_id)


def _read_now(unread: QuerySet[Notification], user_id: int) -> int:
    """Mark `unread` (the user's) read, and push the badge if any changed.
    Looks before writing: most calls find nothing and take no write lock."""
    if not unread.exists():
        return 0
    changed = unread.update(read_at=timezone.now())
    if changed:
        user = User.objects.filter(pk=user_id).first()
        if user is not None:
            _push_badge_on_commit(user)
    return changed


def badge_html(count: int, *, oob: bool = False) -> str:
    return render_to_string("notifications/badge.html", {"count": count, "oob": oob})


def _push_badge_on_commit(user: User) -> None:
    user_id = user.pk

    def push() -> None:
        with texts.in_language_of(user):
            realtime.send_to_user(user_id, badge_html(_count_for_id(user_id), oob=True))

    transaction.on_commit(push, robust=True)


def _count_for_id(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


# --------------------------------------------------------------------------- notify


def notify(
    *,
    user: User,
    kind: str,
    game: Game | None,
    url: str,
    params: Params | None = None,
    text: str = "",
    turn_key: str | None = None,
) -> Notification | None:
    """Tell `user` about `game`: in-app now, e-mail and push as their preferences allow.

    `params` are the facts of `kind` (see notifications.texts); the words are
    written when the notification is read or sent, in the reader's language.
    `text` is an English sentence for a sender without params (stored, shown
    as it is). With a `turn_key` the same (user, kind, turn_key) is told once;
    a repeat returns None. Call it after the game's change is committed.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    params = dict(params or {})
    if user is None or not user.is_active:
        return None
    if game is not None and not worth_telling(user, kind, game):
        return None
    if (
        turn_key is not None
        and Notification.objects.filter(user=user, kind=kind, turn_key=turn_key).exists()
    ):
        return None
    prefs = preferences_for(user)
    on_page = game is not None and presence.is_on_table_page(game.table_id, user.pk)
    want_email = prefs.email_enabled and bool(user.email) and not on_page
    want_push = (
        prefs.push_enabled
        and push_configured()
        and not on_page
        and not in_quiet_hours(prefs, timezone.now())
    )
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user=user,
                kind=kind,
                game=game,
                game_version=game.version if game is not None else None,
                params=params,
                text=text[:200],
                url=url,
                turn_key=turn_key,
                email_pending=want_email,
            )
    except IntegrityError:  # the same turn told twice at once
        return None

    user_id, note_id = user.pk, note.pk

    def after_commit() -> None:
        with texts.in_language_of(user):  # the recipient's, not the acting player's
            frame = badge_html(_count_for_id(user_id), oob=True)
            if not on_page:  # the table itself already shows it: no toast over the cards
                frame += toast_html(note)
        realtime.send_to_user(user_id, frame)
        if want_email or want_push:  # notifications.receivers queues them
            signals.notification_stored.send(
                sender=Notification,
                user_id=user_id,
                notification_id=note_id,
                email=want_email,
                push=want_push,
            )

    transaction.on_commit(after_commit, robust=True)
    return note


def worth_telling(user: User, kind: str, game: Game) -> bool:
    """Attention is the player's: nothing the open table already shows them
    (SHOWN_AT_THE_TABLE), and no start or end of a live game they are
    playing themselves (LIVE_NEWS: told only while a bot stands in)."""
    if kind in SHOWN_AT_THE_TABLE and presence.is_on_table_page(game.table_id, user.pk):
        return False
    if kind in LIVE_NEWS and game.table.mode == game.table.Mode.LIVE:
        return Seat.objects.filter(table_id=game.table_id, user=user, away=True).exists()
    return True


def seen_at_table(*, user_id: int, table_id: int) -> int:
    """The player opened the table: the notices about its games are read
    (its chat's too: chat.services.notifications_seen)."""
    unread = Notification.objects.filter(
        user_id=user_id, game__table_id=table_id, read_at__isnull=True
    ).exclude(kind=Notification.Kind.CHAT)
    return _read_now(unread, user_id)


def toast_html(note: Notification) -> str:
    """The toast in the active language (the socket's sender sets the recipient's)."""
    return render_to_string("notifications/toast.html", {"note": note})


def still_relevant(note: Notification, game: Game | None = None) -> bool:
    """A turn or reminder matters while the game still waits for this user at that version."""
    if note.kind not in TURN_KINDS:
        return True
    game = game if game is not None else note.game
    if game is None or game.status != Game.Status.PLAYING or game.to_act is None:
        return False
    if note.game_version is not None and game.version != note.game_version:
        return False
    return Seat.objects.filter(
        table_id=game.table_id, position=game.to_act, user_id=note.user_id, bot_level=""
    ).exists()


def _on_page(note: Notification) -> bool:
    return note.game is not None and presence.is_on_table_page(note.game.table_id, note.user_id)


def absolute(url: str) -> str:
    return url if "://" in url else f"{settings.SITE_URL}{url}"


# --------------------------------------------------------------------------- e-mail


@dataclass
class EmailOutcome:
    sent: int = 0  # notifications in the message (0: no message)
    skipped: int = 0  # pending ones dropped: game moved on, or the player is looking
    retry_at: datetime.datetime | None = None  # quiet hours: try again then


def unsubscribe_url(prefs: Preferences) -> str:
    return absolute(reverse("notifications:unsubscribe", args=[prefs.unsubscribe_token]))


def _send_mail(
    *, user: User, prefs: Preferences, subject: str, template: str, context: Mapping[str, object]
) -> None:
    """Call it in the user's language (`texts.in_language_of`): subject and body are theirs."""
    unsubscribe = unsubscribe_url(prefs)
    ctx = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe,
        "preferences_url": absolute(reverse("notifications:preferences")),
        "site_url": settings.SITE_URL,
        "time_zone": time_zone_of(prefs),
    }
    with timezone.override(ctx["time_zone"]):  # every time in it is the reader's
        message = mail.EmailMultiAlternatives(
            subject=" ".join(subject.split()),  # no line breaks from table names in a header
            body=render_to_string(f"notifications/email/{template}.txt", ctx),
            to=[user.email],
            headers={
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Content-Language": translation.get_language() or settings.LANGUAGE_CODE,
            },
        )
        message.attach_alternative(
            render_to_string(f"notifications/email/{template}.html", ctx), "text/html"
        )
    message.send()


def email_subject(items: list[Notification]) -> str:
    """The subject of a batch, in the active language."""
    turns = [n for n in items if n.kind in TURN_KINDS]
    first = turns[0] if turns else items[0]
    table = first.game.table.name if first.game is not None else ""
    if turns and table:
        # Translators: an e-mail's subject: it is the reader's move at the table %(table)s.
        head = gettext("Your turn in %(table)s") % {"table": table}
    else:
        head = texts.words(first)
    # "more" counts other games: a game's start and its first turn are one.
    subjects = {n.game_id if n.game_id is not None else f"n{n.pk}" for n in items}
    more = len(subjects) - 1
    if not more:
        return head
    # Translators: an e-mail's subject when it tells of several games: %(subject)s is the first one's subject ("Your turn in Friday table"), %(more)d how many other games it tells of.
    return ngettext("%(subject)s (and %(more)d more)", "%(subject)s (and %(more)d more)", more) % {
        "subject": head,
        "more": more,
    }


def send_pending_emails(user_id: int, *, now: datetime.datetime | None = None) -> EmailOutcome:
    """One e-mail with all of the user's pending notifications that still matter."""
    now = now or timezone.now()
    outcome = EmailOutcome()
    with transaction.atomic():
        pending = list(
            Notification.objects.select_for_update(of=("self",))
            .filter(user_id=user_id, email_pending=True)
            .select_related("user", "game__table")
            .order_by("created", "pk")
        )
        if not pending:
            return outcome
        user = pending[0].user
        prefs = preferences_for(user)
        if not prefs.email_enabled or not user.email:
            Notification.objects.filter(pk__in=[n.pk for n in pending]).update(email_pending=False)
            outcome.skipped = len(pending)
            return outcome
        if in_quiet_hours(prefs, now):
            outcome.retry_at = quiet_hours_end(prefs, now)
            return outcome
        items: list[Notification] = []
        seen_turns: set[int] = set()  # one line per game: its newest turn
        for note in reversed(pending):
            if not still_relevant(note) or _on_page(note):
                continue
            if note.kind in TURN_KINDS and note.game_id is not None:
                if note.game_id in seen_turns:
                    continue
                seen_turns.add(note.game_id)
            items.append(note)
        items.reverse()
        # Claimed inside the transaction: a second task for the same user finds nothing.
        Notification.objects.filter(pk__in=[n.pk for n in pending]).update(email_pending=False)
        Notification.objects.filter(pk__in=[n.pk for n in items]).update(emailed_at=now)
        outcome.skipped = len(pending) - len(items)
        if not items:
            return outcome
        with texts.in_language_of(user):
            lines = [
                {
                    "note": n,
                    "text": texts.words(n),
                    "link": absolute(n.url),
                    "deadline": n.game.deadline
                    if n.kind in TURN_KINDS and n.game is not None
                    else None,
                }
                for n in items
            ]
            _send_mail(
                user=user,
                prefs=prefs,
                subject=email_subject(items),
                template="notifications",
                context={"lines": lines},
            )
        outcome.sent = len(items)
    return outcome


def games_waiting_for(user: User) -> QuerySet[Game]:
    """Games under way whose seat to act is the user's own (not handed to a bot)."""
    return (
        Game.objects.filter(
            status=Game.Status.PLAYING,
            to_act__isnull=False,
        )
        .filter(
            table__seats__user=user,
            table__seats__bot_level="",
            table__seats__position=F("to_act"),
        )
        .select_related("table")
        .order_by("deadline", "pk")
    )


def send_daily_digests() -> int:
    """The opt-in digest: one e-mail per user with games waiting for them."""
    sent = 0
    for prefs in Preferences.objects.filter(daily_digest=True, email_enabled=True).select_related(
        "user"
    ):
        user = prefs.user
        if not user.is_active or not user.email:
            continue
        games = list(games_waiting_for(user))
        if not games:
            continue
        n = len(games)
        lines = [{"game": g, "link": absolute(g.get_absolute_url())} for g in games]
        with texts.in_language_of(user):
            _send_mail(
                user=user,
                prefs=prefs,
                # Translators: the subject of the daily digest e-mail, which lists the games waiting for the reader's move.
                subject=ngettext(
                    "%(count)d game waiting for your move",
                    "%(count)d games waiting for your move",
                    n,
                )
                % {"count": n},
                template="digest",
                context={"lines": lines},
            )
        sent += 1
    return sent


# --------------------------------------------------------------------------- reminders


def due_reminders(now: datetime.datetime) -> list[tuple[Game, User]]:
    """(game, user) pairs whose deadline is within the user's reminder lead time."""
    games = (
        Game.objects.filter(
            status=Game.Status.PLAYING,
            to_act__isnull=False,
            deadline__gt=now,
            deadline__lte=now + datetime.timedelta(minutes=MAX_REMINDER_MINUTES),
        )
        .select_related("table")
        .order_by("deadline")
    )
    due = []
    for game in games:
        assert game.to_act is not None
        seat = (
            Seat.objects.filter(table_id=game.table_id, position=game.to_act, bot_level="")
            .exclude(user__isnull=True)
            .select_related("user")
            .first()
        )
        if seat is None or seat.user is None:
            continue
        prefs = preferences_for(seat.user)
        lead = prefs.reminder_minutes
        assert game.deadline is not None
        due_at = game.deadline - datetime.timedelta(minutes=lead)
        if lead and due_at <= now and reminder_worth_it(game.table.move_seconds, lead):
            due.append((game, seat.user))
    return due


# A reminder comes at least this long after the turn's own notice.
REMINDER_GAP = datetime.timedelta(minutes=1)


def reminder_worth_it(move_seconds: int | None, lead_minutes: int) -> bool:
    """A deadline reminder tells something the turn's notice did not only
    when the time limit is longer than the reminder's lead, by at least
    REMINDER_GAP (on a one-hour table a two-hour lead would remind at once)."""
    if not move_seconds:
        return False
    return datetime.timedelta(seconds=move_seconds) >= (
        datetime.timedelta(minutes=lead_minutes) + REMINDER_GAP
    )


def send_reminders(now: datetime.datetime | None = None) -> int:
    """One "reminder" per (game, version) whose lead time has come."""
    now = now or timezone.now()
    sent = 0
    for game, user in due_reminders(now):
        assert game.deadline is not None
        minutes = max(1, round((game.deadline - now).total_seconds() / 60))
        note = notify(
            user=user,
            kind=Notification.Kind.REMINDER,
            game=game,
            params={"table": game.table.name, "minutes": minutes},
            url=game.get_absolute_url(),
            turn_key=f"reminder:{game.pk}:{game.version}",
        )
        sent += note is not None
    return sent


# --------------------------------------------------------------------------- web push


def send_push(notification_id: int, *, now: datetime.datetime | None = None) -> int:
    """Push one notification to each of the user's browsers; returns how many took it.

    A subscription the push service says is gone (404/410) is deleted, and so
    is one whose endpoint is no longer acceptable (push_endpoints).
    """
    now = now or timezone.now()
    note = (
        Notification.objects.select_related("user", "game__table")
        .filter(pk=notification_id, pushed_at__isnull=True)
        .first()
    )
    if note is None or not push_configured():
        return 0
    prefs = preferences_for(note.user)
    if (
        not prefs.push_enabled
        or in_quiet_hours(prefs, now)
        or note.read_at is not None
        or not still_relevant(note)
        or _on_page(note)
    ):
        return 0
    if not Notification.objects.filter(pk=note.pk, pushed_at__isnull=True).update(pushed_at=now):
        return 0  # another task pushed it
    payload = push_payload(note)
    delivered = 0
    for sub in PushSubscription.objects.filter(user_id=note.user_id):
        if _push_one(sub, payload):
            delivered += 1
    return delivered


def push_payload(note: Notification) -> str:
    """The push's JSON: title and body already in the recipient's language (the
    service worker shows them as they come), and the absolute link."""
    with texts.in_language_of(note.user):
        # Translators: the site's name, the title of its browser notifications.
        title, body = gettext("Cutthroat Euchre"), texts.words(note)
    return json.dumps({"title": title, "body": body, "url": absolute(note.url)})


def _push_one(sub: PushSubscription, payload: str) -> bool:
    """One subscription, checked again now (see push_endpoints); never raises."""
    where = sub.endpoint[:60]
    try:
        with push_endpoints.pinned_session(sub.endpoint) as session:
            webpush(
                subscription_info=sub.subscription_info(),
                data=payload,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": f"mailto:{settings.VAPID_CLAIMS_EMAIL}"},
                ttl=3600,
                timeout=settings.WEB_PUSH_TIMEOUT,
                requests_session=session,
            )
        return True
    except push_endpoints.EndpointRefused as exc:
        if exc.permanent:
            log.warning("web push subscription %s refused and deleted: %s", sub.pk, exc)
            sub.delete()
        else:
            log.warning("web push to %s skipped: %s", where, exc)
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            sub.delete()
        else:  # a 3xx too: redirects are not followed
            reason = getattr(exc.response, "reason", None) or str(exc)[:100]
            log.warning("web push to %s failed: HTTP %s %s", where, status, reason)
    except requests.RequestException as exc:
        log.warning("web push to %s failed: %s", where, exc)
    except Exception:  # a dead endpoint must not stop the others
        log.exception("web push to %s failed", where)
    return False
