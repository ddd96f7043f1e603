"""Every state change of tables and games happens here, in one function each,
by subject:

- `tables`: tables before their game starts (open, seats, bots, the link);
- `lifecycle`: a game starts (full table, rematch, daily deal), stops early,
  and its seats change hands under way (autopilot, away);
- `moves`: `game_act`, one move exactly once (`bot_act`: a bot's, decided
  under the same lock);
- `caps`: the caps on expert tables and autopilot seats;
- `turns`: whose turn, its deadline, the site's pause before it moves;
- `state`: the engine's state of a game, rebuilt and cached;
- `after`: what follows a committed change, said through games.events;
- `vacations`: the deadlines follow a player's vacation (accounts.vacations).

Callers use the names below (`services.table_join`, ...); inside the
package each module imports the ones it needs, in that order downwards
(tables -> lifecycle -> caps -> turns -> state; none of them imports this file).
"""

from games.models import TIMEOUTS_BEFORE_HANDOVER

from .caps import check_autopilot_seats, check_expert_tables
from .lifecycle import (
    FixedDeals,
    daily_table_create,
    game_rematch,
    game_stop,
    seat_set_autopilot,
    seat_set_away,
)
from .moves import Actor, Decide, Move, MoveResult, bot_act, game_act
from .state import current_hand_row, game_state
from .tables import (
    MAX_NAME,
    SEATS,
    check_seat_free,
    seat_position,
    table_create,
    table_fill_with_bots,
    table_join,
    table_leave,
    table_revoke_invitation,
    table_set_bot,
)
from .turns import bot_countdown, lock_owner, only_card

__all__ = [
    "MAX_NAME",
    "SEATS",
    "TIMEOUTS_BEFORE_HANDOVER",
    "Actor",
    "Decide",
    "FixedDeals",
    "Move",
    "MoveResult",
    "bot_act",
    "bot_countdown",
    "check_autopilot_seats",
    "check_expert_tables",
    "check_seat_free",
    "current_hand_row",
    "daily_table_create",
    "game_act",
    "game_rematch",
    "game_state",
    "game_stop",
    "lock_owner",
    "only_card",
    "seat_position",
    "seat_set_autopilot",
    "seat_set_away",
    "table_create",
    "table_fill_with_bots",
    "table_join",
    "table_leave",
    "table_revoke_invitation",
    "table_set_bot",
]
