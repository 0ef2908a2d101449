"""Rendering of replies into the spec's JSON (shared/runtime/reply_rendering.py), rule by
rule, on the contract's own messages."""

from __future__ import annotations

import orjson

from celestial.v1 import common_pb2, options_pb2, search_service_pb2, timelords_service_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from shared.runtime.reply_rendering import DocumentBody, render_message


def sun(**fields) -> pb.EclipticPosition:
    return pb.EclipticPosition(body="sun", longitude=0.37, latitude=0.0, distance=0.996, sign="Aries", **fields)


def test_fields_render_in_declaration_order_with_zero_values_kept():
    rendered = render_message(sun(speed=0.99, retrograde=False))
    assert list(rendered) == [field.name for field in pb.EclipticPosition.DESCRIPTOR.fields]
    assert rendered["latitude"] == 0.0 and rendered["out_of_bounds"] is False


def test_an_unset_scalar_marked_null_when_unset_renders_null():
    rendered = render_message(sun())
    assert rendered["speed"] is None and rendered["retrograde"] is None


def test_a_set_optional_scalar_renders_its_value_even_when_zero():
    assert render_message(sun(speed=0.0))["speed"] == 0.0


def test_a_union_renders_as_its_one_set_member_and_null_when_none_is():
    assert render_message(pb.PositionRecord(ecliptic=sun(speed=1.0))) == render_message(sun(speed=1.0))
    assert render_message(pb.PositionRecord()) is None


def test_an_empty_list_marked_omit_empty_is_left_out():
    assert "warnings" not in render_message(pb.HouseSet(system="placidus"))
    assert render_message(pb.HouseSet(system="porphyrius", warnings=["polar"]))["warnings"] == ["polar"]


def test_a_list_not_marked_omit_empty_renders_even_empty():
    assert render_message(pb.HouseSet(system="placidus"))["cusps"] == []


def test_an_unset_message_marked_null_when_unset_renders_null():
    assert render_message(pb.VoidOfCourseData(is_void=True))["last_aspect"] is None


def test_an_unset_optional_scalar_not_marked_null_when_unset_is_left_out():
    assert "max_orb" not in render_message(common_pb2.AspectRecord(body_a="sun", body_b="moon"))
    assert render_message(common_pb2.AspectRecord(body_a="sun", body_b="moon", max_orb=8.0))["max_orb"] == 8.0


def test_a_message_of_plain_scalars_renders_inside_its_record_as_it_renders_alone():
    start, end = common_pb2.Instant(jd=2460389.629, datetime="2024-03-20T03:06:21.000Z"), common_pb2.Instant()
    event = search_service_pb2.TransitEvent(moving="sun", enter=start, exacts=[start, end], leave=end)
    rendered = render_message(event)
    assert rendered["enter"] == render_message(start) == {"jd": 2460389.629, "datetime": "2024-03-20T03:06:21.000Z"}
    assert rendered["exacts"] == [render_message(start), render_message(end)]
    assert rendered["leave"] == {"jd": 0.0, "datetime": ""}  # set, though to zero values
    assert "at" not in render_message(timelords_service_pb2.FirdariaData())


def test_a_message_field_marked_always_renders_even_unset():
    assert render_message(search_service_pb2.TransitEvent(moving="sun"))["enter"] == {"jd": 0.0, "datetime": ""}
    assert render_message(common_pb2.Chart())["houses"] == render_message(common_pb2.ChartHouses())


def test_an_enum_renders_as_its_lowercase_name():
    rule = options_pb2.FieldRule(vocabulary=options_pb2.VOCABULARY_BODIES)
    assert render_message(rule)["vocabulary"] == "vocabulary_bodies"


def test_a_union_string_member_with_a_media_type_renders_as_a_document_of_that_type():
    document = render_message(search_service_pb2.CalendarData(ics="BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"))
    assert isinstance(document, DocumentBody) and document.media_type == "text/calendar"
    assert document == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"
    # Inside a JSON answer (a batch's data) it is a plain string.
    assert orjson.loads(orjson.dumps({"data": document})) == {"data": str(document)}
    events = render_message(search_service_pb2.CalendarData(json=search_service_pb2.CalendarEvents()))
    assert events == {"events": []} and not isinstance(events, DocumentBody)


def test_a_columns_message_renders_one_record_per_index_in_field_order():
    from celestial.v1 import astrocartography_service_pb2 as acg

    points = acg.GeoPoints(latitude=[-10.5, 0.0, 12.25], longitude=[100.0, -179.5, 180.0])
    assert render_message(points) == [
        {"latitude": -10.5, "longitude": 100.0},
        {"latitude": 0.0, "longitude": -179.5},
        {"latitude": 12.25, "longitude": 180.0},
    ]


def test_a_field_holding_a_columns_message_always_renders_even_unset():
    from celestial.v1 import astrocartography_service_pb2 as acg

    assert render_message(acg.AstroSegment(end="no_solution")) == {"points": [], "end": "no_solution"}
