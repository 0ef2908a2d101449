"""decisions.md: every reply is bounded before it is computed. The parameters' own limits
(ranges and their caps, counts, year_days in [300, 400], 80 astrocartography lines, a
forecast's page_size) keep the largest answer each endpoint can give under the 4 MiB one reply
carries (a forecast's JSON pages, measured as the gateway writes them); a reply past it
would be 400 result_too_large, never a service answered as busy."""

from __future__ import annotations

import asyncio
import importlib
import json

import orjson
import pytest

from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment
from gateway.endpoints import discover_endpoints
from gateway.envelope import success_body
from kernel.aspects import ASPECT_TYPES
from kernel.deadline import Deadline
from services.search import forecast
from services.search import server as search_server
from shared.errors import ResultTooLarge
from shared.runtime.computation import MAX_REPLY_BYTES
from shared.runtime.transcoder import request_from_json
from shared.runtime.validation import validate
from tests.api.in_process_pool import InProcessPool

ENDPOINTS = {endpoint.path: endpoint for endpoint in discover_endpoints()}
BIRTH = {"datetime": "1900-01-01T12:00:00Z", "lat": 51.5, "lon": -0.1}
ALL_ANGLES_AND_CUSPS = [
    {"body": body, "angles": ["asc", "dsc", "mc", "ic"], "cusps": [2, 3, 11, 12]}
    for body in ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto")
]

#: Every moving body /v1/transits scans; every body the calendar and stations take.
EVERY_MOVING = (
    "sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto,mean_node,true_node,chiron,ceres,pallas,juno,vesta"
)
EVERY_ELIGIBLE = "sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto,chiron,pholus,ceres,pallas,juno,vesta"

# The widest request each heavy endpoint admits, every knob that adds records at its limit.
LARGEST = {
    "profections, 120 years of months, 300-day years": (
        "/v1/profections",
        {**BIRTH, "start": "1900-01-01T12:00:00Z", "end": "2020-01-01T12:00:00Z", "year_days": 300},
    ),
    "zodiacal releasing, a year of level 4": (
        "/v1/zodiacal-releasing",
        {**BIRTH, "max_level": 4, "start": "1950-01-01", "end": "1951-01-01"},
    ),
    "zodiacal releasing, 10 years of level 3": (
        "/v1/zodiacal-releasing",
        {**BIRTH, "max_level": 3, "start": "1950-01-01", "end": "1960-01-01"},
    ),
    "firdaria, 120 years at 300-day years": (
        "/v1/firdaria",
        {**BIRTH, "start": "1900-01-01T12:00:00Z", "end": "2020-01-01T12:00:00Z", "year_days": 300},
    ),
    "transits, 17 moving bodies on every point, 15 aspects, orb 10, 183 days with the Moon": (
        "/v1/transits",
        {
            **BIRTH,
            "start": "2024-01-01",
            "end": "2024-07-01",
            "orb": 10,
            "moon": "include",
            "bodies": "all",
            "aspects": ",".join(ASPECT_TYPES),
            "moving": EVERY_MOVING,
        },
    ),
    "returns, 13 lunar returns of every body with every chart option": (
        "/v1/returns",
        {
            **BIRTH,
            "body": "moon",
            "search_start": "2024-01-01",
            "count": 13,
            "bodies": "all",
            "derived_points": "true",
            "lots": "default",
            "patterns": "true",
            "dignities": "true",
            "stellium_min": 2,
        },
    ),
    "stations, 10 years of every eligible body": (
        "/v1/stations",
        {
            "start": "2024-01-01",
            "end": "2034-01-01",
            "bodies": "mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto,chiron,pholus,ceres,pallas,juno,vesta",
        },
    ),
    "lunations, 10 years of the eight phases": (
        "/v1/lunations",
        {
            "start": "2024-01-01",
            "end": "2034-01-01",
            "phases": "new_moon,crescent,first_quarter,gibbous,full_moon,disseminating,last_quarter,balsamic",
        },
    ),
    "void-of-course periods, 366 days against every body": (
        "/v1/void-of-course/periods",
        {"start": "2024-01-01", "end": "2025-01-01", "bodies": "all"},
    ),
    "calendar, 366 days of every kind for every eligible body": (
        "/v1/calendar",
        {"start": "2024-01-01", "end": "2025-01-01", "bodies": EVERY_ELIGIBLE},
    ),
    "calendar, the same as iCalendar": (
        "/v1/calendar",
        {"start": "2024-01-01", "end": "2025-01-01", "format": "ics", "bodies": EVERY_ELIGIBLE},
    ),
    "stars, every named star": ("/v1/stars", {"datetime": "2024-01-01", "star": "all"}),
    "astrocartography, 80 lines at 0.5-degree rows": (
        "/v1/astrocartography",
        {"datetime": "2024-01-01", "targets": ALL_ANGLES_AND_CUSPS, "latitude_step": 0.5},
    ),
    "astrocartography, 80 lines at 0.5-degree rows as GeoJSON": (
        "/v1/astrocartography",
        {"datetime": "2024-01-01", "targets": ALL_ANGLES_AND_CUSPS, "latitude_step": 0.5, "format": "geojson"},
    ),
    "synastry of every body with every chart option": (
        "/v1/synastry",
        {
            "datetime_a": "1990-06-15T14:30:00Z",
            "lat_a": 51.5,
            "lon_a": -0.1,
            "datetime_b": "1985-03-01T06:00:00Z",
            "lat_b": 40.7,
            "lon_b": -74.0,
            "bodies": "all",
            "derived_points": "true",
            "lots": "default",
            "patterns": "true",
            "dignities": "true",
            "stellium_min": 2,
        },
    ),
}


@pytest.mark.parametrize("label", list(LARGEST))
def test_the_largest_answer_an_endpoint_admits_fits_one_reply(label):
    path, params = LARGEST[label]
    endpoint = ENDPOINTS[path]
    handlers = importlib.import_module(f"services.{endpoint.service}.server").HANDLERS
    request = validate(
        request_from_json(
            endpoint.request_cls, {k: json.dumps(v) if isinstance(v, list) else v for k, v in params.items()}, path
        )
    )
    reply = handlers[endpoint.method.name](request, Deadline.after(120))
    assert 0 < reply.ByteSize() < MAX_REPLY_BYTES, f"{label}: {reply.ByteSize():,} bytes"


#: The widest forecast: ten calendar years of every kind, no filter, the largest page.
WIDEST_FORECAST = {**BIRTH, "start": "2024-01-01", "end": "2034-01-01", "page_size": 5000}


def _forecast(params: dict) -> tuple[object, bytes]:
    """Return the reading of a /v1/forecast request and its answer's JSON as the gateway writes it."""
    endpoint = ENDPOINTS["/v1/forecast"]
    request = validate(request_from_json(endpoint.request_cls, {k: str(v) for k, v in params.items()}, endpoint.path))
    reply = search_server.HANDLERS[endpoint.method.name](request, Deadline.after(120))
    return request, orjson.dumps(success_body(reply, {"request_id": "0" * 32, "credits_used": 10}))


def test_every_json_page_of_the_widest_forecast_is_under_4_mib_and_the_pages_are_the_whole_list():
    request, _ = _forecast(WIDEST_FORECAST)
    whole = forecast.forecast_events(request.query, Deadline.after(120))
    pages, sizes, token = [], [], None
    while True:
        _, body = _forecast({**WIDEST_FORECAST, **({"page_token": token} if token else {})})
        sizes.append(len(body))
        data = orjson.loads(body)["data"]
        pages.append(data["events"])
        token = data["next_page_token"]
        if token is None:
            break
    print("forecast pages (bytes of JSON):", sizes)
    assert len(pages) > 1 and all(size < MAX_REPLY_BYTES for size in sizes)
    assert [(e["id"], e["kind"], e["instant"]["jd"]) for page in pages for e in page] == [
        (e.id, e.kind, e.jd) for e in whole
    ]


def test_the_widest_forecast_as_icalendar_is_whole_under_its_cap():
    _, body = _forecast(
        {key: value for key, value in WIDEST_FORECAST.items() if key != "page_size"} | {"format": "ics"}
    )
    assert 0 < len(body) < forecast.ICS_MAX_BYTES, f"{len(body):,} bytes"


def test_a_reply_past_what_one_reply_carries_is_result_too_large_not_busy():
    oversized = pb.ComputeStarsResponse(warnings=["x" * 1024] * (MAX_REPLY_BYTES // 1024 + 1))
    pool = InProcessPool("ephemeris", {"ComputeStars": lambda request, deadline: oversized})
    with pytest.raises(ResultTooLarge) as caught:
        asyncio.run(
            pool.call(
                "/celestial.v1.EphemerisService/ComputeStars",
                pb.ComputeStarsRequest(moment=Moment(jd=2451545.0), star="aldebaran"),
                pb.ComputeStarsResponse,
                timeout_s=10,
                request_id="big",
            )
        )
    assert caught.value.code == "result_too_large" and caught.value.http_status == 400
