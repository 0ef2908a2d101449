"""The two tiers of the suite, and the guard that keeps a test in its tier.

A test belongs to the tier of where it runs. One that takes the ``processes`` fixture, itself or
through any fixture it takes (a real stack, a nats-server, chromium, a service process), is
marked :data:`MARKER` at collection and runs only in ``make test-all``; every other test runs in
this test process and is in the fast tier, ``make test`` (``pytest -m "not processes"``).

Nobody keeps a list: a fixture or test that starts a process says so by taking ``processes``.
One that starts a process without taking it fails with :class:`ProcessStartedInProcessTest`
(:func:`guard_the_test`, through an audit hook on process creation and a check in
``multiprocessing``), so an in-process test can never start NATS or a child behind the fast
tier's back, in either tier.
"""

from __future__ import annotations

import contextlib
import multiprocessing.process
import sys
from collections.abc import Iterable, Iterator
from typing import Any

#: The marker of a test that starts processes, and the fixture that declares it.
MARKER = "processes"
FIXTURE = "processes"

#: The audit events of a new process (CPython's audit events table): ``subprocess`` (and so
#: asyncio's subprocesses and Playwright's driver), ``os.fork`` (multiprocessing's fork context),
#: the ``os.exec*``/``os.spawn*``/``os.posix_spawn*`` family and ``os.system``. multiprocessing's
#: spawn and forkserver contexts start their process without an audit event: see
#: :func:`_checked_start`.
PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.fork", "os.forkpty", "os.exec", "os.spawn", "os.posix_spawn", "os.system"}
)


class ProcessStartedInProcessTest(RuntimeError):
    """An in-process test (one that does not take the ``processes`` fixture) started a process."""


def starts_processes(fixturenames: Iterable[str]) -> bool:
    """Return whether a test whose fixture closure is ``fixturenames`` starts processes."""
    return FIXTURE in fixturenames


class _Guard:
    """Whether the running test may start processes; outside a test (collection, reporting)
    nothing is checked."""

    def __init__(self) -> None:
        self.test: str | None = None

    def check(self, what: str) -> None:
        if self.test is not None:
            raise ProcessStartedInProcessTest(
                f"{self.test} started a process ({what}) without taking the {FIXTURE!r} fixture: take it "
                f"(in the test or in the fixture that starts the process) so the test runs in make test-all, "
                f"not in the in-process tier"
            )


_guard = _Guard()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in PROCESS_EVENTS:
        _guard.check(event)


_unchecked_start = multiprocessing.process.BaseProcess.start


def _checked_start(self: multiprocessing.process.BaseProcess) -> None:
    _guard.check(f"multiprocessing {type(self).__name__}")
    _unchecked_start(self)


def install() -> None:
    """Install the guard in this interpreter (once; an audit hook cannot be removed)."""
    if multiprocessing.process.BaseProcess.start is not _checked_start:
        sys.addaudithook(_audit)
        multiprocessing.process.BaseProcess.start = _checked_start  # type: ignore[method-assign]


@contextlib.contextmanager
def guard_the_test(name: str, fixturenames: Iterable[str]) -> Iterator[None]:
    """Within the block, a process started in this interpreter raises
    :class:`ProcessStartedInProcessTest` unless ``fixturenames`` declare processes."""
    previous = _guard.test
    _guard.test = None if starts_processes(fixturenames) else name
    try:
        yield
    finally:
        _guard.test = previous
