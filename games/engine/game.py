"""A whole game: hands in sequence, dealer rotation, scores, target and tie rule."""

from __future__ import annotations

from random import Random
from typing import NotRequired, TypedDict, cast

from .actions import Action, ActionDict, ExtraFields
from .hand import HandResult, HandState, apply, new_hand, points, score_row
from .records import (
    HandFault,
    HandRecord,
    HandReplayError,
    _check_deal,
    _initial,
    _replay,
    hand_to_record,
)
from .rules import (
    TARGET_DEFAULT,
    EngineError,
    ErrorCode,
    HandOutcome,
    IllegalAction,
    MalformedAction,
    RecordError,
    Rules,
    RulesDict,
    check_target,
    game_winner,
    rules_dict,
)
from .views import DealDict, HandView, TrickDict, over_parts, view

GAME_FORMAT = "euchre3-game/1"
_GAME_KEYS = ("format", "target", "rules", "first_dealer", "hand_limit", "hands")
# A game of fixed deals (the daily deal: 5) has at most this many hands.
HAND_LIMIT_MAX = 100


class GameState:
    """A game at one moment: immutable; `game_start_hand`/`game_apply` return new ones."""

    __slots__ = (
        "_extra",
        "_first_dealer",
        "_hand_limit",
        "_hands",
        "_rules",
        "_scores",
        "_target",
        "_winner",
    )

    _rules: Rules
    _target: int
    _first_dealer: int
    _hands: tuple[HandState, ...]
    _scores: tuple[int, int, int]
    _winner: int | None
    _extra: ExtraFields
    _hand_limit: int | None

    def __init__(
        self,
        rules: Rules,
        target: int,
        first_dealer: int,
        hands: tuple[HandState, ...] = (),
        scores: tuple[int, int, int] = (0, 0, 0),
        winner: int | None = None,
        extra: ExtraFields | None = None,
        hand_limit: int | None = None,
    ) -> None:
        self._rules = rules
        self._target = target
        self._first_dealer = first_dealer
        self._hands = hands
        self._scores = scores
        self._winner = winner
        self._extra = extra or {}
        self._hand_limit = hand_limit

    @property
    def rules(self) -> Rules:
        """The table options every hand uses."""
        return self._rules

    @property
    def target(self) -> int:
        """Score to reach (TARGET_MIN to TARGET_MAX)."""
        return self._target

    @property
    def first_dealer(self) -> int:
        """Dealer of the first hand."""
        return self._first_dealer

    @property
    def hands(self) -> list[HandState]:
        """Every hand dealt so far (the last may be in progress)."""
        return list(self._hands)

    @property
    def scores(self) -> list[int]:
        """Scores after the last complete hand."""
        return list(self._scores)

    @property
    def hand_limit(self) -> int | None:
        """The number of hands after which the game ends whatever the scores
        (a game of fixed deals, such as the daily deal), or None."""
        return self._hand_limit

    @property
    def over(self) -> bool:
        """True once a winner is decided, or the last hand of a hand limit is over."""
        return self._winner is not None or self._limit_reached()

    def _limit_reached(self) -> bool:
        limit = self._hand_limit
        return limit is not None and len(self._hands) >= limit and self._hands[-1].over

    @property
    def winner(self) -> int | None:
        """The winning seat, once over."""
        return self._winner

    @property
    def current(self) -> HandState | None:
        """The hand in progress, or None between hands."""
        if self._hands and not self._hands[-1].over:
            return self._hands[-1]
        return None

    @property
    def next_dealer(self) -> int | None:
        """Dealer of the next hand (left of the last dealer); None once over."""
        if self.over:
            return None
        if not self._hands:
            return self._first_dealer
        return (self._hands[-1].dealer + 1) % 3

    def __repr__(self) -> str:
        return f"<GameState hands={len(self._hands)} scores={list(self._scores)} winner={self._winner}>"


def _check_hand_limit(hand_limit: object) -> str | None:
    """The reason a hand limit is not allowed, or None."""
    if hand_limit is None:
        return None
    if type(hand_limit) is not int or not 1 <= hand_limit <= HAND_LIMIT_MAX:
        return f"hand_limit must be a whole number from 1 to {HAND_LIMIT_MAX}"
    return None


def new_game(
    rules: Rules,
    target: int = TARGET_DEFAULT,
    first_dealer: int = 0,
    hand_limit: int | None = None,
) -> GameState:
    """A game with no hand dealt yet; with `hand_limit`, it ends after that
    many hands (a game of fixed deals), or earlier if the target is reached."""
    check_target(target)
    if type(first_dealer) is not int or not 0 <= first_dealer <= 2:
        raise MalformedAction("first_dealer must be 0, 1 or 2", ErrorCode.BAD_SEAT)
    bad = _check_hand_limit(hand_limit)
    if bad:
        raise MalformedAction(bad, ErrorCode.BAD_HAND_LIMIT)
    return GameState(rules, target, first_dealer, hand_limit=hand_limit)


def _with_hand(game: GameState, hands: tuple[HandState, ...]) -> GameState:
    scores = game._scores
    winner = None
    last = hands[-1]
    if last.over:
        pts = points(last)
        scores = (scores[0] + pts[0], scores[1] + pts[1], scores[2] + pts[2])
        limit = game._hand_limit
        winner = game_winner(scores, game._target, limit is not None and len(hands) >= limit)
    return GameState(
        game._rules,
        game._target,
        game._first_dealer,
        hands,
        scores,
        winner,
        game._extra,
        game._hand_limit,
    )


def _next_dealer_checked(game: GameState) -> int:
    if game.over:
        raise IllegalAction("The game is over", ErrorCode.GAME_OVER)
    if game.current is not None:
        raise IllegalAction("A hand is still in progress", ErrorCode.HAND_IN_PROGRESS)
    dealer = game.next_dealer
    assert dealer is not None
    return dealer


def _with_new_hand(game: GameState, hand: HandState) -> GameState:
    return GameState(
        game._rules,
        game._target,
        game._first_dealer,
        (*game._hands, hand),
        game._scores,
        None,
        game._extra,
        game._hand_limit,
    )


def game_start_hand(game: GameState, rng: Random) -> GameState:
    """Deal the next hand (left of the previous dealer)."""
    dealer = _next_dealer_checked(game)
    return _with_new_hand(game, new_hand(game._rules, dealer, rng))


def game_deal_hand(game: GameState, deal: object) -> GameState:
    """Start the next hand (left of the previous dealer) from a given deal, as
    a hand record's `deal` writes it: {"hands": [three lists of five cards],
    "dummy": [five], "kitty": [the rest, the up card first]}. Everybody who
    plays a game of fixed deals (the daily deal) gets the same cards.
    Raises RecordError if it is not a whole deal of the game's deck."""
    dealer = _next_dealer_checked(game)
    bad = _check_deal(deal, game._rules)
    if bad:
        raise RecordError({"index": None, "action": None, "reason": bad})
    record = {
        "format": "euchre3-hand/1",
        "rules": game._rules.to_dict(),
        "dealer": dealer,
        "deal": deal,
        "actions": [],
    }
    state = _initial(record)
    assert isinstance(state, HandState)
    return _with_new_hand(game, state)


def game_apply(game: GameState, action: Action) -> GameState:
    """Apply an action to the hand in progress; scores the hand when it ends."""
    cur = game.current
    if cur is None:
        if game.over:
            raise IllegalAction("The game is over", ErrorCode.GAME_OVER)
        raise IllegalAction("No hand is in progress", ErrorCode.NO_HAND)
    return _with_hand(game, (*game._hands[:-1], apply(cur, action)))


class LastHand(TypedDict):
    """The previous completed hand, as the viewer sees it: `game_view`'s
    `last_hand`."""

    dealer: int
    result: HandResult
    outcome: HandOutcome
    deal: DealDict
    last_trick: TrickDict | None
    history: list[ActionDict]
    tricks: list[TrickDict]


class ScoreRow(TypedDict):
    """One completed hand of the score pad."""

    dealer: int
    result: HandResult
    outcome: HandOutcome


class GameView(HandView):
    """`game_view`'s answer: the current (or last) hand's view and the game's public facts."""

    scores: list[int]
    target: int
    hand_limit: int | None
    hand_number: int
    over: bool
    winner: int | None
    first_dealer: int
    next_dealer: int | None
    last_hand: LastHand | None
    score_pad: list[ScoreRow]


def game_view(game: GameState, seat: int | None) -> GameView:
    """The current (or last) hand's `view` plus the game's public facts.

    Added keys: scores, target, hand_limit (None, or the number of hands
    the game is played over), hand_number (hands dealt so far), over,
    winner, first_dealer, next_dealer, last_hand (the previous completed
    hand: {"dealer", "result", "outcome", "deal", "last_trick", "history",
    "tricks"}, as
    this seat sees them, or None), score_pad
    (every completed hand, oldest first: {"dealer", "result", "outcome"}; public).
    """
    hands = game._hands
    v = view(hands[-1], seat) if hands else _empty_view(game, seat)
    done = [h for h in hands if h.over]
    last: LastHand | None = None
    if done:
        lh = done[-1]
        if lh is hands[-1]:  # the hand in view: its view's own parts
            res, deal = v["result"], v["deal"]
            assert res is not None and deal is not None  # a finished hand's view has both
            parts = (res, v["outcome"], deal, v["tricks"], v["history"])
        else:  # only the parts `last_hand` shows of that hand's view
            parts = over_parts(lh, seat)
        res, out, deal, tricks, history = parts
        last = {
            "dealer": lh.dealer,
            "result": res,
            "outcome": out,
            "deal": deal,
            "last_trick": tricks[-1] if tricks else None,
            "history": history,
            "tricks": tricks,
        }
    # The hand's view, and the game's keys after its own (as GameView(**v, ...)
    # would order them), without copying it.
    gv = cast(GameView, v)
    gv["scores"] = list(game._scores)
    gv["target"] = game._target
    gv["hand_limit"] = game._hand_limit
    gv["hand_number"] = len(hands)
    gv["over"] = game.over
    gv["winner"] = game._winner
    gv["first_dealer"] = game._first_dealer
    gv["next_dealer"] = game.next_dealer
    gv["last_hand"] = last
    pad: list[ScoreRow] = []
    for h in done:
        dealer, res, out = score_row(h)
        pad.append({"dealer": dealer, "result": res, "outcome": out})
    gv["score_pad"] = pad
    return gv


def _empty_view(game: GameState, seat: int | None) -> HandView:
    return {
        "seat": seat,
        "rules": rules_dict(game._rules),
        "dealer": None,
        "phase": None,
        "to_act": None,
        "hand": None if seat is None else [],
        "hand_counts": [0, 0, 0],
        "up_card": None,
        "up_card_taken": None,
        "turned_down": None,
        "banned_suit": None,
        "up_suit": None,
        "joker_suit": None,
        "maker": None,
        "trump": None,
        "alone": [],
        "sitting_out": None,
        "dummy": None,
        "my_discards": [],
        "kitty_size": 0,
        "history": [],
        "tricks": [],
        "current_trick": [],
        "led_suit": None,
        "leader": None,
        "tricks_won": [0, 0, 0],
        "legal_actions": [],
        "refused": [],
        "exchange": None,
        "call": None,
        "call_name": None,
        "result": None,
        "outcome": {"outcome": None, "maker_play": None, "call_round": None},
        "deal": None,
    }


class GameRecord(TypedDict):
    """A game record (`euchre3-game/1`, docs/hand-record.md) as the engine
    writes it: `game_to_record`. `hand_limit` only for a game of fixed deals;
    the record's extra fields ride along in the same object."""

    format: str
    target: int
    rules: RulesDict
    first_dealer: int
    hands: list[HandRecord]
    hand_limit: NotRequired[int]


class GameResult(TypedDict):
    """A game record's replay result (docs/hand-record.md): `game_result`."""

    scores: list[int]
    hands: int
    over: bool
    winner: int | None
    next_dealer: int | None


class GameFault(TypedDict):
    """Why a game record does not replay: `hand` the hand's index (None: the
    game itself), `reason` an English sentence, `detail` that hand's own
    HandFault when its replay found one."""

    hand: int | None
    reason: str
    detail: NotRequired[HandFault]


class GameReplayError(TypedDict):
    """`replay_game`'s answer for a record that does not replay."""

    error: GameFault


# What replaying a hand or game record answers (docs/hand-record.md): its
# result, or the error that stopped it.
Replayed = HandResult | HandReplayError | GameResult | GameReplayError


def game_to_record(game: GameState) -> GameRecord:
    """The game record (`euchre3-game/1`), extra fields kept."""
    rec: GameRecord = {
        "format": GAME_FORMAT,
        "target": game._target,
        "rules": game._rules.to_dict(),
        "first_dealer": game._first_dealer,
        "hands": [hand_to_record(h) for h in game._hands],
    }
    if game._hand_limit is not None:
        rec["hand_limit"] = game._hand_limit
    out = cast(ExtraFields, rec)  # the extra fields join the typed ones
    for k, v in game._extra.items():
        if k not in out:
            out[k] = v
    return rec


def _fault(hand: int | None, reason: str, detail: HandFault | None = None) -> GameReplayError:
    err: GameFault = {"hand": hand, "reason": reason}
    if detail is not None:
        err["detail"] = detail
    return {"error": err}


def _replay_game(
    record: object, *, pending_keep: bool = False
) -> tuple[GameState | None, GameReplayError | None]:
    if not isinstance(record, dict) or record.get("format") != GAME_FORMAT:
        return None, _fault(None, f"format must be {GAME_FORMAT!r}")
    try:
        target = check_target(record.get("target", TARGET_DEFAULT))
    except EngineError as e:
        return None, _fault(None, e.reason)
    raw_rules = record.get("rules", {})
    if not isinstance(raw_rules, dict):
        return None, _fault(None, "rules must be an object")
    try:
        rules = Rules.from_dict(raw_rules)
    except EngineError as e:
        return None, _fault(None, "rules: " + e.reason)
    first = record.get("first_dealer")
    if type(first) is not int or not 0 <= first <= 2:
        return None, _fault(None, "first_dealer must be 0, 1 or 2")
    hand_limit = record.get("hand_limit")
    bad = _check_hand_limit(hand_limit)
    if bad:
        return None, _fault(None, bad)
    hands = record.get("hands")
    if not isinstance(hands, list):
        return None, _fault(None, "hands must be a list")
    extra = {k: v for k, v in record.items() if k not in _GAME_KEYS}
    game = GameState(rules, target, first, extra=extra, hand_limit=hand_limit)
    for n, h in enumerate(hands):
        if game.over:
            return game, _fault(n, "game is over")
        if not isinstance(h, dict):
            return game, _fault(n, "hand is not an object")
        hr = h.get("rules", {})
        try:
            same = isinstance(hr, dict) and Rules.from_dict(hr) == rules
        except EngineError:
            same = False
        if not same:
            return game, _fault(n, "rules differ from the game's")
        dealer = h.get("dealer")
        if type(dealer) is not int or dealer != game.next_dealer:
            return game, _fault(n, "wrong dealer")
        state, err = _replay(h, pending_keep=pending_keep and n == len(hands) - 1)
        if err is not None:
            return game, _fault(n, "illegal hand", err["error"])
        assert state is not None
        if not state.over and n != len(hands) - 1:
            return game, _fault(n, "hand is not complete")
        game = _with_hand(game, (*game._hands, state))
    return game, None


def game_result(game: GameState) -> GameResult:
    """The game replay result of docs/hand-record.md for a game state."""
    return {
        "scores": list(game._scores),
        "hands": len(game._hands),
        "over": game.over,
        "winner": game._winner,
        "next_dealer": game.next_dealer,
    }


def replay_game(record: object) -> GameResult | GameReplayError:
    """Replay a game record: its result, or {"error": {...}} as docs/hand-record.md defines."""
    game, err = _replay_game(record)
    if err is not None:
        return err
    assert game is not None
    return game_result(game)


def game_from_record(record: object, *, pending_keep: bool = False) -> GameState:
    """Rebuild a game from its record; raises RecordError (with `.error`).

    `pending_keep`: the last hand may end with the maker's keep-less `dummy`
    (see records._replay): the site's stored games, not records from outside."""
    game, err = _replay_game(record, pending_keep=pending_keep)
    if err is not None:
        raise RecordError(err["error"])
    assert game is not None
    return game
