"""Print a new VAPID key pair for web push, as lines for the environment (.env);
with --ensure, make the site's own pair in VAPID_KEY_FILE when none is configured."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from euchre_site import vapid_file


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_keys() -> tuple[str, str]:
    """(private, public): the raw P-256 private value and the uncompressed public point."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ensure",
            action="store_true",
            help="write a pair to VAPID_KEY_FILE unless keys are configured (make run does)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["ensure"]:
            self.ensure()
            return
        private, public = new_vapid_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")

    def ensure(self) -> None:
        path = settings.VAPID_KEY_FILE
        if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
            self.stdout.write("web push: VAPID keys configured")
            return
        private, public = new_vapid_keys()
        try:
            vapid_file.write(path, private, public)
        except FileExistsError:  # there but unreadable or incomplete: leave it to the owner
            self.stderr.write(f"web push: {path} holds no complete key pair; push stays off")
            return
        self.stdout.write(f"web push: created the site's VAPID key pair in {path}")
