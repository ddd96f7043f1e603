"""What the statistics' services announce, so that they queue no task
themselves (stats.tasks imports them, never the reverse): stats.receivers
turns each announcement into a task.

Sent after the transaction that made it true has committed.
"""

from django.dispatch import Signal

# A hard-bot review was asked for and stored, queued: `review_id`.
review_wanted = Signal()
