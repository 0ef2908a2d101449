"""What a process opens before it computes (shared/runtime/engine_setup.py): the ephemeris
files, the gazetteer and the time zones of its settings, each warmed, in a compute child and
in a serving process that computes its bounded calls itself."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from kernel import civil_time, engine, places
from shared.runtime import engine_setup
from shared.runtime.config import load_settings


def test_open_engine_points_the_engine_the_gazetteer_and_the_zones_at_the_settings_paths_then_warms_them(monkeypatch):
    calls: list[tuple[str, str]] = []
    for module, name in ((engine, "use_ephemeris_files"), (places, "use_gazetteer"), (civil_time, "use_zone_files")):
        monkeypatch.setattr(module, name, lambda path, name=name: calls.append((name, str(path))))
    for module, name in ((engine, "warm_up"), (civil_time, "open_zone_map")):
        monkeypatch.setattr(module, name, lambda name=name: calls.append((name, "")))
    paths = {"ephe_path": Path("/e"), "places_path": Path("/p.sqlite"), "tz_path": Path("/tz")}
    settings = dataclasses.replace(load_settings(), **paths)
    engine_setup.open_engine(settings)
    assert calls[:3] == [("use_ephemeris_files", "/e"), ("use_gazetteer", "/p.sqlite"), ("use_zone_files", "/tz")]
    assert sorted(calls[3:]) == [("open_zone_map", ""), ("warm_up", "")]
