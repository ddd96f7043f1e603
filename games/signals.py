"""What the games app announces. Statistics and notifications subscribe to
these (in their AppConfig.ready), so games imports neither: the apps'
imports go one way, games <- stats and games <- notifications, and
`make lint` (import-linter) holds them to it.

Every signal is sent after the transaction that made it true has committed.
"""

from django.dispatch import Signal

# A hand was scored: `hand_id`.
hand_finished = Signal()

# A game ended: `game_id`.
game_finished = Signal()

# Someone at a table should be told something: `user`, `kind` (a
# notifications.Notification kind: "turn", "game_started", "game_ended",
# "timeout"), `game`, `text`, `turn_key` (makes telling twice a no-op).
tell = Signal()
