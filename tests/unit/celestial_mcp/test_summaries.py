"""celestial_mcp/summaries.py: the sentences before a curated tool's data. The tools' own
summaries are checked through their results in test_curated.py; here, the readings they share."""

from __future__ import annotations

from celestial_mcp.summaries import (
    CAUSE_WORDS,
    angle_words,
    cause_words,
    chart_summary,
    moments,
    request_words,
    zodiac,
)
from kernel.difference_causes import CAUSE_KINDS


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


def test_every_cause_kind_of_the_vocabulary_reads_in_words_with_its_kind_and_value():
    assert set(CAUSE_WORDS) == set(CAUSE_KINDS)
    assert cause_words({"kind": "dst", "value": "not_applied"}) == (
        "the clock read without the summer hour (dst=not_applied)"
    )
    assert cause_words({"kind": "time_offset", "value": "+03:00"}) == "the clock read at UTC+03:00 (time_offset=+03:00)"
    assert cause_words({"kind": "zodiac", "value": "lahiri"}) == "the sidereal zodiac of lahiri (zodiac=lahiri)"


def test_a_residual_reads_in_arcseconds_arcminutes_or_degrees_as_fits_its_size():
    assert angle_words(-11.5) == "11.5″"
    assert angle_words(738.0) == "12.3′"
    assert angle_words(255078.5) == "70.86°"


def test_a_corrected_request_reads_as_natal_chart_arguments_with_topocentric_in_extra():
    request = {"datetime": "1985-07-13T13:05:00.000Z", "lat": 48.85, "topocentric": True, "bodies": ["sun", "moon"]}
    assert request_words(request) == (
        "datetime=1985-07-13T13:05:00.000Z, lat=48.85, extra.topocentric=true, bodies=[sun, moon]"
    )
    assert "topocentric" not in request_words({"lat": 1.0, "topocentric": False})


def test_a_synastry_with_a_score_says_the_method_the_points_the_category_and_how_many_parts():
    chart = {"metadata": {"datetime_iso": "1984-02-11T09:20:00Z"}, "positions": [{"body": "sun", "longitude": 321.9}]}
    synastry = {"chart_a": chart, "chart_b": chart, "inter_aspects": [{}, {}]}
    parts = [{"rule": "destiny_sign", "points": 5}, {"rule": "venus_mars", "points": 4}, {"rule": "sun_ascendant"}]
    scored = {
        **synastry,
        "compatibility": {"method": "discepolo", "score": 13, "category": "important", "parts": parts},
    }
    assert chart_summary(scored, {}, {}).endswith(
        "2 aspects between them. Compatibility (discepolo): 13 points, important, from 3 parts."
    )
    assert chart_summary(synastry, {}, {}).endswith("2 aspects between them.")
