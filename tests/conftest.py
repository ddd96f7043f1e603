"""The root of the tests, free of Django: the engine and bots tests run with
`pytest -p no:django tests/engine tests/bots` (`make test-engine`), without
Django or Redis. When pytest-django runs, the site's services and fixtures
come from tests/django_plugin.py, loaded here."""

from __future__ import annotations

from typing import Any

import pytest

DJANGO_PLUGIN = "tests.django_plugin"
# What other test modules import from here, kept in the Django plugin.
FROM_THE_PLUGIN = {"ROOT", "celery_conf", "service_env", "start_worker", "stop"}


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("django"):
        import importlib

        config.pluginmanager.register(importlib.import_module(DJANGO_PLUGIN), DJANGO_PLUGIN)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API keeps an event loop running in
    the main thread for the rest of the session, where `async_to_sync` (the
    websocket tests) then refuses to run."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def __getattr__(name: str) -> Any:
    """`from tests.conftest import celery_conf` (and ROOT, stop, ...) still
    works: the names come from the Django plugin, imported only when asked."""
    if name not in FROM_THE_PLUGIN:
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(DJANGO_PLUGIN), name)
