"""What a progressed chart request progresses (shared/runtime/progression.py).

References: ComputeProgressedChartRequest (ephemeris_service.proto: one day after birth for
each year_days elapsed to the target; the target's parameters target_datetime and target_jd);
secondary progressions, a day for a year.
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel.errors import InvalidProgression
from kernel.positions import Observer
from shared.runtime.progression import progression_from
from shared.runtime.validation import validate

BIRTH = Birth(moment=Moment(jd=2451545.0), location=Place(lat=51.5, lon=-0.1))


def test_one_day_after_birth_is_cast_for_each_year_of_year_days_elapsed():
    request = validate(
        pb.ComputeProgressedChartRequest(birth=BIRTH, target=Moment(jd=2451545.0 + 30 * 365.25), year_days=365.25)
    ).message
    progression = progression_from(request)
    assert progression.moment.jd_ut1 == pytest.approx(2451545.0 + 30, abs=1e-9)
    assert (progression.natal.jd_ut1, progression.target.jd_ut1) == (2451545.0, 2451545.0 + 30 * 365.25)
    assert progression.place == Observer(51.5, -0.1, 0.0)


def test_the_charts_settings_come_with_the_progression():
    request = validate(
        pb.ComputeProgressedChartRequest(birth=BIRTH, target=Moment(jd=2460000.5), bodies=["sun", "moon"])
    ).message
    assert progression_from(request).chart.settings.bodies == ("sun", "moon")


@pytest.mark.parametrize(
    ("target", "param"),
    [(Moment(jd=2451544.0), "target_jd"), (Moment(datetime="1999-12-31T00:00:00Z"), "target_datetime")],
)
def test_a_target_before_birth_is_invalid_progression_naming_the_targets_parameter(target, param):
    with pytest.raises(InvalidProgression) as caught:
        progression_from(pb.ComputeProgressedChartRequest(birth=BIRTH, target=target, year_days=365.2422))
    assert caught.value.param == param
