"""Print a new VAPID key pair for web push, as lines for the environment (.env)."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


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

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = new_vapid_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
