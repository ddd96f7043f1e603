"""The rules of three-handed ("Cutthroat") Euchre: pure Python, no Django.

One state type per level (HandState, GameState), few verbs: `legal_actions`,
`apply`, `view`, `result`, records in and out. `verify(state, action)` raises
the refusal `apply` would raise (IllegalAction with its reason, code and
params) and `can` says whether it would accept: the one check, for the site,
the bots and the tests alike. See docs/rules.md and
docs/hand-record.md.
"""

from .actions import Action
from .cards import card_name, effective_suit, suit_name, trick_winner
from .game import (
    GameState,
    GameView,
    LastHand,
    ScoreRow,
    game_apply,
    game_deal_hand,
    game_from_record,
    game_result,
    game_start_hand,
    game_to_record,
    game_view,
    new_game,
    replay_game,
)
from .hand import (
    ActionList,
    HandResult,
    HandState,
    Phase,
    apply,
    can,
    legal_actions,
    new_hand,
    outcome,
    points,
    result,
    verify,
)
from .records import apply_recorded, hand_from_record, hand_to_record, outcome_of, replay_hand
from .rules import (
    TARGET_DEFAULT,
    TARGET_MAX,
    TARGET_MIN,
    Call,
    EngineError,
    ErrorCode,
    HandOutcome,
    IllegalAction,
    MakerPlay,
    MalformedAction,
    Outcome,
    RecordError,
    Rules,
    RulesDict,
    call_code,
    call_name,
    check_target,
    game_winner,
    hand_points,
    next_seat,
    opening_lead,
)
from .sampled import state_from_deal
from .views import ActionDict, DealDict, HandView, Refusal, SeatCard, TrickDict, view

__all__ = [
    "TARGET_DEFAULT",
    "TARGET_MAX",
    "TARGET_MIN",
    "Action",
    "ActionDict",
    "ActionList",
    "Call",
    "DealDict",
    "EngineError",
    "ErrorCode",
    "GameState",
    "GameView",
    "HandOutcome",
    "HandResult",
    "HandState",
    "HandView",
    "IllegalAction",
    "LastHand",
    "MakerPlay",
    "MalformedAction",
    "Outcome",
    "Phase",
    "RecordError",
    "Refusal",
    "Rules",
    "RulesDict",
    "ScoreRow",
    "SeatCard",
    "TrickDict",
    "apply",
    "apply_recorded",
    "call_code",
    "call_name",
    "can",
    "card_name",
    "check_target",
    "effective_suit",
    "game_apply",
    "game_deal_hand",
    "game_from_record",
    "game_result",
    "game_start_hand",
    "game_to_record",
    "game_view",
    "game_winner",
    "hand_from_record",
    "hand_points",
    "hand_to_record",
    "legal_actions",
    "new_game",
    "new_hand",
    "next_seat",
    "opening_lead",
    "outcome",
    "outcome_of",
    "points",
    "replay",
    "replay_game",
    "replay_hand",
    "result",
    "state_from_deal",
    "suit_name",
    "trick_winner",
    "verify",
    "view",
]


def replay(record: object) -> dict[str, object]:
    """Replay a hand or game record, whichever its `format` says."""
    if isinstance(record, dict) and record.get("format") == "euchre3-game/1":
        return replay_game(record)
    return replay_hand(record)
