"""/v1/chart-wheel: a chart drawn as a wheel (services/ephemeris/wheel), alone as an SVG
document, as that document drawn to PNG, or beside the chart(s) it draws. ``kind`` chooses the chart: one wheel of the
chart /v1/natal-chart, /v1/composite, /v1/davison or /v1/draconic casts, or a bi-wheel of the natal chart (or synastry's
chart A) with transits, progressions, a return (or chart B) around it. Each chart is cast by the same functions as its
endpoint's; the cross aspects are /v1/synastry's inter-aspects (kernel.synastry.inter_chart). The header
(services/ephemeris/wheel/header.py) names each chart with its moment as the request gave it: in the zone the
request read it in, else, for a bi-wheel's outer moment sent in UTC or found (a return), in the inner chart's zone,
else in UTC."""

from __future__ import annotations

import hashlib
from datetime import datetime

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as pb
from kernel.chart import Chart
from kernel.civil_time import LocalReading, zone_named
from kernel.deadline import Deadline
from kernel.errors import OutOfRange
from kernel.places import Town
from kernel.synastry import inter_chart
from kernel.timescale import Moment
from services.ephemeris.composite import composite_reply
from services.ephemeris.derived_charts import davison_reply, draconic_reply, progressed_reply
from services.ephemeris.wheel.drawing import draw_svg
from services.ephemeris.wheel.frame import GRID_EXTENT, TABLE_PLACES, picture_size
from services.ephemeris.wheel.header import (
    ChartCaption,
    HeaderLine,
    ShownMoment,
    clock_moment,
    header_lines,
    iso_moment,
    ring_label,
)
from services.ephemeris.wheel.layout import WheelLayout, biwheel_layout, wheel_layout
from shared.pictures.png import render_png
from shared.pictures.themes import BAND_FILLS, THEMES
from shared.pictures.words import Words
from shared.runtime.chart_record import aspect_record
from shared.runtime.chart_reply import chart_reply
from shared.runtime.chart_wheel_input import (
    COMPOSITE,
    DAVISON,
    DRACONIC,
    PROGRESSED,
    RETURN,
    SYNASTRY,
    TRANSIT,
    WheelInput,
)
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.return_search import RETURN_MOMENT_PARAM, find_returns
from shared.runtime.wire import (
    birth_from,
    chart_birth_from,
    flags_from,
    moment_from,
    read_moment,
    relocation_from,
    sent_moment_name,
    town_from,
)

#: A midpoint composite's arc: the wheel draws /v1/composite's default (chart_wheel_input.py).
COMPOSITE_ARC = "nearest"

# The palettes, the grid's places and the band's fills give the request's theme, grid and band their meaning.
bound_to_choices(THEMES, "shared.pictures.themes.THEMES", (pb.DrawChartWheelRequest, "theme"))
bound_to_choices(GRID_EXTENT, "services.ephemeris.wheel.frame.GRID_EXTENT", (pb.DrawChartWheelRequest, "grid"))
bound_to_choices(BAND_FILLS, "shared.pictures.themes.BAND_FILLS", (pb.DrawChartWheelRequest, "band"))
bound_to_choices(TABLE_PLACES, "services.ephemeris.wheel.frame.TABLE_PLACES", (pb.DrawChartWheelRequest, "table"))

Reply = tuple[common_pb2.Chart, list[str], Chart]


def compute(request: pb.DrawChartWheelRequest, deadline: Deadline) -> pb.DrawChartWheelResponse:
    """Return the wheel of the chart (or the bi-wheel of the two charts) the request's kind
    draws, each cast exactly as the kind's endpoint casts it for the same parameters."""
    query: WheelInput = request.query
    words = Words(request.lang)
    theme = THEMES[request.theme].with_palette(query.palette)
    # The Vertex is drawn with the chart's derived points (its lots are drawn when asked).
    vertex = request.chart.options.derived_points
    if query.kind in (TRANSIT, SYNASTRY, PROGRESSED, RETURN):
        (inner, inner_warnings, inner_chart), (outer, outer_warnings, outer_chart), (outer_name, moment) = _two_charts(
            request, query, deadline
        )
        cross = inter_chart(inner_chart, outer_chart, inner_chart.settings).aspects
        inner_name = "chart_a" if query.kind == SYNASTRY else "natal"
        captions = _biwheel_captions(request, query, inner_chart, outer_chart, (inner_name, outer_name))
        header = _header(request, words, query.kind, captions, inner_chart) if request.header else ()
        layout = biwheel_layout(inner_chart, outer_chart, cross, vertex=vertex, size=request.size)
        svg = draw_svg(
            layout,
            theme,
            size=request.size,
            title=words.title(query.kind),
            rings=(words.chart(inner_name), words.chart(outer_name, moment)),
            words=words,
            grid=request.grid,
            band=request.band,
            header=header,
            ring_labels=(ring_label(captions[1], words), ring_label(captions[0], words)) if header else None,
            table=request.table,
        )
        wheel = pb.ChartWheel(inner=inner, outer=outer, cross_aspects=[aspect_record(a) for a in cross])
        warnings = list(dict.fromkeys([*inner_warnings, *outer_warnings]))
    else:
        record, warnings, chart = _one_chart(request, query)
        header = _header(request, words, query.kind, _captions(request, query, chart), chart) if request.header else ()
        layout = wheel_layout(chart, vertex=vertex)
        svg = draw_svg(
            layout,
            theme,
            size=request.size,
            title=words.title(query.kind),
            words=words,
            grid=request.grid,
            band=request.band,
            header=header,
            table=request.table,
        )
        wheel = pb.ChartWheel(chart=record)
    if request.format == "json":
        wheel.svg, wheel.sha256 = svg, hashlib.sha256(svg.encode()).hexdigest()
        wheel.points.extend(_drawn_points(layout))
        data = pb.ChartWheelData(json=wheel)
    elif request.format == "png":
        data = pb.ChartWheelData(
            png=render_png(svg, *picture_size(request.size, request.grid, request.table, len(header)))
        )
    else:
        data = pb.ChartWheelData(svg=svg)
    return pb.DrawChartWheelResponse(data=data, warnings=warnings)


def _drawn_points(layout: WheelLayout) -> list[pb.DrawnPoint]:
    """Return the points the wheel ``layout`` draws, as format=json lists them: the inner (or
    only) ring's, then the outer ring's."""
    rings = (
        (("inner", layout.points), ("outer", layout.outer_points)) if layout.is_biwheel else ((None, layout.points),)
    )
    return [
        pb.DrawnPoint(body=p.body, kind=p.kind, ring=ring, longitude=p.longitude, house=p.house)
        for ring, points in rings
        for p in points
    ]


def _one_chart(request: pb.DrawChartWheelRequest, query: WheelInput) -> Reply:
    """Return the single wheel's chart, as /v1/natal-chart, /v1/composite, /v1/davison or
    /v1/draconic casts it."""
    if query.kind == COMPOSITE:
        return composite_reply(
            query.chart,
            birth_from(request, "birth_a"),
            birth_from(request, "birth_b"),
            COMPOSITE_ARC,
            moment_a_param=sent_moment_name(request, "birth_a.moment"),
            moment_b_param=sent_moment_name(request, "birth_b.moment"),
        )
    if query.kind == DAVISON:
        both_datetimes = request.birth_a.moment.HasField("datetime") and request.birth_b.moment.HasField("datetime")
        return davison_reply(
            query.chart,
            birth_from(request, "birth_a"),
            birth_from(request, "birth_b"),
            both_datetimes,
            moment_a_param=sent_moment_name(request, "birth_a.moment"),
        )
    with naming_moment(sent_moment_name(request, "birth.moment")):
        if query.kind == DRACONIC:
            return draconic_reply(query.chart, *chart_birth_from(request), query.node)
        return chart_reply(query.chart, *chart_birth_from(request))


def _two_charts(
    request: pb.DrawChartWheelRequest, query: WheelInput, deadline: Deadline
) -> tuple[Reply, Reply, tuple[str, str]]:
    """Return a bi-wheel's inner and outer charts and the outer one's name (a key of the
    words' ``charts``) with its moment (ISO 8601, or empty): synastry's charts A and B
    (/v1/synastry), or the natal chart (/v1/natal-chart) with the sky at the transit moment at
    the natal place, the progressed chart (/v1/progressed) or the first return after
    search_start (/v1/returns, count=1)."""
    if query.kind == SYNASTRY:
        with naming_moment(sent_moment_name(request, "birth_a.moment")):
            chart_a = chart_reply(query.chart, *birth_from(request, "birth_a"))
        with naming_moment(sent_moment_name(request, "birth_b.moment")):
            chart_b = chart_reply(query.chart, *birth_from(request, "birth_b"))
        return chart_a, chart_b, ("chart_b", "")
    natal, place = chart_birth_from(request)
    natal_param = sent_moment_name(request, "birth.moment")
    with naming_moment(natal_param):
        inner = chart_reply(query.chart, natal, place)
    if query.kind == TRANSIT:
        moment = moment_from(request, "transit")
        with naming_moment(sent_moment_name(request, "transit")):
            return inner, chart_reply(query.chart, moment, place), ("transit", moment.iso_utc())
    if query.kind == PROGRESSED:
        target = moment_from(request, "target")
        # The progressed moment is the natal one moved on: its errors name the natal moment's parameter.
        with naming_moment(natal_param):
            outer = progressed_reply(query.chart, natal, target, query.progressed, place, query.year_days)
        return inner, outer, ("progressed", target.iso_utc())
    body = query.return_body
    with naming_moment(natal_param):
        natal_longitude, (moment,) = find_returns(
            body,
            natal,
            moment_from(request, "search_start"),
            1,
            deadline,
            flags=flags_from(request, "chart.options"),
            place=place,
            from_param=sent_moment_name(request, "search_start"),
        )
    source = {"type": "return", "body": body, "natal_longitude": natal_longitude}
    with naming_moment(RETURN_MOMENT_PARAM):
        outer = chart_reply(query.chart, moment, place, chart_type="return", source=source)
    return inner, outer, ("solar_return" if body == "sun" else "lunar_return", moment.iso_utc())


def _header(
    request: pb.DrawChartWheelRequest, words: Words, kind: str, captions: tuple[ChartCaption, ...], chart: Chart
) -> tuple[HeaderLine, ...]:
    """Return the header's lines of the picture of ``chart`` (a bi-wheel's inner chart: both
    charts share its settings) and its ``captions``."""
    settings = chart.settings
    sidereal = settings.sidereal.name if settings is not None and settings.sidereal is not None else None
    asked = settings.system.name if settings is not None and settings.system is not None else None
    drawn = chart.metadata.house_system
    houses = (asked or drawn, drawn) if chart.houses is not None and drawn else None
    return header_lines(words.title(kind), request.name, captions, sidereal, houses, words)


def _captions(request: pb.DrawChartWheelRequest, query: WheelInput, chart: Chart) -> tuple[ChartCaption, ...]:
    """Return the charts a single wheel's header names: its birth's (natal, draconic), its
    moment and place (a Davison chart's midpoints, in UTC), or the two births a composite is
    the midpoint of."""
    if query.kind == COMPOSITE:
        return _birth_caption(request, "birth_a", "chart_a"), _birth_caption(request, "birth_b", "chart_b")
    if query.kind == DAVISON:
        meta = chart.metadata
        return (ChartCaption("natal", iso_moment(meta.datetime_iso), latitude=meta.latitude, longitude=meta.longitude),)
    return (_birth_caption(request, "birth", "natal"),)


def _biwheel_captions(
    request: pb.DrawChartWheelRequest, query: WheelInput, inner: Chart, outer: Chart, names: tuple[str, str]
) -> tuple[ChartCaption, ChartCaption]:
    """Return a bi-wheel's inner and outer charts as its header names them (``names``: keys of
    the words' charts): synastry's two births, or the natal birth and the outer chart's moment
    at the natal place, shown in the zone it was sent in, else in the natal one."""
    inner_value = "birth_a" if query.kind == SYNASTRY else "birth"
    inner_caption = _birth_caption(request, inner_value, names[0], ring="inner")
    if query.kind == SYNASTRY:
        return inner_caption, _birth_caption(request, "birth_b", names[1], ring="outer")
    natal_reading = read_moment(request, f"{inner_value}.moment")[1]
    if query.kind == TRANSIT:
        shown = _shown(request, "transit", moment_from(request, "transit"), natal_reading)
    elif query.kind == PROGRESSED:
        shown = _shown(request, "target", moment_from(request, "target"), natal_reading)
    else:
        shown = _shown(request, "", Moment.from_jd_ut1(outer.metadata.jd_ut1), natal_reading)
    meta = inner.metadata
    outer_caption = ChartCaption(names[1], shown, "outer", inner_caption.town, meta.latitude, meta.longitude)
    return inner_caption, outer_caption


def _birth_caption(request: pb.DrawChartWheelRequest, value: str, chart: str, ring: str = "") -> ChartCaption:
    """Return the caption of the request's birth ``value`` (birth, birth_a, birth_b): its
    moment as sent, its town (when named) and its coordinates."""
    moment, place = birth_from(request, value)
    birth = getattr(request, value)
    town = ""
    if birth.HasField("place"):
        town = _town_name(town_from(request, birth.place, "place" + value[len("birth") :]))
    relocated = relocation_from(request) if value == "birth" else None
    if relocated is None:
        return ChartCaption(
            chart, _shown(request, f"{value}.moment", moment), ring, town, place.latitude_deg, place.longitude_deg
        )
    born_at = (town, place.latitude_deg, place.longitude_deg)
    town = _town_name(town_from(request, request.relocate, "relocate")) if request.HasField("relocate") else ""
    return ChartCaption(
        chart,
        _shown(request, f"{value}.moment", moment),
        ring,
        town,
        relocated.latitude_deg,
        relocated.longitude_deg,
        born_at,
    )


def _town_name(town: Town) -> str:
    """Return a town as the header names it: its name and country code."""
    return f"{town.name}, {town.country}"


def _shown(
    request: pb.DrawChartWheelRequest, value: str, moment: Moment, zone_of: LocalReading | None = None
) -> ShownMoment:
    """Return how the header shows the request's moment ``value`` (``moment``): in the zone it
    was read in, else in ``zone_of``'s zone (the natal moment's reading) when given, else in
    UTC (and in UTC too outside the years a zone's history reaches)."""
    reading = read_moment(request, value)[1] if value else None
    if reading is not None:
        return clock_moment(reading.local, reading.zone, reading.abbreviation, reading.utc_offset_s)
    if zone_of is not None:
        try:
            local: datetime = moment.clock_datetime().astimezone(zone_named(zone_of.zone))
        except (OutOfRange, OverflowError, ValueError):
            return iso_moment(moment.iso_utc())
        offset = local.utcoffset()
        offset_s = round(offset.total_seconds()) if offset is not None else 0
        return clock_moment(local.replace(tzinfo=None), zone_of.zone, local.tzname() or "", offset_s)
    return iso_moment(moment.iso_utc())
