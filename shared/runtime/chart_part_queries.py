"""Readers of the requests that ask a chart for one of its parts, the place optional: /v1/midpoints
(derived points and midpoint trees) and /v1/patterns (aspects and their patterns). Each reads
what the chart is cast from, :func:`kernel.chart.cast_chart`'s arguments, in the gateway before
any charge; the handler casts the chart and renders the part."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from kernel.chart import ChartSettings
from kernel.chart_extras import ChartExtras
from kernel.midpoints import RESOLUTIONS, check_modulus, check_tree_orb, parse_resolution
from kernel.patterns import parse_pattern_types
from kernel.positions import CalcFlags, Observer
from kernel.timescale import Moment
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming
from shared.runtime.midpoint_lots import midpoint_lots
from shared.runtime.pattern_place import pattern_place
from shared.runtime.wire import aspect_types_from, bodies_from, flags_from, house_system_from, moment_from, place_from

# A midpoint's resolution names one of the kernel's.
bound_to_choices(
    RESOLUTIONS,
    "kernel.midpoints.RESOLUTIONS",
    (common_pb2.ChartRequestOptions, "resolution"),
    (ephemeris_pb.ComputeDraconicChartRequest, "resolution"),
    (ephemeris_pb.ComputeMidpointsRequest, "resolution"),
)


@dataclass(frozen=True)
class ChartPartQuery:
    """The chart a request asks a part of: its moment, its place (None: a chart without houses),
    its settings and the extras that hold the part."""

    moment: Moment
    place: Observer | None
    settings: ChartSettings
    extras: ChartExtras


def midpoints_query(request: Message) -> ChartPartQuery:
    """Return what a /v1/midpoints request asks for: the derived points of its bodies (with the
    lots named, which need ``lat`` and ``lon``: :func:`midpoint_lots`), their houses with a
    place, and with ``trees`` the midpoint trees on the ``modulus`` dial; tropical or sidereal,
    no aspects."""
    lot_ids = midpoint_lots(request)
    moment = moment_from(request)
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    with naming("resolution"):
        resolution = parse_resolution(request.resolution)
    with naming("modulus"):
        modulus = check_modulus(request.modulus)
    with naming("tree_orb"):
        orb = check_tree_orb(request.tree_orb)
    place = place_from(request, "location")
    settings = ChartSettings(
        bodies_from(request, flags), house_system_from(request), flags, aspect_types=(), parallels=False
    )
    extras = ChartExtras(
        derived=True,
        midpoints=request.midpoints,
        antiscia=request.antiscia,
        lots=lot_ids,
        resolution=resolution,
        trees=request.trees,
        tree_modulus_deg=modulus,
        tree_orb_deg=orb,
    )
    return ChartPartQuery(moment, place, settings, extras)


def patterns_query(request: Message) -> ChartPartQuery:
    """Return what a /v1/patterns request asks for: the aspects of its bodies (with ``max_orb``
    and whether each applies) and the patterns of the types named among them; houses, for stelliums by
    house, only with ``lat`` and ``lon`` (:func:`pattern_place`)."""
    place = pattern_place(request)
    moment = moment_from(request)
    flags = CalcFlags(sidereal=flags_from(request).sidereal)
    with naming("patterns"):
        types = parse_pattern_types(list(request.patterns))
    settings = ChartSettings(
        bodies_from(request, flags),
        house_system_from(request),
        flags,
        aspect_types=tuple(aspect_types_from(request)),
        orb_deg=request.orb if request.HasField("orb") else None,
        parallels=False,
    )
    extras = ChartExtras(patterns=types, stellium_min=request.stellium_min, stellium_scope=request.stellium_scope)
    return ChartPartQuery(moment, place, settings, extras)
