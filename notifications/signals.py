"""What the notification services announce, so that they queue no task
themselves (notifications.tasks imports them, never the reverse):
notifications.receivers turns each announcement into tasks.

Sent after the transaction that made it true has committed.
"""

from django.dispatch import Signal

# A notification was stored: `user_id`, `notification_id`, and whether it
# goes out by e-mail (`email`, in the user's next batch) and by web push (`push`).
notification_stored = Signal()
