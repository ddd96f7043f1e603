"""Celery tasks. A bot's move goes through the same service as a person's;
the game version makes a duplicate or late task a no-op."""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import logging
import random
import secrets
from collections.abc import Iterator

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone, translation

from accounts.models import User
from euchre_site.refusal import Refusal
from games import bots, engine

# hints: its task is defined beside its feature; autodiscovery imports games.tasks only.
from . import (
    hints,  # noqa: F401
    presence,
    realtime,
    services,
    signals,
    words,
)
from .models import Game, Seat, Table
from .signals import TellParams

log = logging.getLogger(__name__)


def bot_action(
    level: str, view: engine.GameView, rng: random.Random, *, capped: bool = True
) -> engine.Action:
    """Ask the seat's bot for one of the view's legal actions (`capped`: see
    games.bots.choose_action)."""
    return bots.choose_action(level, view, rng, capped=capped)


def fixed_rng(bot_seed: str, hand_number: int, seat: int, actions: int) -> random.Random:
    """The rng of one bot decision in a game of fixed deals: from the game's
    secret seed, the hand (0-based), the seat and the actions of the hand so
    far, so the same play meets the same decision in every attempt."""
    digest = hashlib.sha256(f"{bot_seed}:{hand_number}:{seat}:{actions}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _turn(game_id: int, version: int) -> tuple[Game, Seat] | str:
    """The game and the seat to act, if the game is still at `version`."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.PLAYING:
        return "stale"
    if game.to_act is None:
        return "no turn"
    return game, game.table.seats.select_related("user").get(position=game.to_act)


def _play(
    game: Game, seat: Seat, level: str, actor: services.Actor, owner: int | None = None
) -> str:
    """Decide the seat's move with the `level` bot and submit it. With
    `owner`, the decision (the search, a bot move's costly part) is made
    under that player's bot-move lock ("deferred" if another worker holds
    it); the move is stored and pushed after it is let go, so the next
    move it queues never finds it held."""
    if owner is None:
        action = _decide(game, seat, level)
    else:
        with owner_turn(owner) as mine:
            if not mine:
                return _again_later(game.pk, game.version, owner)
            action = _decide(game, seat, level)
    try:
        services.game_act(game_id=game.pk, version=game.version, action=action, actor=actor)
    except Refusal as exc:
        log.info("move for game %s v%s not applied: %s", game.pk, game.version, exc.message)
        return "refused"
    return "played"


def _decide(
    game: Game, seat: Seat, level: str, state: engine.GameState | None = None
) -> services.Move:
    if state is None:
        state = services.game_state(game)
    view = engine.game_view(state, seat.position)
    if game.bot_seed and state.current is not None:
        # The daily deal: fixed randomness and the hard bot's whole sample budget.
        rng = fixed_rng(
            game.bot_seed, len(state.hands) - 1, seat.position, len(state.current.actions)
        )
        action = bot_action(level, view, rng, capped=False).to_dict()
    else:
        action = bot_action(level, view, random.Random(secrets.randbits(64))).to_dict()
    # The actor's seat: game_act takes the move without it.
    return {key: value for key, value in action.items() if key != "seat"}


def _decide_at_once(game: Game, seat: Seat, state: engine.GameState) -> services.Move | None:
    """services.bot_act's decision: a bot that decides at once, under the
    game's lock; a searching bot's decision is made outside it (None)."""
    if seat.bot_level in bots.SEARCHING:
        return None
    return _decide(game, seat, seat.bot_level, state)


def owner_lock_key(owner_id: int) -> str:
    """The cache key held while a bot decides at a table `owner_id` opened."""
    return f"bot-turn-owner:{owner_id}"


@contextlib.contextmanager
def owner_turn(owner_id: int) -> Iterator[bool]:
    """Hold the lock of `owner_id`'s bots for the block, if no worker holds
    it (yields whether it was taken): one player's bots decide one at a time
    across all the workers, however many tables they run, so their searches
    keep at most one worker process busy (issue 21). It expires after
    BOT_OWNER_LOCK_SECONDS should the worker die; without the cache the
    move goes ahead unlocked (a move never waits on Redis's health)."""
    key, token = owner_lock_key(owner_id), secrets.token_hex(8)
    try:
        taken = cache.add(key, token, timeout=settings.BOT_OWNER_LOCK_SECONDS)
    except Exception:
        log.warning("bot-move lock of owner %s unavailable; moving unlocked", owner_id)
        taken = None
    if taken is None:
        yield True
        return
    try:
        yield taken
    finally:
        if taken:
            with contextlib.suppress(Exception):
                if cache.get(key) == token:  # not a later holder's, after an expiry
                    cache.delete(key)


def _owner_busy(owner_id: int) -> bool:
    try:
        return cache.get(owner_lock_key(owner_id)) is not None
    except Exception:
        return False


def _again_later(game_id: int, version: int, owner_id: int) -> str:
    """Queue the move again shortly, leaving the worker to others' moves."""
    delay = settings.BOT_OWNER_RETRY_SECONDS * random.uniform(0.75, 1.25)
    play_bot_turn.apply_async((game_id, version), {"owner": owner_id}, countdown=delay)
    return "deferred"


# Handlers of games.events (subscribed in games.apps): the services' after-commit
# news, queued as tasks.


def queue_bot_turn(game_id: int, version: int, *, owner: int | None, countdown: float) -> None:
    """A bot is to act at `version`: its move, `countdown` seconds from now.
    `owner` (a searching bot's; play_bot_turn) lets the task see a busy owner
    without a query."""
    play_bot_turn.apply_async(
        (game_id, version), {} if owner is None else {"owner": owner}, countdown=countdown
    )


def queue_only_card(game_id: int, version: int, *, countdown: float) -> None:
    """The player to act holds one card they may play and asked for it played."""
    play_only_card.apply_async((game_id, version), countdown=countdown)


def queue_turn_news(game_id: int, version: int) -> None:
    """The players are told of the turn, the start or the end."""
    tell_players.delay(game_id, version)


@shared_task(acks_late=True, ignore_result=True)
def play_bot_turn(game_id: int, version: int, owner: int | None = None) -> str:
    """Play the bot's move of `game_id` at `version`; anything else does nothing.

    Fair scheduling of searches: while a searching bot (bots.SEARCHING) at a
    table opened by the same player (`owner`, the table's; looked up when
    not given) is deciding in any worker, a searching bot's move is queued
    again BOT_OWNER_RETRY_SECONDS later ("deferred") rather than decided
    alongside it. With `owner` given (the site gives it for searching bots
    only), a held lock is seen before any query; it is only taken once the
    move is known to be due, so a stale task never holds it. The other
    levels decide in a tenth of a millisecond: no lock, no trip to Redis,
    and the move is decided and stored in one transaction (services.bot_act:
    the game is read once). Run eagerly (in the caller's process: no workers to share) there is no
    lock: a deferral would call itself at once, over and over, while
    another thread decides."""
    fair = not play_bot_turn.app.conf.task_always_eager
    if fair and owner is not None and _owner_busy(owner):
        return _again_later(game_id, version, owner)
    if owner is None:  # most likely a bot that decides at once: one transaction
        try:
            result = services.bot_act(game_id=game_id, version=version, decide=_decide_at_once)
        except Refusal as exc:
            log.info("move for game %s v%s not applied: %s", game_id, version, exc.message)
            return "refused"
        if result != "searching":
            return "played" if isinstance(result, services.MoveResult) else result
    turn = _turn(game_id, version)
    if isinstance(turn, str):
        return turn
    game, seat = turn
    if not seat.is_bot:
        return "not a bot"
    actor = services.Actor.bot(seat.position)
    owner = services.lock_owner(game.table, seat) if fair else None
    return _play(game, seat, seat.bot_level, actor, owner=owner)


@shared_task(acks_late=True, ignore_result=True)
def play_only_card(game_id: int, version: int) -> str:
    """A player who asked for it (profile option) holds one card they may
    play: play it for them, as their own move."""
    turn = _turn(game_id, version)
    if isinstance(turn, str):
        return turn
    game, seat = turn
    if seat.is_bot or seat.user is None or not seat.user.play_only_card:
        return "not asked"
    code = services.only_card(services.game_state(game).current)
    if code is None:
        return "a choice"
    try:
        services.game_act(
            game_id=game.pk,
            version=game.version,
            action={"type": "play", "card": code},
            actor=services.Actor.person(seat.user),
        )
    except Refusal as exc:
        log.info("only card for game %s v%s not played: %s", game.pk, game.version, exc.message)
        return "refused"
    return "played"


@shared_task(acks_late=True, ignore_result=True)
def play_timeout(game_id: int, version: int) -> str:
    """The time of the person to act ran out: the medium bot moves for them."""
    turn = _turn(game_id, version)
    if isinstance(turn, str):
        return turn
    game, seat = turn
    if seat.is_bot:
        return "a bot's turn"
    if game.deadline is None or game.deadline > timezone.now():
        return "not yet"
    result = _play(game, seat, "medium", services.Actor.timeout(seat.position))
    if result == "played" and seat.user is not None:
        seat.refresh_from_db()
        params: TellParams = {"table": game.table.name, "handed_over": bool(seat.bot_level)}
        notify_user(seat.user, "timeout", game, params, f"{game.pk}:{version}")
    return result


@shared_task(ignore_result=True)
def expire_deadlines() -> int:
    """Beat: queue the time-out move of every game whose deadline has passed."""
    due = Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=timezone.now())
    n = 0
    for game_id, version in due.values_list("pk", "version"):
        play_timeout.delay(game_id, version)
        n += 1
    return n


@shared_task(ignore_result=True)
def sweep_stalled_games() -> int:
    """Beat: resume games whose bot move never happened (a lost task, a dead
    worker). The version check makes a resumed move that did happen a no-op."""
    longest_pause = max(settings.BOT_MOVE_DELAY, settings.BOT_TRICK_PAUSE, settings.BOT_HAND_PAUSE)
    late = timezone.now() - datetime.timedelta(seconds=longest_pause + settings.GAME_STALL_SECONDS)
    playing = Game.objects.filter(
        status=Game.Status.PLAYING, last_move_at__lt=late, to_act__isnull=False
    )
    n = 0
    for game in playing.prefetch_related("table__seats"):
        seat = next(s for s in game.table.seats.all() if s.position == game.to_act)
        if seat.is_bot:
            play_bot_turn.delay(game.pk, game.version, owner=services.lock_owner(game.table, seat))
            n += 1
    return n


@shared_task(acks_late=True, ignore_result=True)
def live_grace_expired(table_id: int, user_id: int) -> str:
    """A live player's connection has been gone for the grace period: a bot
    plays for them until they come back."""
    if presence.is_on_table_page(table_id, user_id):
        return "back"
    return (
        "bot"
        if services.seat_set_away(table_id=table_id, user_id=user_id, away=True)
        else "nothing"
    )


@shared_task(acks_late=True, ignore_result=True)
def tell_players(game_id: int, version: int) -> str:
    """After a move: the start, the end, or whose turn it is, to the people at
    the table (in-app, e-mail, push by their preferences), and their "My games"."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.version != version:
        return "stale"
    seats = list(game.table.seats.select_related("user"))
    people = [s for s in seats if s.user is not None]
    users = {s.position: s.user for s in seats if s.user is not None}
    name = game.table.name
    if game.table.is_daily:
        # The daily deal is played by its player alone, at the page: nothing to tell.
        realtime.push_my_games([s.user_id for s in people if s.user_id is not None])
        return "daily"
    if game.status == Game.Status.FINISHED:
        won = next((s for s in seats if s.position == game.winner), None)
        ended = {"table": name, **_winner_params(won)}
        for seat in people:
            notify_user(users[seat.position], "game_ended", game, ended, f"end:{game.pk}")
    elif version == 1:
        for seat in people:
            notify_user(
                users[seat.position], "game_started", game, {"table": name}, f"start:{game.pk}"
            )
    if game.status == Game.Status.PLAYING and game.table.mode == Table.Mode.TURNS:
        waiting = next((s for s in people if s.position == game.to_act and not s.is_bot), None)
        if waiting is not None:
            notify_user(
                users[waiting.position], "turn", game, {"table": name}, f"{game.pk}:{version}"
            )
    realtime.push_my_games([s.user_id for s in people if s.user_id is not None])
    return "told"


def _winner_params(seat: Seat | None) -> TellParams:
    """The winner of a finished game, as games.signals documents it: a
    person by their user name; a bot's own seat by its level and seat number
    (its name is said in the reader's language: games.words.winner_name),
    with its name in the site's language as `winner` for readers that only
    take a string."""
    if seat is None:
        return {"winner": "?"}
    if seat.user is not None:
        return {"winner": seat.user.username}
    with translation.override(settings.LANGUAGE_CODE):
        fallback = words.bot_name(seat.bot_level, seat.position + 1)
    return {"winner": fallback, "winner_bot": seat.bot_level, "winner_seat": seat.position + 1}


def notify_user(
    user: User, kind: str, game: Game, params: TellParams, turn_key: str | None
) -> None:
    """Announce it; the notifications app listens (games does not import it)
    and writes the words in the recipient's language from `params`."""
    signals.tell.send(
        sender=Game, user=user, kind=kind, game=game, params=params, turn_key=turn_key
    )
