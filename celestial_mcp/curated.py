"""The curated MCP tools: eighteen tools written for a model, the default of ``celestial-mcp``.

Each tool covers one question an assistant is asked (a natal chart, this year's transits, the
next eclipses) with the few parameters that matter, local time first: a ``datetime`` without
an offset is the civil time of ``place`` (a town's id from the ``places`` tool) or of ``tz``;
any other parameter of the API goes in ``extra``, passed through as it is and listed in the
resource ``celestial://parameters/<tool>``. A tool's arguments are checked against its input
schema, and the request it sends against the operation's own schema, before anything is sent.
Its result is a summary first, then the data, kept under ``results.RESULT_LIMIT`` characters
(``celestial_mcp/results.py``), as structured content matching ``OUTPUT_SCHEMA``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import mcp_types as types

from celestial_mcp import results
from celestial_mcp.schemas import resolved
from celestial_mcp.summaries import (
    astrocartography_summary,
    chart_summary,
    eclipses_summary,
    explanation_summary,
    forecast_summary,
    hours_summary,
    places_summary,
    positions_summary,
    sensitivity_regroup,
    sensitivity_summary,
    sky_summary,
    time_lords_summary,
    timezone_summary,
    transits_regroup,
    transits_summary,
    vedic_summary,
    wheel_summary,
)

LOCAL = "Local date-time without offset (1985-07-13T14:05), read in place's zone or tz's"
DATETIME = {"type": "string", "description": LOCAL}
PLACE = {"type": "string", "description": "Town id from places: gives lat, lon and the zone"}
TZ = {"type": "string", "description": "IANA zone (Europe/Paris) when there is no place; neither: UTC"}
LAT = {"type": "number", "minimum": -90, "maximum": 90}
LON = {"type": "number", "minimum": -180, "maximum": 180}
LIST = {"type": "array", "items": {"type": "string"}}
CURSOR = {"type": "integer", "minimum": 0, "description": "page.next_cursor of the previous result"}
BIRTH = {"datetime": DATETIME, "place": PLACE, "tz": TZ, "lat": LAT, "lon": LON}
#: The second birth of a two-person tool, the same five names nested.
PARTNER = {
    "type": "object",
    "description": "The second birth: datetime, place (or lat, lon), tz",
    "properties": {
        "datetime": {"type": "string"},
        "place": {"type": "string"},
        "tz": {"type": "string"},
        "lat": LAT,
        "lon": LON,
    },
    "additionalProperties": False,
}
#: What the forecast tool asks unless told otherwise: what matters first, the question an
#: assistant is asked most ("what transits matter for me this year?"). The slow movers of the
#: API's order of significance (docs/forecast.md), ranked by it, so that a year's contacts of
#: Jupiter to Pluto fit the first page.
FORECAST_DEFAULTS: dict[str, Any] = {
    "moving": ["jupiter", "saturn", "uranus", "neptune", "pluto"],
    "rank": "significance",
}
#: A local clock time of a span's end: a date and a time without an offset.
LOCAL_CLOCK = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$"}
#: Arguments every tool takes but the API does not: they choose the result, not the answer
#: (``between`` and ``and``: a span of birth times, sent as its middle and half its length).
OWN_ARGUMENTS = ("extra", "cursor", "kind", "partner", "when", "between", "and")

#: The one output schema of every curated tool's structured content.
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "summary": {"type": "string"},
        "data": {},
        "page": {"type": "object"},
        "trimmed": {"type": "array"},
        "warnings": {"type": "array"},
        "meta": {"type": "object"},
    },
    "required": ["summary", "data"],
}


@dataclass(frozen=True)
class CuratedTool:
    """One curated tool: its schema, the operation(s) it calls and how its result is shaped.

    ``paths`` maps each ``kind`` to its API path (one entry, ``None``, for a tool of one
    operation); ``items`` names the list in the data that pages (None: the data is cut only);
    ``fixed`` holds the parameters the tool always sends (format=png for the wheel),
    ``defaults`` those it sends unless the arguments give them (a lighter answer by default);
    ``rules`` are JSON Schema keywords its input schema adds (arguments that go together)."""

    name: str
    description: str
    properties: dict[str, Any]
    paths: dict[str | None, str]
    summarize: Callable[[Any, dict[str, Any], dict[str, Any]], str]
    required: tuple[str, ...] = ()
    items: str | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)
    regroup: Callable[[Any], tuple[dict[str, Any], list[Any]]] | None = None
    rules: dict[str, Any] = field(default_factory=dict)

    @property
    def input_schema(self) -> dict[str, Any]:
        """Return the tool's input schema (JSON Schema 2020-12)."""
        schema: dict[str, Any] = {"type": "object", "properties": self.properties, "additionalProperties": False}
        if self.required:
            schema["required"] = list(self.required)
        return {**schema, **self.rules}

    def path(self, arguments: dict[str, Any]) -> str:
        """Return the API path ``arguments`` call (the one of their ``kind``)."""
        if None in self.paths:
            return self.paths[None]
        return self.paths[arguments.get("kind", next(iter(self.paths)))]

    def request(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Return the API request body of ``arguments``: the tool's own names as the API's
        (a partner's as the ``_b`` birth, the first birth as ``_a``), then ``extra``."""
        # kind picks the path of a tool of several operations; the wheel's is the API's own.
        own = OWN_ARGUMENTS if None not in self.paths else tuple(name for name in OWN_ARGUMENTS if name != "kind")
        body = {key: value for key, value in arguments.items() if key not in own}
        if "partner" in arguments:
            body = {_suffixed(key, "_a"): value for key, value in body.items()}
            body.update({_suffixed(key, "_b"): value for key, value in arguments.get("partner", {}).items()})
        if "when" in arguments:
            body[WHEN_PARAMETER.get(arguments.get("kind"), "target_datetime")] = arguments["when"]
        if "between" in arguments:
            body.update(birth_window(arguments["between"], arguments["and"]))
        return {**self.defaults, **body, **self.fixed, **arguments.get("extra", {})}


#: What a wheel's or a time-lord's ``when`` is, by kind.
WHEN_PARAMETER = {"transit": "transit_datetime", "progressed": "target_datetime", "return": "search_start"}
_BIRTH_NAMES = ("datetime", "place", "tz", "lat", "lon", "alt", "jd", "fold")


def birth_window(between: str, and_: str) -> dict[str, Any]:
    """Return the ``datetime`` and ``window_hours`` of the birth times from ``between`` to
    ``and_`` (local clock times, either order): the middle on the clock, and half the span in
    hours. A date the calendar has not (02-30) is sent as it was given, for the API to name."""
    try:
        first, last = sorted((datetime.fromisoformat(between), datetime.fromisoformat(and_)))
    except ValueError:
        return {"datetime": between}
    return {"datetime": (first + (last - first) / 2).isoformat(), "window_hours": (last - first).total_seconds() / 7200}


def _suffixed(key: str, suffix: str) -> str:
    """Return a birth parameter's name for the first or second birth (datetime -> datetime_a)."""
    return key + suffix if key in _BIRTH_NAMES else key


TOOLS: tuple[CuratedTool, ...] = (
    CuratedTool(
        "places",
        "Find a town by name: its id (for place), lat, lon and time zone. Call it first for a birth or any local time; "
        "several towns may match: pick by country and population, or ask.",
        {
            "q": {"type": "string"},
            "country": {"type": "string", "description": "ISO code (FR)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20},
        },
        {None: "/v1/places"},
        places_summary,
        required=("q",),
        items="places",
    ),
    CuratedTool(
        "timezone",
        "Time zone, UTC offset and DST of a place at a moment (datetime in UTC, or local with tz='auto'). "
        "Rarely needed: the other tools read local times themselves.",
        {"lat": LAT, "lon": LON, "datetime": {"type": "string"}, "tz": {"type": "string", "enum": ["auto"]}},
        {None: "/v1/timezone"},
        timezone_summary,
        required=("lat", "lon"),
    ),
    CuratedTool(
        "positions",
        "Where the planets are at a moment (no houses): sign, degree, speed, retrograde. For a person use natal_chart.",
        {
            "datetime": DATETIME,
            "tz": TZ,
            "bodies": LIST,
            "sidereal": {"type": "string", "description": "ayanamsha (lahiri)"},
            "extra": {"type": "object"},
        },
        {None: "/v1/positions"},
        positions_summary,
        items="positions",
    ),
    CuratedTool(
        "natal_chart",
        "A birth chart: planets in signs and houses, angles, aspects. Give the local birth datetime and place "
        "(from places), or tz, lat and lon. kind=draconic rotates it to the North Node. "
        "Dignities, lots, patterns and more via extra.",
        {
            **BIRTH,
            "kind": {"type": "string", "enum": ["natal", "draconic"]},
            "bodies": LIST,
            "system": {"type": "string", "description": "house system"},
            "sidereal": {"type": "string"},
            "extra": {"type": "object"},
        },
        {"natal": "/v1/natal-chart", "draconic": "/v1/draconic"},
        chart_summary,
    ),
    CuratedTool(
        "relationship_chart",
        "Two births: synastry (both charts and the aspects between), composite or davison chart. "
        "Parallels are off unless extra.parallels=true; a synastry adds a compatibility score (Discepolo's) "
        "with extra.score=true.",
        {
            **BIRTH,
            "partner": PARTNER,
            "kind": {"type": "string", "enum": ["synastry", "composite", "davison"]},
            "bodies": LIST,
            "extra": {"type": "object"},
        },
        {"synastry": "/v1/synastry", "composite": "/v1/composite", "davison": "/v1/davison"},
        chart_summary,
        required=("partner",),
        # Both charts' parallels and the cross ones would take a synastry past the limit.
        defaults={"parallels": False},
    ),
    CuratedTool(
        "progressed_chart",
        "Secondary progressions of a birth chart to a date (when, local). Birth as for natal_chart.",
        {**BIRTH, "when": DATETIME, "bodies": LIST, "extra": {"type": "object"}},
        {None: "/v1/progressed"},
        chart_summary,
        required=("when",),
    ),
    CuratedTool(
        "chart_wheel",
        "Draw a chart as a PNG picture. kind transit/progressed/return need when; synastry/composite/davison need "
        "partner.",
        {
            **BIRTH,
            "kind": {
                "type": "string",
                "enum": ["natal", "draconic", "transit", "progressed", "return", "synastry", "composite", "davison"],
            },
            "when": DATETIME,
            "partner": PARTNER,
            "theme": {"type": "string", "enum": ["light", "dark", "high_contrast", "print"]},
            "size": {"type": "integer", "minimum": 200, "maximum": 1200},
            "extra": {"type": "object"},
        },
        {None: "/v1/chart-wheel"},
        wheel_summary,
        fixed={"format": "png"},
    ),
    CuratedTool(
        "transits",
        "Transits to a birth chart over start..end (at most a year): each window of a moving body's aspect to a natal "
        "point, with entry, exact and exit. Birth: local datetime and place (from places). start and end are read in "
        "the birth's zone unless range_tz names another. Counted by pair, events paged "
        "(cursor). For the big picture, moving=[jupiter,saturn,uranus,neptune,pluto].",
        {
            "start": DATETIME,
            "end": DATETIME,
            "datetime": {"type": "string", "description": "birth, local"},
            "place": PLACE,
            "range_tz": {"type": "string", "description": "IANA zone of start and end, if not the birth's"},
            "tz": TZ,
            "lat": LAT,
            "lon": LON,
            "moving": LIST,
            "aspects": LIST,
            "cursor": CURSOR,
            "extra": {"type": "object"},
        },
        {None: "/v1/transits"},
        transits_summary,
        required=("start", "end"),
        items="events",
        regroup=transits_regroup,
    ),
    CuratedTool(
        "forecast",
        "A birth's forecast over start..end (at most 10 years): transits to the natal points (entering orb, exact, "
        "leaving), stations, ingresses, lunations and eclipses, void-of-course Moon, returns, time-lord periods. "
        "By default what matters first: the slow movers (moving=[jupiter..pluto]) by significance (exact contacts "
        "to the angles and luminaries first); moving=[] and rank=time give every event in time order. Birth: local "
        "datetime and place (from places). kinds and bodies narrow it. Paged (cursor, then page_token).",
        {
            "start": DATETIME,
            "end": DATETIME,
            "datetime": {"type": "string", "description": "birth, local"},
            "place": PLACE,
            "range_tz": {"type": "string", "description": "IANA zone of start and end, if not the birth's"},
            "tz": TZ,
            "lat": LAT,
            "lon": LON,
            "kinds": LIST,
            "bodies": LIST,
            "moving": LIST,
            "rank": {"type": "string", "enum": ["significance", "time"]},
            "page_token": {"type": "string", "description": "data.next_page_token of the previous result"},
            "cursor": CURSOR,
        },
        {None: "/v1/forecast"},
        forecast_summary,
        required=("start", "end"),
        items="events",
        defaults=FORECAST_DEFAULTS,
    ),
    CuratedTool(
        "returns",
        "Solar or lunar return charts after search_start, cast at lat, lon (where the person is then). Birth: "
        "datetime, tz.",
        {
            "datetime": DATETIME,
            "tz": TZ,
            "lat": LAT,
            "lon": LON,
            "body": {"type": "string", "enum": ["sun", "moon"]},
            "search_start": DATETIME,
            "count": {"type": "integer", "minimum": 1, "maximum": 13},
            "extra": {"type": "object"},
        },
        {None: "/v1/returns"},
        chart_summary,
        required=("body", "lat", "lon"),
    ),
    CuratedTool(
        "time_lords",
        "Time-lord periods of a birth: profections, zodiacal_releasing or firdaria, in force at one moment (at) or "
        "over start..end. Birth as for natal_chart.",
        {
            **BIRTH,
            "kind": {"type": "string", "enum": ["profections", "zodiacal_releasing", "firdaria"]},
            "at": DATETIME,
            "start": DATETIME,
            "end": DATETIME,
            "cursor": CURSOR,
            "extra": {"type": "object"},
        },
        {"profections": "/v1/profections", "zodiacal_releasing": "/v1/zodiacal-releasing", "firdaria": "/v1/firdaria"},
        time_lords_summary,
        items="periods",
    ),
    CuratedTool(
        "vedic",
        "Jyotish, Lahiri unless ayanamsha names another. kind=chart: the sidereal birth chart (nakshatras, houses; "
        "extra.vargas='D9,D10' adds divisional charts). kind=dasha: the Vimshottari dasha, extra.at (local) for the "
        "periods running then, or extra.start and extra.end; extra.levels 1-3. kind=panchang: the day's vara, tithi, "
        "nakshatra, yoga, karana (datetime: the day). kind=match: the Ashtakoota of the birth (the groom's unless "
        "extra.groom='b') and partner's, out of 36, and each one's manglik status. kind=ashtakavarga: the bindus of "
        "each graha's ashtakavarga per sign and the sarvashtakavarga (337). Birth as for natal_chart.",
        {
            **BIRTH,
            "partner": PARTNER,
            "kind": {"type": "string", "enum": ["chart", "dasha", "panchang", "match", "ashtakavarga"]},
            "ayanamsha": {"type": "string"},
            "cursor": CURSOR,
            "extra": {"type": "object"},
        },
        {
            "chart": "/v1/vedic/chart",
            "dasha": "/v1/vedic/dasha",
            "panchang": "/v1/vedic/panchang",
            "match": "/v1/vedic/match",
            "ashtakavarga": "/v1/vedic/ashtakavarga",
        },
        vedic_summary,
        items="periods",
    ),
    CuratedTool(
        "sky_events",
        "What happens in the sky over start..end: ingresses, stations, new and full Moons, eclipses, void-of-course "
        "Moon (events to narrow). Paged (cursor).",
        {"start": DATETIME, "end": DATETIME, "tz": TZ, "events": LIST, "bodies": LIST, "cursor": CURSOR},
        {None: "/v1/calendar"},
        sky_summary,
        required=("start", "end"),
        items="events",
    ),
    CuratedTool(
        "eclipses",
        "The next (or previous, backward) solar or lunar eclipses after a moment.",
        {
            "kind": {"type": "string", "enum": ["solar", "lunar"]},
            "datetime": DATETIME,
            "tz": TZ,
            "count": {"type": "integer", "minimum": 1},
            "backward": {"type": "boolean"},
            "lat": LAT,
            "lon": LON,
        },
        {"solar": "/v1/eclipses/solar", "lunar": "/v1/eclipses/lunar"},
        eclipses_summary,
        items="eclipses",
    ),
    CuratedTool(
        "astrocartography",
        "Astrocartography: where on Earth each body was on an angle at a moment (lines of points, every 5° of "
        "latitude).",
        {"datetime": DATETIME, "tz": TZ, "bodies": LIST, "angles": LIST, "cursor": CURSOR, "extra": {"type": "object"}},
        {None: "/v1/astrocartography"},
        astrocartography_summary,
        items="lines",
        # A point every 5 degrees of latitude draws a line well enough for a reader and puts
        # five times the lines on a page as the API's 1 degree.
        defaults={"latitude_step": 5},
    ),
    CuratedTool(
        "planetary_hours",
        "The planetary hours of the day at a place: the day ruler and the hour's ruler.",
        {"datetime": DATETIME, "tz": TZ, "lat": LAT, "lon": LON},
        {None: "/v1/planetary-hours"},
        hours_summary,
        required=("lat", "lon"),
    ),
    CuratedTool(
        "explain_difference",
        "Why another program's chart (astro.com, an app, a book) differs from ours: give the birth as the user "
        "entered it and the other program's numbers in theirs; answers the misreadings (zone, summer time, local mean "
        "time, AM/PM, date, coordinate signs) and conventions (house system, zodiac and ayanamsha, node, "
        "topocentric) that reproduce them, ranked, each with the request that gives their numbers from us. A "
        "position 21°04′ Cancer is 90 + 21 + 4/60 = 111.0667 (Aries 0, Taurus 30, ... Pisces 330).",
        {
            **BIRTH,
            "theirs": {
                "type": "object",
                "description": "Their longitudes, degrees 0-360, any subset: positions {sun: 111.0667, moon: ...}, "
                "cusps (12, house 1 first), asc, mc",
            },
            "system": {"type": "string", "description": "house system the user asked us for"},
            "sidereal": {"type": "string", "description": "ayanamsha the user asked us for"},
            "extra": {"type": "object"},
        },
        {None: "/v1/explain-difference"},
        explanation_summary,
        required=("theirs",),
    ),
    CuratedTool(
        "birth_time_sensitivity",
        "Which facts of a birth chart hold when the birth time is uncertain, and the birth times at which the "
        "others change (the angles' signs, each body's sign, house and aspects to the angles, the Moon's "
        "nakshatra and pada, the first dasha lord). Birth as for natal_chart; the window either as between and "
        "and (local clock times: 'in the morning' is between 06:00 and 12:00 of the day) or as datetime and "
        "window_hours either side (at most 12, default 2).",
        {
            **BIRTH,
            "between": {**LOCAL_CLOCK, "description": "earliest birth time, local (instead of datetime)"},
            "and": {**LOCAL_CLOCK, "description": "latest birth time, local"},
            "window_hours": {"type": "number", "exclusiveMinimum": 0, "maximum": 12},
            "bodies": LIST,
            "system": {"type": "string", "description": "house system"},
            "sidereal": {"type": "string"},
            "cursor": CURSOR,
            "extra": {"type": "object"},
        },
        {None: "/v1/natal-chart/sensitivity"},
        sensitivity_summary,
        items="changes",
        regroup=sensitivity_regroup,
        rules={
            "dependentRequired": {"between": ["and"], "and": ["between"]},
            "not": {"anyOf": [{"required": ["between", "datetime"]}, {"required": ["between", "window_hours"]}]},
        },
    ),
)


def curated_tools() -> dict[str, CuratedTool]:
    """Return the curated tools by name."""
    return {tool.name: tool for tool in TOOLS}


def shaped_result(tool: CuratedTool, body: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """Return the structured content of ``tool``'s answer ``body``: its summary, the data
    (regrouped, paged from ``arguments["cursor"]``, cut to fit), warnings and a short meta."""
    data = body.get("data")
    if isinstance(data, list):
        data = {tool.items or "items": data}
    pending: list[Any] | None = None
    if tool.regroup is not None:
        data, pending = tool.regroup(data)
    elif tool.items is not None and isinstance(data, dict) and isinstance(data.get(tool.items), list):
        pending = data[tool.items]
    meta = {
        key: body["meta"][key]
        for key in ("credits_used", "credits_remaining", "moment", "conventions")
        if key in body.get("meta", {})
    }
    result: dict[str, Any] = {
        # The summary says what was asked: the tool's defaults, unless the arguments replace them.
        "summary": tool.summarize(
            data if pending is None else {**data, tool.items: pending}, meta, {**tool.defaults, **arguments}
        ),
        "data": data,
    }
    if body.get("warnings"):
        result["warnings"] = body["warnings"]
    result["meta"] = meta
    if pending is not None:
        result = results.paged(result, pending, arguments.get("cursor", 0), tool.items)
    return results.cut_to_fit(result)


#: A parameter's description in the reference resource is cut here: the resource is read into a
#: model's context too.
REFERENCE_DESCRIPTION_CHARS = 300


def parameter_reference(tool: CuratedTool, document: dict[str, Any]) -> dict[str, Any]:
    """Return every parameter of the operation(s) behind ``tool`` (what ``extra`` may carry):
    by path, each name with its type, default and the first sentence of its description."""
    reference = {}
    for path in dict.fromkeys(tool.paths.values()):
        schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        reference[path] = {
            name: {
                "type": spec.get("type", "string or list"),
                **({"default": spec["default"]} if "default" in spec else {}),
                "description": " ".join(spec.get("description", "").split())[:REFERENCE_DESCRIPTION_CHARS],
            }
            for name, spec in schema.get("properties", {}).items()
        }
    return reference


def operation_schema(tool: CuratedTool, arguments: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """Return the body schema of the operation ``arguments`` call, standing alone."""
    return resolved(
        document["paths"][tool.path(arguments)]["post"]["requestBody"]["content"]["application/json"]["schema"],
        document,
    )


PARAMETERS_PREFIX = "celestial://parameters/"


def curated_tool(tool: CuratedTool) -> types.Tool:
    """Return the curated tool's MCP definition, with the shared output schema."""
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=OUTPUT_SCHEMA,
        # Every operation computes and changes nothing but the caller's balance.
        annotations=types.ToolAnnotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )


def parameter_resources(tools: dict[str, CuratedTool]) -> list[types.Resource]:
    """Return a resource per tool listing every parameter its ``extra`` may carry."""
    return [
        types.Resource(
            uri=PARAMETERS_PREFIX + name,
            name=f"parameters/{name}",
            description=f"Every API parameter of the {name} tool (for extra): type, default, meaning.",
            mime_type="application/json",
        )
        for name in tools
    ]


def read_parameters(
    uri: str, tools: dict[str, CuratedTool], document: dict[str, Any]
) -> types.ReadResourceResult | None:
    """Return the parameter reference at ``uri``, or None when there is none."""
    tool = tools.get(uri.removeprefix(PARAMETERS_PREFIX)) if uri.startswith(PARAMETERS_PREFIX) else None
    if tool is None:
        return None
    text = json.dumps(parameter_reference(tool, document), ensure_ascii=False)
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type="application/json", text=text)]
    )
