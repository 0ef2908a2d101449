"""Kernel charts rendered as the wire's Chart message (shared/runtime/chart_record.py).

References: interface.md, Chart object; decisions.md, Charts; the Chart message and its parts
(common.proto: house_position only in mundane mode, right_ascension only with equatorial,
applying only when computed, focal only when a pattern has one, a derived point's declination
only when it has one, the exaltation and triplicity rulers only when there is one, sidereal
only in sidereal mode, cusps with slot 0 a placeholder). Every rendered value is compared with
the kernel chart's own.
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel.chart import cast_chart
from kernel.positions import Observer
from kernel.timescale import Moment as KernelMoment
from shared.runtime.chart_record import chart_record
from shared.runtime.validation import validate

J2000 = 2451545.0
PLACE = Observer(51.5, -0.1, 0.0)


def cast(**options):
    """Cast the J2000 chart of a natal request with ``options`` (the request read as a service reads it)."""
    request = pb.ComputeNatalChartRequest(
        birth=Birth(moment=Moment(jd=J2000), location=Place(lat=PLACE.latitude_deg, lon=PLACE.longitude_deg)),
        bodies=["all"],
    )
    for name, value in options.items():
        holder = request.chart if name in ("house_position_mode", "dignities") else request.chart.options
        if isinstance(value, list):
            getattr(holder, name).extend(value)
        else:
            setattr(holder, name, value)
    inputs = validate(request).query
    return cast_chart(
        KernelMoment.from_jd_ut1(J2000), PLACE, inputs.settings, extras=inputs.extras, source={"type": "natal"}
    )


FULL = {
    "patterns": True,
    "stellium_min": 2,
    "derived_points": True,
    "lots": ["default"],
    "dignities": True,
    "equatorial": True,
    "house_position_mode": "mundane",
    "sidereal": "lahiri",
}


@pytest.fixture(scope="module")
def full():
    chart = cast(**FULL)
    # The rendering of every extra is checked only if the chart has each of them.
    assert chart.patterns and chart.derived_points and chart.dignities and chart.parallels
    return chart, chart_record(chart)


@pytest.fixture(scope="module")
def plain():
    chart = cast()
    return chart, chart_record(chart)


def same(record, value, *, optional=(), renamed=None):
    """Assert that each field of the kernel dataclass ``value`` is the record's field of that
    name (or of its ``renamed`` name); an ``optional`` field None is a field the record lacks."""
    for field in fields(value):
        name = (renamed or {}).get(field.name, field.name)
        if not hasattr(record, name) and field.name not in optional:
            continue
        kernel_value = getattr(value, field.name)
        if field.name in optional and kernel_value is None:
            assert not record.HasField(name), name
        elif isinstance(kernel_value, (list, tuple)) and not (
            kernel_value and not isinstance(kernel_value[0], (str, float, int))
        ):
            assert list(getattr(record, name)) == list(kernel_value), name
        elif isinstance(kernel_value, (str, float, int, bool)):
            assert getattr(record, name) == kernel_value, name


@pytest.mark.parametrize("chart_of", ["full", "plain"])
def test_each_position_is_the_kernels(chart_of, request):
    chart, record = request.getfixturevalue(chart_of)
    assert [p.body for p in record.positions] == [p.body for p in chart.positions]
    for position, rendered in zip(chart.positions, record.positions):
        same(rendered, position, optional=("house_position", "right_ascension"))


def test_house_position_and_right_ascension_are_rendered_only_when_asked(full, plain):
    assert all(p.HasField("house_position") and p.HasField("right_ascension") for p in full[1].positions)
    assert not any(p.HasField("house_position") or p.HasField("right_ascension") for p in plain[1].positions)


@pytest.mark.parametrize("chart_of", ["full", "plain"])
def test_the_cusps_start_at_slot_1_after_a_placeholder(chart_of, request):
    chart, record = request.getfixturevalue(chart_of)
    houses = record.houses
    assert list(houses.cusps) == [0.0, *chart.houses.cusps_deg]
    assert (houses.ascendant, houses.midheaven, houses.vertex) == (
        chart.houses.ascendant_deg,
        chart.houses.midheaven_deg,
        chart.houses.vertex_deg,
    )


def test_each_aspect_is_the_kernels_with_angle_the_separation_and_max_orb_the_admitting_orb(full):
    chart, record = full
    assert len(record.aspects) == len(chart.aspects) > 0
    for aspect, rendered in zip(chart.aspects, record.aspects):
        assert (rendered.body_a, rendered.body_b, rendered.aspect) == (aspect.body_a, aspect.body_b, aspect.aspect)
        assert (rendered.angle, rendered.orb, rendered.max_orb) == (
            aspect.separation_deg,
            aspect.orb_deg,
            aspect.max_orb_deg,
        )
        assert rendered.HasField("applying") == (aspect.applying is not None)
        if aspect.applying is not None:
            assert rendered.applying == aspect.applying


def test_without_applying_computed_no_aspect_says_applying():
    chart = cast(applying=False)
    assert chart.aspects and not any(a.HasField("applying") for a in chart_record(chart).aspects)


def test_each_parallel_is_the_kernels(full):
    chart, record = full
    for parallel, rendered in zip(chart.parallels, record.parallels, strict=True):
        assert (rendered.body_a, rendered.body_b, rendered.parallel_type) == (
            parallel.body_a,
            parallel.body_b,
            parallel.parallel_type,
        )
        assert (rendered.declination_a, rendered.declination_b) == (
            parallel.declination_a_deg,
            parallel.declination_b_deg,
        )
        assert (rendered.orb, rendered.max_orb) == (parallel.orb_deg, parallel.max_orb_deg)


def test_each_pattern_is_the_kernels_with_its_aspects(full):
    chart, record = full
    for pattern, rendered in zip(chart.patterns, record.patterns, strict=True):
        assert (rendered.pattern, list(rendered.bodies), rendered.tightness) == (
            pattern.pattern,
            list(pattern.bodies),
            pattern.tightness,
        )
        assert [(a.body_a, a.body_b, a.aspect) for a in rendered.aspects] == [
            (a.body_a, a.body_b, a.aspect) for a in pattern.aspects
        ]
        assert rendered.HasField("focal") == (pattern.focal is not None)


def test_each_derived_point_is_the_kernels(full):
    chart, record = full
    assert {p.kind for p in record.derived_points} >= {"midpoint", "lot"}
    for point, rendered in zip(chart.derived_points, record.derived_points, strict=True):
        same(rendered, point, optional=("declination",))


def test_each_dignity_is_the_kernels(full):
    chart, record = full
    for dignity, rendered in zip(chart.dignities, record.dignities, strict=True):
        same(rendered, dignity, optional=("exaltation_ruler", "triplicity_ruler"))
        assert rendered.HasField("exaltation_degree") == (dignity.exaltation_ruler is not None)


def test_the_metadata_is_the_kernels(full, plain):
    for chart, record in (full, plain):
        metadata, rendered = chart.metadata, record.metadata
        assert (rendered.datetime, rendered.datetime_iso, rendered.house_system) == (
            metadata.jd_ut1,
            metadata.datetime_iso,
            metadata.house_system,
        )
        assert (rendered.location.latitude, rendered.location.longitude, rendered.location.altitude) == (
            metadata.latitude,
            metadata.longitude,
            metadata.altitude,
        )
        assert (list(rendered.bodies), rendered.source.type) == (metadata.bodies, "natal")
    assert full[1].metadata.sidereal == "lahiri"
    assert not plain[1].metadata.HasField("sidereal")


def test_the_charts_conditions_are_typed_warnings():
    chart = cast_chart(KernelMoment.from_jd_ut1(J2000), Observer(80.0, 0.0, 0.0), cast().settings)
    assert chart.warnings
    assert [(w.kind, w.details) for w in chart_record(chart).warnings] == [(c.kind, c.message) for c in chart.warnings]
