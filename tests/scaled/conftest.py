"""The scaled-out stack (tests/scaled/stack.py), started once for these tests.

These tests talk to the stack only over HTTP and websockets, and read its
database through tests/scaled/cli.py; they need no test database of their own.
A test that kills a process starts it again before it ends, so the next test
finds the whole stack.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from .client import LoopThread
from .stack import Stack


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    s = Stack()
    try:
        s.start()
    except BaseException:
        print(s.logs())
        s.stop()
        raise
    yield s
    s.stop()


@pytest.fixture(scope="session")
def loop() -> LoopThread:
    return LoopThread()


@pytest.fixture
def show_logs_on_failure(request: pytest.FixtureRequest, stack: Stack) -> Iterator[None]:
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(stack.logs())


@pytest.fixture(autouse=True)
def whole_stack_after(stack: Stack) -> Iterator[None]:
    """A test that fails before it restarts what it killed leaves the next
    one a whole stack all the same (one failure, not a cascade)."""
    yield
    if down := stack.heal():
        print(f"restarted after the test: {', '.join(down)}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
