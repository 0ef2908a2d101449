"""Presets of named programs (``preset=``, docs/presets.md): the conventions a program or a
library uses by default, as the parameters of our requests that give them, each with its
source named once.

A preset fills the parameters the request did not send, where validation fills defaults
(``validation.py``), before them: a parameter sent beats the preset, and the preset beats the
declared default. The gateway's validation applies it, so the service receives the request
with the preset's parameters already set (a request crosses each layer once); what it set is
kept on the reading for ``meta.preset``.
"""

from __future__ import annotations

from dataclasses import dataclass

from celestial.v1 import account_service_pb2 as account_pb
from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from celestial.v1 import search_service_pb2 as search_pb
from celestial.v1 import vedic_pb2 as vedic_pb
from shared.errors import InvalidParameter
from shared.runtime.closed_sets import bound_to_choices


@dataclass(frozen=True)
class Convention:
    """One convention of a program: what it is, the program's value, where that is written."""

    what: str
    value: str
    source: str


@dataclass(frozen=True)
class Preset:
    """A named program: its name for ``preset=``, what it is, its conventions (for the docs),
    and per request message (full name) the parameters, query-string form, that give them."""

    name: str
    program: str
    conventions: tuple[Convention, ...]
    parameters: dict[str, dict[str, str]]


_NATAL = ephemeris_pb.ComputeNatalChartRequest.DESCRIPTOR.full_name
_VEDIC = vedic_pb.ComputeVedicChartRequest.DESCRIPTOR.full_name
_DASHA = vedic_pb.ComputeVimshottariDashaRequest.DESCRIPTOR.full_name
_FORECAST = search_pb.FindForecastRequest.DESCRIPTOR.full_name

_PLANETS = "sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto"
_ASTRO_COM_PAGE = "Astrodienst's FAQ, Chart drawing styles (https://www.astro.com/faq/fq_fh_owstyle_e.htm)"
_KERYKEION = "kerykeion 5.12.10 kerykeion/settings/config_constants.py"
_IMMANUEL = "immanuel 1.5.4 (theriftlab/immanuel-python 018e007)"
_JHORA = "PyJHora 4.8.7 jhora/const.py"

#: The presets, by name (lowercase snake case, docs/conventions.md).
PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "astro_com",
            "astro.com (Astrodienst's chart drawing, Swiss Ephemeris)",
            (
                Convention("house system", "placidus", _ASTRO_COM_PAGE + ": Astrodienst style, 'Placidus houses'"),
                Convention(
                    "zodiac",
                    "tropical",
                    "Astrodienst's Extended Chart Selection (https://www.astro.com/cgi/genchart.cgi): tropical unless "
                    "an ayanamsha is chosen",
                ),
                Convention("node", "true_node", _ASTRO_COM_PAGE + ": Web default style, 'true Node'"),
                Convention(
                    "points",
                    "sun ... pluto, true_node, chiron",
                    _ASTRO_COM_PAGE + ": Web default style, 'Chiron is shown ... without Lilith'",
                ),
                Convention(
                    "centre", "geocentric", "Swiss Ephemeris's default (swephexp.h): geocentric without SEFLG_TOPOCTR"
                ),
                Convention(
                    "positions",
                    "apparent",
                    "Swiss Ephemeris's default flags (swephexp.h SEFLG_SWIEPH): apparent positions",
                ),
            ),
            {
                _NATAL: {"system": "placidus", "bodies": _PLANETS + ",true_node,chiron", "topocentric": "false"},
                _FORECAST: {},
            },
        ),
        Preset(
            "kerykeion",
            "kerykeion 5.12 (Python library)",
            (
                Convention("house system", "placidus", _KERYKEION + ":71 DEFAULT_HOUSES_SYSTEM_IDENTIFIER = 'P'"),
                Convention("zodiac", "tropical", _KERYKEION + ":72 DEFAULT_ZODIAC_TYPE = 'Tropical'"),
                Convention("centre", "geocentric", _KERYKEION + ":73 DEFAULT_PERSPECTIVE_TYPE = 'Apparent Geocentric'"),
                Convention(
                    "positions", "apparent", _KERYKEION + ":73 DEFAULT_PERSPECTIVE_TYPE = 'Apparent Geocentric'"
                ),
                Convention(
                    "points",
                    "sun ... pluto, true_node, chiron, mean_apogee",
                    _KERYKEION + ":209-225 DEFAULT_ACTIVE_POINTS (True_North_Lunar_Node, Chiron, Mean_Lilith)",
                ),
                Convention(
                    "node", "true_node", _KERYKEION + ":221 'True_North_Lunar_Node' (the mean node commented out)"
                ),
            ),
            {
                _NATAL: {
                    "system": "placidus",
                    "bodies": _PLANETS + ",true_node,chiron,mean_apogee",
                    "topocentric": "false",
                },
                _FORECAST: {},
            },
        ),
        Preset(
            "immanuel",
            "immanuel 1.5 (Python library)",
            (
                Convention(
                    "house system", "placidus", _IMMANUEL + " immanuel/settings.py:110 house_system = chart.PLACIDUS"
                ),
                Convention(
                    "zodiac", "tropical", _IMMANUEL + " immanuel/tools/sweph.py:73 swe.calc_ut without a sidereal flag"
                ),
                Convention(
                    "points",
                    "sun ... pluto, true_node, chiron, osc_apogee",
                    _IMMANUEL + " immanuel/settings.py:113-134 objects (TRUE_NORTH_NODE, TRUE_LILITH, CHIRON)",
                ),
                Convention("node", "true_node", _IMMANUEL + " immanuel/settings.py:118 chart.TRUE_NORTH_NODE"),
                Convention(
                    "centre and positions",
                    "geocentric, apparent",
                    _IMMANUEL + " immanuel/tools/sweph.py:73 swe.calc_ut(jd, index): Swiss Ephemeris's default flags",
                ),
            ),
            {
                _NATAL: {
                    "system": "placidus",
                    "bodies": _PLANETS + ",true_node,chiron,osc_apogee",
                    "topocentric": "false",
                },
                _FORECAST: {},
            },
        ),
        Preset(
            "jhora",
            "JHora, through PyJHora 4.8.7's conventions (Python library)",
            (
                Convention("zodiac", "sidereal, true_pushya", _JHORA + ":296 _DEFAULT_AYANAMSA_MODE = 'TRUE_PUSHYA'"),
                Convention("node", "true", _JHORA + ":125 _use_true_nodes_for_rahu_ketu = True"),
                Convention(
                    "houses",
                    "whole_sign",
                    "PyJHora 4.8.7 jhora/horoscope/chart/charts.py rasi_chart: each house a sign from the lagna's",
                ),
                Convention(
                    "positions",
                    "true (geometric: no light time, aberration or deflection); not a parameter of ours",
                    _JHORA + ":1667 PLANET_POSITIONS_TRUE = True",
                ),
                Convention(
                    "dasha year",
                    "sidereal, 365.256364 days (year_length=sidereal of /v1/vedic/dasha, 365.256363 days)",
                    _JHORA + ":268 sidereal_year; jhora/horoscope/dhasa/graha/vimsottari.py:30 year_duration",
                ),
            ),
            {
                _VEDIC: {"ayanamsha": "true_pushya", "node": "true", "houses": "whole_sign"},
                _DASHA: {"ayanamsha": "true_pushya", "year_length": "sidereal"},
            },
        ),
    )
}


def _presets_of(message_name: str) -> tuple[str, ...]:
    return tuple(name for name, preset in PRESETS.items() if message_name in preset.parameters)


#: The presets each request takes: the contract's choices (the proto), bound to this table.
NATAL_CHART_PRESETS = bound_to_choices(
    _presets_of(_NATAL),
    "shared.runtime.presets.NATAL_CHART_PRESETS",
    (ephemeris_pb.ComputeNatalChartRequest, "preset"),
    (account_pb.StoredChartSettings, "preset"),
)
#: One name each, no table of names to bind: tests/unit/runtime/test_presets.py holds it to the proto's choices.
VEDIC_CHART_PRESETS = _presets_of(_VEDIC)
VIMSHOTTARI_DASHA_PRESETS = _presets_of(_DASHA)
FORECAST_PRESETS = bound_to_choices(
    _presets_of(_FORECAST), "shared.runtime.presets.FORECAST_PRESETS", (search_pb.FindForecastRequest, "preset")
)
#: The requests that take preset=, by message full name.
PRESETS_OF: dict[str, tuple[str, ...]] = {
    _NATAL: NATAL_CHART_PRESETS,
    _VEDIC: VEDIC_CHART_PRESETS,
    _DASHA: VIMSHOTTARI_DASHA_PRESETS,
    _FORECAST: FORECAST_PRESETS,
}

#: The key of what a preset set, kept on the request's reading.
APPLIED = "preset_applied"


def preset_parameters(message_name: str, text: str) -> tuple[str, dict[str, str]]:
    """Return the preset ``text`` names (any case) and the parameters it gives a request of
    ``message_name``, query-string form. Raises InvalidParameter naming ``preset`` for an
    unknown name, or a preset of another endpoint, with a suggestion listing this one's."""
    name = text.lower()
    accepted = PRESETS_OF[message_name]
    preset = PRESETS.get(name)
    if preset is None or message_name not in preset.parameters:
        listed = ", ".join(accepted)
        if preset is None:
            message = f"'{text}' is not a preset."
        else:
            message = f"The preset '{name}' ({preset.program}) does not apply to this endpoint."
        raise InvalidParameter(message, suggestion=f"Send one of {listed}, or leave preset out.", param="preset")
    return name, preset.parameters[message_name]


def applied_preset(reading) -> dict | None:
    """Return ``{name, applied}`` (the parameters the preset set, typed) for a request read
    with a preset, else None: ``meta.preset``."""
    return reading.kept(APPLIED, lambda: None)
