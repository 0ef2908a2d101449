"""How long the worker's event loop was held at once (issue 46, part 3: never more than 50 ms).

A task sleeps :data:`PERIOD_S` again and again; how much later than asked it wakes is how long
something held the loop meanwhile (the loop's own scheduling adds a fraction of a
millisecond). :class:`LoopWatch` keeps the longest since it was last read, and the longest
the loop's own thread spent computing during one (its CPU time over the same span): a block
with little CPU is the machine's scheduler taking the core away (more processes than cores),
not work the loop does.
"""

from __future__ import annotations

import asyncio
import time

#: Seconds the watching task sleeps between two looks.
PERIOD_S = 0.010


class LoopWatch:
    """The longest overshoot of a :data:`PERIOD_S` sleep, in milliseconds, since last read."""

    def __init__(self, clock=time.perf_counter, cpu_clock=time.thread_time):
        self._clock = clock
        self._cpu_clock = cpu_clock
        self._longest_ms = 0.0
        self.longest_ever_ms = 0.0
        #: The most CPU (ms) the loop's thread spent within one look's span, ever.
        self.longest_cpu_ever_ms = 0.0

    def saw(self, overshoot_s: float, cpu_s: float | None = None) -> None:
        """Take in one look's overshoot (seconds) and the loop thread's CPU time over its span
        (seconds; None: not measured)."""
        overshoot_ms = max(0.0, overshoot_s * 1000.0)
        self._longest_ms = max(self._longest_ms, overshoot_ms)
        self.longest_ever_ms = max(self.longest_ever_ms, overshoot_ms)
        if cpu_s is not None:
            self.longest_cpu_ever_ms = max(self.longest_cpu_ever_ms, min(overshoot_ms, cpu_s * 1000.0))

    def take_longest_ms(self) -> float:
        """Return the longest block (milliseconds) since the last call, and start again."""
        longest, self._longest_ms = self._longest_ms, 0.0
        return longest

    async def watch(self, stop: asyncio.Event) -> None:
        """Look every :data:`PERIOD_S` until ``stop`` is set."""
        while not stop.is_set():
            before, before_cpu = self._clock(), self._cpu_clock()
            await asyncio.sleep(PERIOD_S)
            self.saw(self._clock() - before - PERIOD_S, self._cpu_clock() - before_cpu)
