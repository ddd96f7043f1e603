"""The site's own VAPID key pair for web push, kept in a file under var/.

`make run` writes one (`manage.py vapid_keys --ensure`) when the environment
configures none, so push works out of the box; the settings read it when
VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set. A key pair set in the
environment always wins (README: how to set a permanent one). The file holds
`VAPID_PRIVATE_KEY=...` and `VAPID_PUBLIC_KEY=...` lines, readable by its
owner only. Plain Python: the settings import it before Django is set up.
"""

from __future__ import annotations

import os
from pathlib import Path

NAMES = ("VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY")


def read(path: Path) -> dict[str, str]:
    """The pair in `path`, or {} when the file is missing or incomplete."""
    try:
        text = path.read_text()
    except OSError:
        return {}
    pairs = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    keys = {name: pairs.get(name, "").strip() for name in NAMES}
    return keys if all(keys.values()) else {}


def write(path: Path, private: str, public: str) -> None:
    """Create `path` with the pair, mode 0600 (never overwrites: O_EXCL)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
