"""Which ``/metrics`` port each process of `make run` serves: one each, from
CELESTIAL_METRICS_BASE_PORT upward in the order the supervisor plans them (none when it is 0).
docs/operating.md."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Planned(Protocol):
    """A process of the supervisor's plan (``deploy/supervisor.py``'s Child)."""

    name: str
    env: dict[str, str]


def metrics_ports(names: Iterable[str], base_port: int) -> dict[str, int]:
    """Return each named process's ``/metrics`` port, in order from ``base_port``; none when it is 0."""
    if not base_port:
        return {}
    return {name: base_port + index for index, name in enumerate(names)}


def with_metrics_ports(children: list[Planned], base_port: int) -> list[Planned]:
    """Return ``children`` each given its CELESTIAL_METRICS_PORT (:func:`metrics_ports`)."""
    ports = metrics_ports((child.name for child in children), base_port)
    for child in children:
        if child.name in ports:
            child.env["CELESTIAL_METRICS_PORT"] = str(ports[child.name])
    return children
