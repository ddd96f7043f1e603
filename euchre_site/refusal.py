"""A request refused as asked: nothing changed. `message` is what the person
reads (in the request's language), `status` the 4xx that answers it. The
social and chat apps raise their own subclasses of it."""

from __future__ import annotations


class Refusal(Exception):
    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
