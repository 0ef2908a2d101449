"""What a call to a service is expected to cost: the mean compute time of each RPC, as the
service processes report it.

Each service process reports with every answer how long its compute child spent on it
(trailing metadata ``x-compute-ms``, ``shared/runtime/server.py``): the time the request took
once it was computed, without its wait in the process's queue. A pool keeps, per RPC, an
exponentially weighted mean of those times; the gateway's fair share (``gateway/fair_share.py``)
orders and sheds calls by it.
"""

from __future__ import annotations

from shared.runtime.server import COMPUTE_MS_METADATA_KEY

#: The weight of the newest time in the mean: about the last ten calls count.
WEIGHT = 0.1


class CallCosts:
    """The expected compute time (seconds) of each RPC of one pool."""

    def __init__(self) -> None:
        self._mean_s: dict[str, float] = {}

    def expected_s(self, method_path: str) -> float:
        """Return the expected compute time of ``method_path`` in seconds; 0 before any call answered."""
        return self._mean_s.get(method_path, 0.0)

    def record(self, method_path: str, seconds: float) -> None:
        """Count one answer of ``method_path`` computed in ``seconds``."""
        mean = self._mean_s.get(method_path)
        self._mean_s[method_path] = seconds if mean is None else mean + WEIGHT * (seconds - mean)

    def record_metadata(self, method_path: str, metadata) -> None:
        """Count the compute time an answer's trailing ``metadata`` reports, if it reports one."""
        for key, value in metadata or ():
            if key == COMPUTE_MS_METADATA_KEY:
                try:
                    self.record(method_path, float(value) / 1000.0)
                except ValueError:
                    pass
                return
