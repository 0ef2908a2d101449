"""kernel/eclipses.py: solar and lunar eclipses against NASA's canon (Espenak & Meeus, Five
Millennium Canon; tests/unit/kernel/nasa_eclipses.py): type and time of greatest eclipse for
every eclipse of 2021-2032, filters and backward searches, local circumstances."""

from __future__ import annotations

import pytest

from kernel.deadline import Deadline
from kernel.eclipses import lunar_eclipses, solar_eclipses
from kernel.positions import Observer
from kernel.timescale import Moment
from tests.unit.kernel import nasa_eclipses
from tests.unit.kernel.skyfield_reference import timescale

NEVER = Deadline.never()
SECONDS_PER_DAY = 86400.0


# Maxima within 30 s of the canon's (the bound): the two use different lunar
# ephemerides and limb corrections; Swiss Ephemeris's Delta T turns our UT into TD.
ECLIPSE_TOLERANCE_S = 30.0


def canon_jd_tt(date: str, clock: str) -> float:
    year, month, day = map(int, date.split("-"))
    hour, minute, second = map(int, clock.split(":"))
    return timescale().tt(year, month, day, hour, minute, second).tt


@pytest.mark.parametrize(
    ("kind", "catalogue", "search"),
    [("solar", nasa_eclipses.SOLAR, solar_eclipses), ("lunar", nasa_eclipses.LUNAR, lunar_eclipses)],
)
def test_every_eclipse_of_2021_to_2032_has_the_canons_type_and_maximum(kind, catalogue, search):
    types = ["total", "annular", "partial", "annular_total"] if kind == "solar" else ["total", "partial", "penumbral"]
    found = search(Moment.from_iso("2021-01-01T00:00:00Z").jd_ut1, types, len(catalogue), NEVER)
    for eclipse, (date, clock, expected_type) in zip(found, catalogue):
        assert eclipse.eclipse_type == expected_type, date
        ours_tt = Moment.from_jd_ut1(eclipse.maximum).jd_tt
        assert abs(ours_tt - canon_jd_tt(date, clock)) * SECONDS_PER_DAY < ECLIPSE_TOLERANCE_S, date


def test_a_type_filter_and_a_backward_search_keep_to_the_canon():
    totals = solar_eclipses(Moment.from_iso("2033-01-01T00:00:00Z").jd_ut1, ["total"], 2, NEVER, backward=True)
    canon = [(d, c) for d, c, t in nasa_eclipses.SOLAR if t == "total"][-2:][::-1]
    assert [e.eclipse_type for e in totals] == ["total", "total"]
    for eclipse, (date, clock) in zip(totals, canon):
        assert (
            abs(Moment.from_jd_ut1(eclipse.maximum).jd_tt - canon_jd_tt(date, clock)) * SECONDS_PER_DAY
            < ECLIPSE_TOLERANCE_S
        )


@pytest.mark.parametrize(("search", "kind"), [(solar_eclipses, "total"), (lunar_eclipses, "total")])
def test_a_type_named_twice_finds_what_it_finds_named_once(search, kind):
    # Found by fuzzing: two "total" flags summed made another type's bit (lunar: annular).
    start = Moment.from_iso("2021-01-01T00:00:00Z").jd_ut1
    assert search(start, [kind, kind], 3, NEVER) == search(start, [kind], 3, NEVER)


def test_a_local_solar_eclipse_has_contacts_in_order_magnitude_and_obscuration():
    dallas = Observer(32.78, -96.8, 0.0)
    (eclipse,) = solar_eclipses(
        Moment.from_iso("2024-01-01T00:00:00Z").jd_ut1,
        ["total", "annular", "partial", "annular_total"],
        1,
        NEVER,
        place=dallas,
    )
    assert eclipse.eclipse_type == "total" and eclipse.magnitude > 1.0 and eclipse.obscuration == 1.0
    contacts = [
        eclipse.first_contact,
        eclipse.second_contact,
        eclipse.maximum,
        eclipse.third_contact,
        eclipse.fourth_contact,
    ]
    assert contacts == sorted(contacts)
    assert (
        3.5 * 60 < (eclipse.third_contact - eclipse.second_contact) * SECONDS_PER_DAY < 4.0 * 60
    )  # about 3 min 50 s of totality in Dallas


def test_lunar_visibility_follows_the_moon_above_the_horizon():
    # The total lunar eclipse of 2025-09-07 (18:12 TD) was seen from Asia and Europe, not from the Americas.
    start = Moment.from_iso("2025-09-01T00:00:00Z").jd_ut1
    (delhi,) = lunar_eclipses(start, ["total"], 1, NEVER, place=Observer(28.6, 77.2, 0.0))
    (chicago,) = lunar_eclipses(start, ["total"], 1, NEVER, place=Observer(41.9, -87.6, 0.0))
    assert delhi.visible is True and chicago.visible is False
