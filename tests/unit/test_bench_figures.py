"""`make bench` writes its figures to var/bench.json, one member per named figure (bench/figures.py)."""

from __future__ import annotations

import json

from bench import figures


def test_each_recorded_figure_is_one_member_of_the_written_file(tmp_path):
    assert figures.record("positions_stack_over_floor", 0.123456) == 0.123456
    figures.record("transits_default_ms", 88.0)
    written = json.loads(figures.write(tmp_path / "bench.json").read_text())
    assert written["positions_stack_over_floor"] == 0.1235
    assert written["transits_default_ms"] == 88.0
