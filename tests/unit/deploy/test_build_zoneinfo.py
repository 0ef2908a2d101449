"""deploy/build_zoneinfo.py: the shipped tz source compiled by zic into the folder a process reads."""

from __future__ import annotations

from datetime import datetime, timedelta

from deploy.build_zoneinfo import build
from kernel import civil_time
from shared.runtime.config import load_settings


def test_the_build_writes_every_zone_beside_its_source_and_a_process_reads_them(processes, tmp_path):
    source = load_settings().tz_path
    assert build(source, tmp_path) == len(civil_time.zone_names())
    assert (tmp_path / "tzdata.zi").read_bytes() == (source / "tzdata.zi").read_bytes()
    try:
        civil_time.use_zone_files(tmp_path)
        reading = civil_time.read_local(datetime(1900, 1, 1, 12), civil_time.zone_named("Europe/Amsterdam"))
        assert reading.utc_offset_s == 19 * 60 + 32
        assert reading.utc.replace(tzinfo=None) == datetime(1900, 1, 1, 12) - timedelta(seconds=1172)
    finally:
        civil_time.use_zone_files(source)


def test_a_second_build_replaces_the_first(processes, tmp_path):
    source = load_settings().tz_path
    build(source, tmp_path)
    (tmp_path / "zoneinfo" / "stale").write_text("left from an older release")
    build(source, tmp_path)
    assert not (tmp_path / "zoneinfo" / "stale").exists()
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith("tmp")] == []
