"""What accounts announces to the apps above it (accounts imports none of them).

`vacation_changed(user, now)`: `user` went on vacation or came back at
`now`, inside the transaction that saved it; games moves the deadlines of
its by-turns games waiting for them (games.services.vacations).
"""

from django.dispatch import Signal

vacation_changed = Signal()
