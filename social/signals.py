"""What the social services announce, so that they queue no task themselves
(social.tasks imports them, never the reverse): social.receivers turns each
announcement into a task.

Sent after the transaction that made it true has committed.
"""

from django.dispatch import Signal

# A seat was held for an e-mail address: `invitation_id`. The link is mailed.
invitation_to_mail = Signal()
