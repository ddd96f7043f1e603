"""Browser tests: Playwright driving Debian's chromium against a real daphne.

`make test` installs /usr/bin/chromium when it is missing; when that was not
possible the browser tests are skipped with a loud warning, never silently.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

# The sync Playwright API keeps an event loop running in the test thread, which
# makes Django refuse the ORM calls of the database fixtures' teardown.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    e2e = [item for item in items if Path(str(item.fspath)).parent == Path(__file__).parent]
    for item in e2e:
        item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.django_db(transaction=True))
    if e2e and not Path(CHROMIUM).exists():
        message = f"!!! {CHROMIUM} is missing: {len(e2e)} BROWSER TESTS SKIPPED (apt-get install chromium) !!!"
        warnings.warn(message, stacklevel=1)
        print("\n" + "!" * 80 + "\n" + message + "\n" + "!" * 80)
        for item in e2e:
            item.add_marker(pytest.mark.skip(reason=message))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url(daphne_server: str) -> str:
    return daphne_server
