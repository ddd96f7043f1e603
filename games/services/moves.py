"""A move: `game_act` locks the game row, checks seat and version, applies the
action through the engine, stores the hand record, bumps the version with a
compare-and-swap, and after commit the table is pushed to each viewer and the
next bot move queued (.after, through games.events). `bot_act` is the
same move for a bot that decides at once, decided under the same lock.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import access, engine, signals
from games.engine import Action, EngineError, GameState
from games.messages import refused
from games.models import TIMEOUTS_BEFORE_HANDOVER, Game, Hand, Seat, Table

from .after import after_move
from .state import cache_key, cache_put, current_hand_row, game_state, locked_game
from .turns import set_turn


@dataclass
class MoveResult:
    """The game row after the move (new version) and the engine's state."""

    game: Game
    state: GameState


@dataclass(frozen=True, slots=True)
class Actor:
    """Who makes a move: a person (`user`), the bot seated at `seat`, or the
    medium bot moving for the person at `seat` whose time ran out. Build it
    with `Actor.person`, `Actor.bot` or `Actor.timeout`."""

    kind: str
    user: User | None = None
    seat: int | None = None

    @classmethod
    def person(cls, user: User) -> Actor:
        return cls("person", user=user)

    @classmethod
    def bot(cls, seat: int) -> Actor:
        return cls("bot", seat=seat)

    @classmethod
    def timeout(cls, seat: int) -> Actor:
        return cls("timeout", seat=seat)

    def seat_at(self, game: Game, seats: dict[int, Seat]) -> int:
        """The seat this actor moves for; raises Refusal if it may not."""
        if self.kind == "person":
            own = access.seat_of(game.table, self.user)
            if own is None:
                raise Refusal(code=Code.FORBIDDEN, message=_("You are not playing at this table."))
            return own
        assert self.seat is not None
        if self.kind == "bot":
            if not seats[self.seat].is_bot:
                raise Refusal(code=Code.FORBIDDEN, message=_("That seat is not a bot's."))
            return self.seat
        if seats[self.seat].is_bot or game.deadline is None or game.deadline > timezone.now():
            raise Refusal(code=Code.FORBIDDEN, message=_("That seat has not run out of time."))
        return self.seat


# A move as game_act takes it: an action's JSON fields without the seat (a
# posted one unchecked until Action.from_dict(strict=True) reads it).
Move = Mapping[str, object]


def game_act(*, game_id: int, version: int, action: Move, actor: Actor) -> MoveResult:
    """Apply one move exactly once, for `actor` (a person, a bot, or the medium
    bot after a person's time ran out: that move is marked `"auto": true` in
    the hand record; a bot's move for a person's seat is marked `"by":
    "autopilot"`, or `"by": "stand-in"` while they are away or handed over).

    `action` holds only the fields its type has (docs/hand-record.md); the seat is
    the actor's. Raises Refusal (nothing changed) for a stale version, a
    wrong seat, a move out of turn or an illegal action; the message says why.
    """
    if not isinstance(action, dict) or "seat" in action:
        raise Refusal(_("That is not a move."))
    with transaction.atomic():
        game = locked_game(game_id)
        if game is None:
            raise Game.DoesNotExist
        seats = {s.position: s for s in game.table.seats.all()}
        seat = actor.seat_at(game, seats)
        if game.status == Game.Status.FINISHED:
            raise Refusal(code=Code.CONFLICT, message=_("The game is over."))
        if version != game.version:
            raise Refusal(
                code=Code.STALE,
                message=_(
                    "The table changed before your move arrived; here it is as it stands now."
                ),
            )
        state = game_state(game)  # usually cached: rebuilt from every hand only after a restart
        return _apply(game, seats, seat, state, action, actor)


# A bot that decides at once: the move for `seat` of `game` in `state`, or
# None when this seat's bot searches (it must not hold the game's lock).
Decide = Callable[[Game, Seat, GameState], Move | None]


def bot_act(*, game_id: int, version: int, decide: Decide) -> MoveResult | str:
    """A bot's move decided and applied in one transaction: the game is
    locked, its version and the bot to act checked, `decide` asked, and the
    move applied as `game_act` applies it. For the levels that decide in a
    tenth of a millisecond (not bots.SEARCHING): a bot move reads the game
    once instead of twice. Nothing changes, and it says why, when the game
    is not at `version` ("stale"), nobody is to act ("no turn"), the seat is
    a person's ("not a bot") or its bot searches ("searching": decide
    outside the lock, then `game_act`)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game is None or game.version != version or game.status != Game.Status.PLAYING:
            return "stale"
        if game.to_act is None:
            return "no turn"
        seats = {s.position: s for s in game.table.seats.all()}
        seat = seats[game.to_act]
        if not seat.is_bot:
            return "not a bot"
        state = game_state(game)
        action = decide(game, seat, state)
        if action is None:
            return "searching"
        return _apply(game, seats, seat.position, state, action, Actor.bot(seat.position))


def _apply(
    game: Game, seats: dict[int, Seat], seat: int, state: GameState, action: Move, actor: Actor
) -> MoveResult:
    """The move of `seat` (checked as `actor`'s) on the locked `game` at its
    version, whose engine state is `state`: applied, stored, and its news
    said after the commit."""
    version, table = game.version, game.table
    hand = current_hand_row(game, state)
    assert hand is not None
    if state.current is None or state.current.to_act != seat:
        raise Refusal(code=Code.CONFLICT, message=_("It is not your turn."))
    try:
        act = Action.from_dict({**action, "seat": seat}, strict=True)
        if actor.kind == "timeout":
            act = dataclasses.replace(act, extra={"auto": True})
        elif actor.kind == "bot" and seats[seat].user_id is not None:
            # A bot moving for a person (stats rate only what people played):
            # their autopilot, or a stand-in while they are away or handed over.
            stand_in = seats[seat].away or seats[seat].timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER
            act = dataclasses.replace(act, extra={"by": "stand-in" if stand_in else "autopilot"})
        new_state = engine.game_apply(state, act)
    except EngineError as exc:
        raise refused(exc) from None
    new_state, hand = _store_move(game, hand, new_state)
    set_turn(game, new_state)
    updated = Game.objects.filter(pk=game.pk, version=version).update(
        version=F("version") + 1,
        scores=list(new_state.scores),
        status=game.status,
        winner=game.winner,
        finished=game.finished,
        to_act=game.to_act,
        turn_started=game.turn_started,
        last_move_at=game.last_move_at,
        deadline=game.deadline,
    )
    if updated != 1:
        raise Refusal(
            code=Code.STALE,
            message=_("Someone moved first; here is the table as it stands now."),
        )
    game.version = version + 1
    game.scores = list(new_state.scores)
    transaction.on_commit(partial(cache_put, cache_key(game), new_state, hand.pk))
    if game.status == Game.Status.FINISHED:
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
        table.status = Table.Status.FINISHED
    _count_timeouts(seats[seat], timed_out=actor.kind == "timeout", person=actor.kind != "bot")
    # The rows loaded under the lock are the committed ones: the broadcast
    # renders from them instead of reading them again.
    after_move(game, new_state, hand, previous=state)
    return MoveResult(game=game, state=new_state)


def _count_timeouts(seat: Seat, *, timed_out: bool, person: bool) -> None:
    """Three time-outs in a row hand the seat to the medium bot for the rest of
    the game (the player can take it back).

    The count belongs to the seat, not to the person's last return: only a
    move the person makes in time resets it. Taking the seat back (or handing
    it to a bot and back) leaves it as it was, so a seat taken back after
    three time-outs is handed over again at its next time-out; nobody can
    hold a table at one move per deadline for ever by taking the seat back
    every third time-out. Bots' moves (autopilot, stand-in) do not count."""
    if timed_out:
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= TIMEOUTS_BEFORE_HANDOVER:
            seat.bot_level = "medium"
        seat.save(update_fields=["timeouts_in_row", "bot_level"])
    elif person and seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        seat.save(update_fields=["timeouts_in_row"])


def _store_move(game: Game, hand: Hand, state: GameState) -> tuple[GameState, Hand]:
    """Save the hand record after the move; when the hand ends, store its
    result and either finish the game or deal the next hand (returned, with
    the game's current hand row)."""
    done = state.hands[hand.number]
    hand.record = engine.hand_to_record(done)
    fields = ["record"]
    if done.over:
        hand.result = engine.result(done)
        hand.finished = timezone.now()
        fields += ["result", "finished"]
        transaction.on_commit(
            partial(signals.hand_finished.send, sender=Hand, hand_id=hand.pk), robust=True
        )
    hand.save(update_fields=fields)
    if not done.over:
        return state, hand
    if state.over:
        game.status = Game.Status.FINISHED
        game.winner = state.winner
        game.finished = timezone.now()
        transaction.on_commit(
            partial(signals.game_finished.send, sender=Game, game_id=game.pk), robust=True
        )
        return state, hand
    # Deal the next hand right away; the table shows the last hand's summary beside it.
    if game.deals:
        next_state = engine.game_deal_hand(state, game.deals[hand.number + 1])
    else:
        next_state = engine.game_start_hand(state, random.Random(secrets.randbits(64)))
    assert next_state.current is not None
    next_hand = Hand.objects.create(
        game=game, number=hand.number + 1, record=engine.hand_to_record(next_state.current)
    )
    return next_state, next_hand
