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

# Someone (`user`, None for a bot) is about to take seat `position` of
# `table`. Sent inside the seating transaction, before the seat is taken: a
# receiver refuses by raising euchre_site.refusal.Refusal (the
# social app: a seat held for an invited player, a seated player who blocked
# them). Nothing is sent after the commit: the seat is not yet taken.
seat_wanted = Signal()

# `user` took a seat at `table` (inside the same transaction).
seat_taken = Signal()

# Someone at a table should be told something. Sent with:
#   user      the person to tell
#   kind      a notifications.Notification kind (below)
#   game      the Game it is about
#   params    the facts of the kind, a small JSON-able dict (below): no words,
#             the receiver writes them in the recipient's language when the
#             notification is read or sent
#   turn_key  makes telling twice a no-op ("<game id>:<version>",
#             "start:<game id>", "end:<game id>")
#
# Kinds and their params:
#   "turn"          {"table": str}   it is the user's move (tables played by turns)
#   "game_started"  {"table": str}
#   "game_ended"    {"table": str, "winner": str}, and when a bot's own seat won
#                   also "winner_bot": "easy" | "medium" | "hard" | "expert" and
#                   "winner_seat": 1 | 2 | 3. `winner` is the winner's user name
#                   (a bot's name in the site's default language when a bot won,
#                   "?" if unknown); games.words.winner_name(params) says a
#                   bot's name in the active language.
#   "timeout"       {"table": str, "handed_over": bool}   the user's time ran out
#                   and the medium bot moved for them; handed_over: after three
#                   time-outs in a row the bot now plays their seat (they can
#                   take it back from the table)
# `table` is the table's name as its owner typed it (never translated).
tell = Signal()

# `tell`'s params: the facts above (str, int or bool values; no words).
TellParams = dict[str, str | int | bool]
