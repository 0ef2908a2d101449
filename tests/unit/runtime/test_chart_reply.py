"""One chart of a chart request, cast and rendered (shared/runtime/chart_reply.py).

References: the Chart message (common.proto: chart_type, metadata.source, typed warnings);
the chart replies' ``warnings`` (ephemeris_service.proto: prose conditions that degraded the
result, here the chart's conditions then its extras' notes); kernel/draconic.py (a draconic
chart is the chart turned by its node, its patterns the unturned chart's).
"""

from __future__ import annotations

import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Birth, Moment, Place
from kernel.draconic import rotate_to_node
from kernel.positions import Observer
from kernel.timescale import Moment as KernelMoment
from shared.runtime.chart_reply import chart_reply
from shared.runtime.validation import validate

J2000 = KernelMoment.from_jd_ut1(2451545.0)
POLAR = Observer(80.0, -0.1, 0.0)


def inputs(**options):
    request = pb.ComputeNatalChartRequest(
        birth=Birth(moment=Moment(jd=2451545.0), location=Place(lat=0.0, lon=0.0)), bodies=["planets"]
    )
    for name, value in options.items():
        if isinstance(value, list):
            getattr(request.chart.options, name).extend(value)
        else:
            setattr(request.chart.options, name, value)
    return validate(request).query


def test_the_chart_is_cast_at_the_moment_and_place_given_with_its_type_and_source():
    message, _warnings, chart = chart_reply(
        inputs(), J2000, Observer(45.0, 7.0, 200.0), chart_type="return", source={"type": "return", "body": "sun"}
    )
    assert (chart.metadata.jd_ut1, chart.metadata.latitude, chart.metadata.longitude, chart.metadata.altitude) == (
        2451545.0,
        45.0,
        7.0,
        200.0,
    )
    assert (message.chart_type, message.metadata.source.type, message.metadata.source.body) == (
        "return",
        "return",
        "sun",
    )
    assert [p.body for p in message.positions] == [p.body for p in chart.positions] == list(inputs().settings.bodies)


def test_the_warnings_are_the_charts_conditions_then_its_extras_notes():
    # Inside the polar circle Placidus has no cusps (a condition); lots without
    # derived_points are not used (a note).
    _message, warnings, chart = chart_reply(inputs(lots=["fortune"]), J2000, POLAR)
    assert len(chart.warnings) == 1 and len(chart.notes) == 1
    assert warnings == [chart.warnings[0].message, chart.notes[0]]
    assert "lots" in warnings[1]


def test_a_chart_without_conditions_or_notes_has_no_warnings():
    assert chart_reply(inputs(), J2000, Observer(45.0, 7.0, 0.0))[1] == []


def test_a_turned_chart_is_rendered_turned_its_patterns_the_unturned_charts():
    settings_inputs = inputs(patterns=True, stellium_min=2)
    plain, _, unturned = chart_reply(settings_inputs, J2000, Observer(45.0, 7.0, 0.0))
    turned, _, _turned_chart = chart_reply(
        settings_inputs,
        J2000,
        Observer(45.0, 7.0, 0.0),
        chart_type="draconic",
        turn=lambda c: rotate_to_node(c, settings_inputs.settings, "mean_node", J2000),
    )
    node = next(p.longitude for p in unturned.positions if p.body == "mean_node")
    assert next(p.longitude for p in turned.positions if p.body == "mean_node") == pytest.approx(0.0, abs=1e-9)
    sun_before = next(p.longitude for p in plain.positions if p.body == "sun")
    sun_after = next(p.longitude for p in turned.positions if p.body == "sun")
    assert sun_after == pytest.approx((sun_before - node) % 360.0, abs=1e-9)
    assert list(turned.patterns) == list(plain.patterns) and plain.patterns
