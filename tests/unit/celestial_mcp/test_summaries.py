"""celestial_mcp/summaries.py: the sentences before a curated tool's data. The tools' own
summaries are checked through their results in test_curated.py; here, the readings they share."""

from __future__ import annotations

from celestial_mcp.summaries import moments, zodiac


def test_a_longitude_reads_as_degrees_and_minutes_of_its_sign():
    assert zodiac(111.5) == "21°30′ Cancer"
    assert zodiac(0.0) == "0°00′ Aries"
    # 29°59.994′ rounds to the next sign's 0°00′, never to 30°00′.
    assert zodiac(29.9999) == "0°00′ Taurus"


def test_each_local_time_is_said_with_its_zone_offset_and_utc_reading():
    meta = {
        "moment": {
            "datetime": {
                "local": "1985-07-13T14:05:00",
                "tz": "Europe/Paris",
                "abbreviation": "CEST",
                "utc_offset_seconds": 7200,
                "utc": "1985-07-13T12:05:00.000Z",
            },
            "transit_datetime": {
                "local": "2024-01-01T09:00:00",
                "tz": "America/St_Johns",
                "abbreviation": "NST",
                "utc_offset_seconds": -12600,
                "utc": "2024-01-01T12:30:00.000Z",
            },
        }
    }
    assert moments(meta) == (
        "datetime 1985-07-13T14:05:00 Europe/Paris (CEST, UTC+02:00) = 1985-07-13T12:05:00.000Z; "
        "transit_datetime 2024-01-01T09:00:00 America/St_Johns (NST, UTC-03:30) = 2024-01-01T12:30:00.000Z"
    )
    assert moments({}) == ""
