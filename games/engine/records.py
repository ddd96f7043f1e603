"""Hand records (`euchre3-hand/1`): export, import, replay (docs/hand-record.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, cast

from .actions import DUMMY, Action, ActionDict, ExtraFields
from .cards import CARD_INDEX, CARD_STRS, DECK_MASKS
from .hand import HandResult, HandState, Phase, _start, apply, hand_result, turn_fault
from .rules import (
    EngineError,
    ErrorCode,
    HandOutcome,
    MalformedAction,
    RecordError,
    Rules,
    RulesDict,
    call_round,
    hand_outcome,
)

HAND_FORMAT = "euchre3-hand/1"
_RECORD_KEYS = ("format", "rules", "dealer", "deal", "actions")


class RecordDeal(TypedDict):
    """A hand record's `deal`: each seat's five cards as dealt, the dummy's
    five, the kitty (the up card first)."""

    hands: list[list[str]]
    dummy: list[str]
    kitty: list[str]


class HandRecord(TypedDict):
    """A hand record (`euchre3-hand/1`, docs/hand-record.md) as the engine
    writes it: `hand_to_record`. The extra fields a record carries (its
    `ExtraFields`) ride along in the same object. A record read from outside
    is `object` until `_replay` has checked it field by field."""

    format: str
    rules: RulesDict
    dealer: int
    deal: RecordDeal
    actions: list[ActionDict]


class HandFault(TypedDict):
    """Why a hand record does not replay (docs/hand-record.md): `index` the
    action's position (None: the record itself), `action` that action as the
    record gave it (untrusted JSON, perhaps not even an object; None for the
    record itself), `reason` an English sentence."""

    index: int | None
    action: object
    reason: str


class HandReplayError(TypedDict):
    """`replay_hand`'s answer for a record that does not replay."""

    error: HandFault


def hand_to_record(state: HandState) -> HandRecord:
    """The hand record of a state (in progress or over), extra fields kept."""
    i = state._i
    rec: HandRecord = {
        "format": HAND_FORMAT,
        "rules": i.rules.to_dict(),
        "dealer": i.dealer,
        "deal": {
            "hands": [[CARD_STRS[c] for c in h] for h in i.deal_hands],
            "dummy": [CARD_STRS[c] for c in i.dummy],
            "kitty": [CARD_STRS[c] for c in i.kitty],
        },
        "actions": [a.to_dict() for a in state._actions],
    }
    out = cast(ExtraFields, rec)  # the extra fields join the typed ones
    for k, v in i.extra.items():
        if k not in out:
            out[k] = v
    return rec


def _fault(reason: str) -> HandReplayError:
    return {"error": {"index": None, "action": None, "reason": reason}}


def _check_deal(deal: object, rules: Rules) -> str | None:
    """The reason a deal is not well formed, or None."""
    if not isinstance(deal, dict):
        return "deal must be an object"
    hands, dummy, kitty = deal.get("hands"), deal.get("dummy"), deal.get("kitty")
    if (
        not isinstance(hands, list)
        or len(hands) != 3
        or not all(isinstance(h, list) for h in hands)
    ):
        return "deal: hands must be three lists of cards"
    if not isinstance(dummy, list) or not isinstance(kitty, list):
        return "deal: dummy and kitty must be lists of cards"
    deck = DECK_MASKS[rules.deck]
    seen = 0
    for c in [c for h in hands for c in h] + dummy + kitty:
        k = CARD_INDEX.get(c) if isinstance(c, str) else None
        if k is None or not deck & 1 << k:
            return f"deck contents: {c!r} is not a card of this deck"
        if seen & 1 << k:
            return f"deck contents: {c} is dealt twice"
        seen |= 1 << k
    if seen != deck:
        return "deck contents: cards are missing"
    if any(len(h) != 5 for h in hands) or len(dummy) != 5 or len(kitty) != rules.kitty_size:
        return "counts: five cards to each hand and the dummy, the rest in the kitty"
    return None


def _initial(record: object) -> HandState | HandReplayError:
    """The state before any action, or the index-null error of docs/hand-record.md."""
    if not isinstance(record, dict):
        return _fault("format: a record must be an object")
    if record.get("format") != HAND_FORMAT:
        return _fault(f"format must be {HAND_FORMAT!r}")
    raw_rules = record.get("rules", {})
    if not isinstance(raw_rules, dict):
        return _fault("rules must be an object")
    try:
        rules = Rules.from_dict(raw_rules)
    except EngineError as e:
        return _fault(e.reason if e.reason.startswith(("rules", "deck")) else "rules: " + e.reason)
    dealer = record.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 2:
        return _fault("dealer must be 0, 1 or 2")
    if "deal" not in record:
        return _fault("deal is missing")
    bad = _check_deal(record["deal"], rules)
    if bad:
        return _fault(bad)
    actions = record.get("actions")
    if not isinstance(actions, list):
        return _fault("actions must be a list")
    deal = cast(RecordDeal, record["deal"])  # checked by _check_deal: typed from here on
    extra: ExtraFields = {k: v for k, v in record.items() if k not in _RECORD_KEYS}
    return _start(
        rules,
        dealer,
        tuple(tuple(CARD_INDEX[c] for c in h) for h in deal["hands"]),
        tuple(CARD_INDEX[c] for c in deal["dummy"]),
        tuple(CARD_INDEX[c] for c in deal["kitty"]),
        extra,
    )


def _replay(
    record: object, *, pending_keep: bool = False
) -> tuple[HandState | None, HandReplayError | None]:
    """Replay a hand record. A record writes the maker's two steps (use the
    dummy, then keep five) as one `dummy` action with `keep`; with
    `pending_keep` (the site's own stored hands) a last `dummy` without
    `keep` is the maker who chose the dummy and is choosing the five."""
    state = _initial(record)
    if not isinstance(state, HandState):
        return None, state
    assert isinstance(record, dict)  # `_initial` checked it
    actions: list[object] = record["actions"]
    for idx, a in enumerate(actions):
        reason = _action_fault(state, a)
        if reason is None:
            try:
                state = apply_recorded(
                    state,
                    Action.from_dict(a),
                    pending_keep=pending_keep and idx == len(actions) - 1,
                )
                continue
            except EngineError as e:
                reason = e.reason
        return state, {"error": {"index": idx, "action": a, "reason": reason}}
    return state, None


def apply_recorded(state: HandState, act: Action, *, pending_keep: bool = False) -> HandState:
    """Apply an action as a record writes it: at the maker's choice, a `dummy`
    with `keep` is the two live steps (use the dummy, keep five) at once. A
    `dummy` without `keep` there is refused unless `pending_keep` (see `_replay`)."""
    if act.type == "dummy" and state.phase == Phase.MAKER_CHOICE:
        if act.keep is None and not pending_keep:
            raise MalformedAction(
                "using the dummy needs the five cards to keep", ErrorCode.CHOOSE_KEEP
            )
        chosen = apply(state, DUMMY[act.seat])
        return chosen if act.keep is None else apply(chosen, act)
    return apply(state, act)


def _action_fault(state: HandState, a: object) -> str | None:
    """The checks that come before the action's type and fields, in the specified order."""
    if not isinstance(a, dict):
        return "an action must be an object"
    fault = turn_fault(state, a.get("seat"))  # the engine's one turn check
    return None if fault is None else _RECORD_TURN_REASONS[fault]


# A record's faults as the command line has always worded them.
_RECORD_TURN_REASONS = {
    ErrorCode.BAD_SEAT: "seat must be 0, 1 or 2",
    ErrorCode.HAND_OVER: "hand is over",
    ErrorCode.NOT_YOUR_TURN: "not this seat's turn",
}


def replay_hand(record: object) -> HandResult | HandReplayError:
    """Replay a hand record: its result, or {"error": {...}} as docs/hand-record.md defines."""
    state, err = _replay(record)
    if err is not None:
        return err
    assert state is not None
    return hand_result(state)


def hand_from_record(record: object, *, pending_keep: bool = False) -> HandState:
    """Rebuild the state a hand record describes; raises RecordError (with `.error`).

    `pending_keep`: accept a last `dummy` without `keep` (a stored hand whose
    maker chose the dummy and is choosing the five), as `_replay` explains."""
    state, err = _replay(record, pending_keep=pending_keep)
    if err is not None:
        raise RecordError(err["error"])
    assert state is not None
    return state


def outcome_of(record: Mapping[str, object], result: Mapping[str, object]) -> HandOutcome:
    """A stored hand's outcome (as `hand.outcome` gives a state's) from its
    record and its replay result, without replaying it again: the call's
    round and the dummy from the record's actions, the rest from the result.
    Both are stored JSON (a HandRecord and its HandResult once written),
    read defensively."""
    raw = record.get("actions")
    actions = [a for a in raw if isinstance(a, dict)] if isinstance(raw, list) else []
    maker = result.get("maker")
    maker = maker if type(maker) is int else None
    tricks = result.get("tricks")
    tricks = tricks if isinstance(tricks, list) and tricks else [0, 0, 0]
    alone = result.get("alone")
    return hand_outcome(
        bool(result.get("complete")) or bool(result.get("thrown_in")),
        maker,
        tricks[maker] if maker is not None else 0,
        maker is not None and isinstance(alone, list) and maker in alone,
        any(a.get("type") == "dummy" and a.get("seat") == maker for a in actions),
        call_round(str(a.get("type")) for a in actions),
    )
