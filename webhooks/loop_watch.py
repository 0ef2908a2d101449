"""How long the worker's event loop was held at once (issue 46, part 3: never more than 50 ms).

A task sleeps :data:`PERIOD_S` again and again; how much later than asked it wakes is how long
something held the loop meanwhile (the loop's own scheduling adds a fraction of a
millisecond). :class:`LoopWatch` keeps the longest since it was last read.
"""

from __future__ import annotations

import asyncio
import time

#: Seconds the watching task sleeps between two looks.
PERIOD_S = 0.010


class LoopWatch:
    """The longest overshoot of a :data:`PERIOD_S` sleep, in milliseconds, since last read."""

    def __init__(self, clock=time.perf_counter):
        self._clock = clock
        self._longest_ms = 0.0
        self.longest_ever_ms = 0.0

    def saw(self, overshoot_s: float) -> None:
        """Take in one look's overshoot (seconds)."""
        overshoot_ms = max(0.0, overshoot_s * 1000.0)
        self._longest_ms = max(self._longest_ms, overshoot_ms)
        self.longest_ever_ms = max(self.longest_ever_ms, overshoot_ms)

    def take_longest_ms(self) -> float:
        """Return the longest block (milliseconds) since the last call, and start again."""
        longest, self._longest_ms = self._longest_ms, 0.0
        return longest

    async def watch(self, stop: asyncio.Event) -> None:
        """Look every :data:`PERIOD_S` until ``stop`` is set."""
        while not stop.is_set():
            before = self._clock()
            await asyncio.sleep(PERIOD_S)
            self.saw(self._clock() - before - PERIOD_S)
