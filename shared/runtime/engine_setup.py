"""What a process opens before it computes: the ephemeris files, the gazetteer and the time
zones, each warmed so that the first request pays nothing for them. A compute child opens them
(``shared/runtime/compute_child.py``), and so does a serving process that computes its bounded
calls itself (``shared/runtime/server.py``)."""

from __future__ import annotations

from kernel import civil_time, engine, places
from shared.runtime.config import Settings


def open_engine(settings: Settings) -> None:
    """Open and warm the engine's files in this process (``settings``' paths)."""
    engine.use_ephemeris_files(settings.ephe_path)
    places.use_gazetteer(settings.places_path)
    civil_time.use_zone_files(settings.tz_path)
    engine.warm_up()
    civil_time.open_zone_map()
