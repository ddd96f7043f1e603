"""`make run` makes the site's VAPID key pair when none is configured, and the
settings use it: web push works out of the box. Real processes, real settings."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SHOW = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.VAPID_PUBLIC_KEY); print(settings.VAPID_PRIVATE_KEY)"
)


def run(args: list[str], key_file: Path, **env: str) -> str:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
        "VAPID_KEY_FILE": str(key_file),
        "VAPID_PUBLIC_KEY": "",
        "VAPID_PRIVATE_KEY": "",
        **env,
    }
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_ensure_makes_a_pair_once_and_the_settings_read_it(tmp_path: Path) -> None:
    key_file = tmp_path / "vapid.env"
    assert run(["-c", SHOW], key_file).split() == []  # none yet: push is off
    said = run(["manage.py", "vapid_keys", "--ensure"], key_file)
    assert "created" in said
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    first = key_file.read_text()
    public, private = run(["-c", SHOW], key_file).split()
    assert f"VAPID_PUBLIC_KEY={public}" in first and f"VAPID_PRIVATE_KEY={private}" in first
    assert len(public) == 87 and len(private) == 43  # P-256 point and scalar, base64url
    # Again: the pair stays (subscriptions made with it keep working).
    run(["manage.py", "vapid_keys", "--ensure"], key_file)
    assert key_file.read_text() == first


def test_keys_in_the_environment_win_and_no_file_is_made(tmp_path: Path) -> None:
    key_file = tmp_path / "vapid.env"
    env = {"VAPID_PUBLIC_KEY": "pub-from-env", "VAPID_PRIVATE_KEY": "priv-from-env"}
    assert "configured" in run(["manage.py", "vapid_keys", "--ensure"], key_file, **env)
    assert not key_file.exists()
    assert run(["-c", SHOW], key_file, **env).split() == ["pub-from-env", "priv-from-env"]


def test_a_broken_file_is_left_alone_and_push_stays_off(tmp_path: Path) -> None:
    key_file = tmp_path / "vapid.env"
    key_file.write_text("VAPID_PUBLIC_KEY=only-half\n")
    run(["manage.py", "vapid_keys", "--ensure"], key_file)
    assert key_file.read_text() == "VAPID_PUBLIC_KEY=only-half\n"
    assert run(["-c", SHOW], key_file).split() == []
