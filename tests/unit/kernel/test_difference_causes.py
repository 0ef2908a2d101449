"""The causes tried when another program's chart differs: the vocabulary and how each cause
changes the reading of a birth."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from kernel.difference_causes import CAUSE_KINDS, Cause, Reading, apply_causes, candidate_causes

# Paris, 14 July 1985 15:30 CEST (UTC+2, of which 1 h daylight saving) = 13:30 UTC.
PARIS = Reading(datetime(1985, 7, 14, 13, 30, tzinfo=UTC), 7200, 3600, 48.8566, 2.3522, 0.0, "placidus", None)


def _single(kind: str, reading: Reading = PARIS, hour: int = 15) -> list[Cause]:
    return [c for c in candidate_causes(reading, hour) if c.kind == kind]


def test_the_vocabulary_is_the_issues_list_of_kinds():
    assert set(CAUSE_KINDS) == {
        "time_offset", "dst", "local_mean_time", "date", "am_pm", "longitude_sign", "latitude_sign",
        "coordinates_swapped", "house_system", "zodiac", "node", "topocentric", "true_positions",
        "delta_t", "year_length",
    }  # fmt: skip


def test_dst_not_applied_reads_the_clock_in_standard_time_an_hour_later():
    (dst,) = _single("dst")
    assert dst.value == "not_applied"
    assert apply_causes(PARIS, (dst,)).utc == datetime(1985, 7, 14, 14, 30, tzinfo=UTC)


def test_local_mean_time_reads_the_clock_as_the_towns_mean_solar_time():
    (lmt,) = _single("local_mean_time")
    # 15:30 local mean time at 2.3522° E (9 min 25 s east of Greenwich) is 15:20:35 UTC.
    assert lmt.value == "+00:09:25"
    assert apply_causes(PARIS, (lmt,)).utc == datetime(1985, 7, 14, 15, 20, 35, tzinfo=UTC)


def test_the_offsets_sign_reversed_reads_utc_plus_2_as_utc_minus_2():
    reversed_sign = [c for c in _single("time_offset") if c.value == "-02:00"]
    assert apply_causes(PARIS, tuple(reversed_sign)).utc == datetime(1985, 7, 14, 17, 30, tzinfo=UTC)


def test_an_afternoon_hour_read_as_the_mornings_is_twelve_hours_earlier():
    (am_pm,) = _single("am_pm")
    assert am_pm.value == "am"
    assert apply_causes(PARIS, (am_pm,)).utc == PARIS.utc - timedelta(hours=12)


def test_two_time_causes_add_their_shifts_and_place_causes_apply_in_order():
    (dst,) = _single("dst")
    plus_day = [c for c in _single("date") if c.value == "+1"]
    assert apply_causes(PARIS, (dst, *plus_day)).utc == PARIS.utc + timedelta(hours=25)
    (swap,) = _single("coordinates_swapped")
    (lat_sign,) = _single("latitude_sign")
    changed = apply_causes(PARIS, (lat_sign, swap))
    assert (changed.lat, changed.lon) == (2.3522, -48.8566)


def test_the_readings_own_conventions_are_not_tried_again():
    assert "placidus" not in [c.value for c in _single("house_system")]
    assert "tropical" not in [c.value for c in _single("zodiac")]
    sidereal = Reading(PARIS.utc, 0, 0, 0.0, 0.0, 0.0, "whole_sign", "lahiri")
    assert "tropical" in [c.value for c in _single("zodiac", sidereal)]
    # At the equator and the prime meridian a sign changes nothing: not tried.
    assert not _single("latitude_sign", sidereal) and not _single("longitude_sign", sidereal)


def test_year_length_tries_each_other_dasha_year_and_changes_nothing_else():
    assert [c.value for c in _single("year_length")] == ["julian", "savana", "gregorian"]
    julian = Reading(PARIS.utc, 7200, 3600, 48.8566, 2.3522, 0.0, "placidus", None, year_length="julian")
    assert [c.value for c in _single("year_length", julian)] == ["sidereal", "savana", "gregorian"]
    (savana,) = [c for c in _single("year_length") if c.value == "savana"]
    changed = apply_causes(PARIS, (savana,))
    assert changed.year_length == "savana" and changed.utc == PARIS.utc and savana.shift_s == 0
