"""A chart request's options, read once into the kernel's ChartSettings.

Every chart request carries the shared ``ChartOptions`` message (flattened into the spec's
parameter names) beside its own ``bodies`` and ``house_position_mode``: those cast as a natal
chart hold both, with ``resolution`` and ``dignities``, in one ``ChartRequestOptions``.
"""

from __future__ import annotations

from google.protobuf.message import Message

from celestial.v1 import common_pb2
from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from kernel.chart import GAUQUELIN_LETTER, HOUSE_POSITION_MODES, MUNDANE, ChartSettings
from shared.errors import InvalidParameter
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.wire import aspect_types_from, bodies_from, flags_from, house_system_from

# A chart's house position mode names one of the kernel's (a draconic chart offers one of them).
bound_to_choices(
    HOUSE_POSITION_MODES,
    "kernel.chart.HOUSE_POSITION_MODES",
    (common_pb2.ChartRequestOptions, "house_position_mode"),
    (ephemeris_pb.ComputeCompositeChartRequest, "house_position_mode"),
)


def chart_request_options(request: Message) -> Message:
    """Return the message that holds a chart request's ``options``, ``house_position_mode``,
    ``resolution`` and ``dignities``: its ChartRequestOptions (natal, synastry, Davison,
    progressed and returns requests), else the request itself (composite and draconic
    requests, whose own house_position_mode, resolution or dignities differ)."""
    return request.chart if "chart" in request.DESCRIPTOR.fields_by_name else request


def chart_options_value(request: Message) -> str:
    """Return the path of the ChartOptions a chart request holds (``chart.options``, or
    ``options`` in a composite or draconic request), for the readers that keep what they read."""
    return "chart.options" if "chart" in request.DESCRIPTOR.fields_by_name else "options"


def chart_settings_from(request: Message) -> ChartSettings:
    """Return the ChartSettings of a chart request (its ``options``, ``bodies`` and
    ``house_position_mode``). Mundane house positions with ``j2000`` or ``heliocentric``
    longitudes are refused (400 naming ``house_position_mode``), and so are Gauquelin sectors,
    which place every point by its mundane position (400 naming ``system``)."""
    held = chart_request_options(request)
    options = held.options
    flags = flags_from(request, chart_options_value(request))
    mode = held.house_position_mode
    if mode == MUNDANE and (flags.j2000 or flags.heliocentric):
        raise InvalidParameter(
            "Mundane house positions place bodies by their geocentric longitudes of date; j2000 and heliocentric "
            "longitudes have none.",
            suggestion="Drop j2000 and heliocentric, or use house_position_mode=zodiacal.",
            param="house_position_mode",
        )
    system = house_system_from(request)
    if system.letter == GAUQUELIN_LETTER and (flags.j2000 or flags.heliocentric):
        raise InvalidParameter(
            "Gauquelin sectors place bodies by their geocentric positions of date; j2000 and heliocentric longitudes "
            "have none.",
            suggestion="Drop j2000 and heliocentric, or choose another house system.",
            param="system",
        )
    selection = options.aspect_selection
    return ChartSettings(
        bodies=bodies_from(request, flags),
        system=system,
        flags=flags,
        aspect_types=tuple(aspect_types_from(request)),
        orb_deg=selection.orb if selection.HasField("orb") else None,
        applying=options.applying,
        parallels=options.parallels,
        parallel_orb_deg=options.parallel_orb,
        house_position_mode=mode,
    )
