"""What the daily deal's services announce, so that they queue no task
themselves (daily.tasks imports the services, never the reverse):
daily.receivers turns each announcement into a task.

Sent after the transaction that made it true has committed.
"""

from django.dispatch import Signal

# An attempt ended without its game announcing it (the game was gone or
# over already): `entry_id`. Its points, streak and the day's figures follow.
entry_ended = Signal()
