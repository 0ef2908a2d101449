"""Every rule that refuses a request for its parameters is the gateway's: proven over the
whole fuzz corpus, never a 5xx, never a refusal the service found first.

The app runs in process on a service pool that wraps the real one and records every call the
service refused with a 4xx about the request's parameters. The gateway charges just before
it calls the service, so a refusal recorded there is one the gateway missed: a request that
was admitted and charged for parameters it could have refused, with the charge given back
only because the service answered an error. The corpus is schemathesis's cases for every
operation of /v1/openapi.json (as ``test_fuzz_openapi.py`` generates them) and
:data:`BOUNDARY_CORPUS`, the error rows of every endpoint (its RPC comment in the protos, the
spec) written out by hand with their neighbours just inside the bound.

A few refusals are facts only the computation knows, however the parameters are read; they
are :data:`COMPUTED_REFUSALS`, each with its reason, and the only 4xx a service may answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import anyio
import httpx
import pytest
import schemathesis
from google.protobuf.json_format import MessageToDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from celestial.v1 import ephemeris_service_pb2 as ephemeris_pb
from gateway.reference.examples import without_examples
from kernel.errors import PolarDayOrNight
from shared.errors import CelestialError, InvalidParameter
from tests.api.in_process_pool import InProcessPool, in_process_pools
from tests.api.in_process_stack import AppStack
from tests.reliability.test_fuzz_openapi import (
    VALID_CONTEXT,
    answer_body,
    check_answer,
    declared_documents,
    with_context,
)

EXAMPLES_PER_OPERATION = 60

#: (RPC, code, param) of the refusals that depend on what the computation finds, with why.
#: ``None`` as param: whatever parameter the error names.
COMPUTED_REFUSALS: dict[tuple[str, str, str | None], str] = {
    (
        "ComputePlanetaryHours",
        "polar_day_or_night",
        "lat",
    ): "whether the Sun rises and sets on that day is known only from the Sun's computed path",
    (
        "ComputePanchang",
        "polar_day_or_night",
        "lat",
    ): "whether the day has a sunrise is known only from the Sun's computed path",
    (
        "ComputeShadbala",
        "polar_day_or_night",
        "lat",
    ): "whether the birth's day (the kala bala's) has a sunrise and a sunset: known only from the Sun's path",
    (
        "FindReturns",
        "out_of_range",
        None,
    ): "a return found past the supported dates is known only once the search has found it",
    (
        "FindIngresses",
        "out_of_range",
        None,
    ): "an ingress found past the supported dates is known only once the search has found it",
    (
        "FindSolarEclipses",
        "out_of_range",
        None,
    ): "an eclipse found past the supported dates is known only once the search has found it",
    (
        "FindLunarEclipses",
        "out_of_range",
        None,
    ): "an eclipse found past the supported dates is known only once the search has found it",
    (
        "FindHeliacalEvent",
        "out_of_range",
        None,
    ): "a heliacal event found past the supported dates is known only once the search has found it",
    (
        "FindHeliacalEvent",
        "invalid_parameter",
        "event",
    ): "no event within five synodic periods (optics that never lose the planet, a polar "
    "place) is known only from the search",
    (
        "FindForecast",
        "result_too_large",
        None,
    ): "the size of a forecast's iCalendar file is known only once its events are found and written",
}


@dataclass(frozen=True)
class ServiceRefusal:
    """A call a service refused for its parameters: the RPC, the error and the request it got."""

    rpc: str
    code: str
    param: str | None
    message: str
    request: dict

    def __str__(self) -> str:
        return f"{self.rpc} {self.code} ({self.param}): {self.message}\n    request {json.dumps(self.request)[:600]}"


def is_computed(rpc: str, error: CelestialError) -> bool:
    """Return whether ``error`` of ``rpc`` is one of :data:`COMPUTED_REFUSALS`."""
    return (rpc, error.code, error.param) in COMPUTED_REFUSALS or (rpc, error.code, None) in COMPUTED_REFUSALS


class RefusalRecordingPool:
    """A service pool that calls the real in-process one and records each parameter refusal."""

    def __init__(self, inner: InProcessPool, refusals: list[ServiceRefusal]):
        self.name = inner.name
        self._inner = inner
        self.costs = inner.costs
        self._refusals = refusals

    async def call(self, method_path: str, request, response_cls, *, timeout_s: float, request_id: str):
        """Return the real pool's reply; a 4xx refusal it raises is recorded, then raised on."""
        try:
            return await self._inner.call(
                method_path, request, response_cls, timeout_s=timeout_s, request_id=request_id
            )
        except CelestialError as error:
            rpc = method_path.rsplit("/", 1)[-1]
            if 400 <= error.http_status < 500 and not is_computed(rpc, error):
                self._refusals.append(
                    ServiceRefusal(rpc, error.code, error.param, error.message, MessageToDict(request))
                )
            raise

    async def ready(self, timeout_s: float = 1.0) -> bool:
        return await self._inner.ready(timeout_s)

    async def implements(self, method_path: str) -> bool:
        return await self._inner.implements(method_path)

    async def close(self) -> None:
        await self._inner.close()


def recording_pools(refusals: list[ServiceRefusal]) -> Mapping[str, RefusalRecordingPool]:
    """Return one recording pool per service over the services' own in-process pools."""
    return {name: RefusalRecordingPool(pool, refusals) for name, pool in in_process_pools().items()}


@pytest.fixture(scope="module")
def refusals() -> list[ServiceRefusal]:
    return []


@pytest.fixture(scope="module")
def recorded_stack(module_stacks, refusals) -> AppStack:
    return module_stacks.in_process("refuses-first", pools=recording_pools(refusals))


@pytest.fixture(scope="module")
def client(recorded_stack: AppStack):
    key = recorded_stack.new_key(credits=10_000_000, rate_per_minute=1_000_000, max_concurrent=1000)[1]
    with recorded_stack.client(key) as c:
        yield c


def checked(response: httpx.Response, context: tuple, documents: tuple[str, ...] = ()) -> None:
    """Check an answer's status and shape (:func:`check_answer`: a 2xx, a document the
    operation declares, or a 4xx with code, message and suggestion; never a 5xx)."""
    body = answer_body(response.headers["content-type"], response.json)
    check_answer(
        response.request.url.path, response.status_code, body, [response.headers["x-request-id"]], context, documents
    )


def refused_by_the_service(refusals: list[ServiceRefusal]) -> str:
    return "the service refused what the gateway let through and charged:\n" + "\n".join(
        sorted({str(r) for r in refusals})
    )


# --- the proof itself ---------------------------------------------------------------------


def test_the_recording_pool_records_a_parameter_refusal_and_passes_a_computed_one():
    """The proof can fail: a request that skips the gateway (the pool called directly) and
    lacks a required parameter is recorded when the service refuses it; a refusal of
    COMPUTED_REFUSALS is not."""
    recorded: list[ServiceRefusal] = []
    pool = RefusalRecordingPool(in_process_pools()["ephemeris"], recorded)

    async def call_without_lat() -> None:
        try:
            with pytest.raises(CelestialError):
                await pool.call(
                    "/celestial.v1.EphemerisService/ComputeHouses",
                    ephemeris_pb.ComputeHousesRequest(moment={"jd": 2451545.0}),
                    ephemeris_pb.ComputeHousesResponse,
                    timeout_s=30,
                    request_id="proof",
                )
        finally:
            await pool.close()

    anyio.run(call_without_lat)
    assert [(r.rpc, r.code, r.param) for r in recorded] == [("ComputeHouses", "missing_parameter", "lat")]
    assert is_computed("ComputePlanetaryHours", PolarDayOrNight("The Sun does not set.", param="lat"))
    assert not is_computed("ComputePlanetaryHours", InvalidParameter("A bad latitude.", param="lat"))


def test_every_generated_case_of_every_operation_is_refused_by_the_gateway_first(client, refusals):
    document = client.get("/v1/openapi.json").json()
    # The schemas alone: the recorded examples are replayed by tests/e2e/test_recorded_examples.py.
    operations = [
        result.ok() for result in schemathesis.openapi.from_dict(without_examples(document)).get_all_operations()
    ]
    assert {operation.path for operation in operations} == set(document["paths"])
    refusals.clear()
    for operation in operations:
        send_generated_cases(client, operation)
    assert not refusals, refused_by_the_service(refusals)


def send_generated_cases(client, operation) -> None:
    """Send the cases schemathesis generates for ``operation`` (each with no context or a valid
    one) and check each answer."""

    @given(case=operation.as_strategy(), context=st.none() | VALID_CONTEXT)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case, context) -> None:
        with_context(case, context)
        sent = case.as_transport_kwargs(base_url=str(client.base_url))
        response = client.request(sent["method"], sent["url"], params=sent.get("params"), json=sent.get("json"))
        checked(response, (case.method, case.path, case.query, case.body), declared_documents(operation))

    run()


# --- the boundary corpus ------------------------------------------------------------------

BIRTH = {"datetime": "1990-06-15T14:30:00Z", "lat": 51.5, "lon": -0.1}
PAIR = {
    "datetime_a": "1990-06-15T14:30:00Z",
    "lat_a": 51.5,
    "lon_a": -0.1,
    "datetime_b": "1992-03-01T08:00:00Z",
    "lat_b": 40.7,
    "lon_b": -74.0,
}
MOMENT = {"datetime": "2024-03-20T12:00:00Z"}
CHARTS = ("/v1/natal-chart", "/v1/draconic", "/v1/progressed", "/v1/returns")
PAIRS = ("/v1/synastry", "/v1/davison", "/v1/composite")
SINGLE_MOMENT = (
    "/v1/positions",
    "/v1/aspects",
    "/v1/dignities",
    "/v1/patterns",
    "/v1/midpoints",
    "/v1/void-of-course",
    "/v1/solar-proximity",
    "/v1/delta-t",
    "/v1/sidereal-time",
    "/v1/eclipses/solar",
    "/v1/eclipses/lunar",
)
TIME_LORDS = ("/v1/profections", "/v1/zodiacal-releasing", "/v1/firdaria")


def _chart(path: str, **params) -> tuple[str, dict]:
    """Return a chart endpoint's case: the birth, what the endpoint needs besides, ``params``."""
    needs = {
        "/v1/progressed": {"target_datetime": "2024-01-01"},
        "/v1/returns": {"body": "sun", "search_start": "2024-01-01"},
    }
    return path, {**BIRTH, **needs.get(path, {}), **params}


BOUNDARY_CORPUS: list[tuple[str, dict]] = [
    # The moment: each end of the supported dates, just inside and just outside, both spellings.
    *[
        (path, moment)
        for path in (
            *SINGLE_MOMENT,
            "/v1/houses",
            "/v1/chart",
            "/v1/planetary-hours",
            "/v1/lots",
            "/v1/stars",
            "/v1/ayanamsha",
        )
        for moment in (
            {"jd": 625000.5},
            {"jd": 625000.4},
            {"jd": 2816787.5},
            {"jd": 2816787.6},
            {"jd": 0},
            {"jd": -1e300},
            {"datetime": "-3001-02-03T00:00:00Z"},
            {"datetime": "-3001-02-02T23:59:59Z"},
            {"datetime": "3000-01-01T00:00:00Z"},
            {"datetime": "3000-01-01T00:00:01Z"},
            {"datetime": "2024-02-30"},
            {"datetime": "2024-13-01"},
        )
    ],
    *[
        (path, {"lat": 51.5, "lon": -0.1, "system": "lahiri", "star": "sirius", **moment})
        for path in ("/v1/houses", "/v1/chart", "/v1/planetary-hours", "/v1/lots", "/v1/stars", "/v1/ayanamsha")
        for moment in ({"jd": 625000.4}, {"jd": 2816787.6}, {"jd": 2451545.0})
    ],
    # A place: half of one, each bound, each end of the latitude, the poles.
    *[
        (path, {**MOMENT, **place})
        for path in (
            "/v1/positions",
            "/v1/patterns",
            "/v1/midpoints",
            "/v1/eclipses/solar",
            "/v1/eclipses/lunar",
            "/v1/chart",
            "/v1/houses",
            "/v1/planetary-hours",
            "/v1/lots",
        )
        for place in (
            {"lat": 10},
            {"lon": 10},
            {"lat": 90, "lon": 0},
            {"lat": -90, "lon": 180},
            {"lat": 90.0001, "lon": 0},
            {"lat": 0, "lon": -180.0001},
            {"lat": 89.9, "lon": 0},
            {"lat": 67, "lon": 0},
        )
    ],
    # Calculation flags that contradict each other or need a place.
    *[
        (path, {**MOMENT, **flags})
        for path in ("/v1/positions", "/v1/chart")
        for flags in (
            {"topocentric": "true"},
            {"topocentric": "true", "heliocentric": "true", "lat": 1, "lon": 1},
            {"heliocentric": "true", "bodies": "sun"},
            {"heliocentric": "true", "bodies": "mean_node"},
            {"heliocentric": "true", "bodies": "earth", "lat": 1, "lon": 1},
            {"sidereal": "lahiri", "j2000": "true", "lat": 1, "lon": 1},
            {"sidereal": "99"},
            {"bodies": "no-such-body"},
            {"bodies": ""},
            {"system": "X", "lat": 1, "lon": 1},
        )
    ],
    # Charts: every flag, each refused combination of its RPC comment, lots, Gauquelin, mundane.
    *[
        _chart(path, **params)
        for path in CHARTS
        for params in (
            {"topocentric": "true", "heliocentric": "true"},
            {"heliocentric": "true"},
            {"heliocentric": "true", "derived_points": "true", "lots": "default"},
            {"system": "gauquelin", "j2000": "true"},
            {"system": "gauquelin", "heliocentric": "true"},
            {"house_position_mode": "mundane", "j2000": "true"},
            {"house_position_mode": "mundane", "heliocentric": "true"},
            {"house_position_mode": "mundane"},
            {"dignities": "true"},
            {"bodies": "sun,moon"},
            {"bodies": "sun", "patterns": "true", "stellium_scope": "house"},
            {"lat": 89.9},
            {"lat": -89.9, "system": "koch"},
            {"sidereal": "lahiri", "equatorial": "true"},
            {"bodies": "mean_node"},
            {"bodies": "earth"},
            {"node": "true_node", "bodies": "true_node"},
            {"lots": "fortune"},
        )
    ],
    *[
        (path, {**PAIR, **params})
        for path in PAIRS
        for params in (
            {},
            {"topocentric": "true", "heliocentric": "true"},
            {"house_position_mode": "mundane"},
            {"house_position_mode": "mundane", "j2000": "true"},
            {"system": "gauquelin", "heliocentric": "true"},
            {"heliocentric": "true", "derived_points": "true", "lots": "default"},
            {"jd_a": 625000.4, "datetime_a": None},
            {"datetime_a": "0001-01-01T00:00:00Z", "datetime_b": "2999-12-31T00:00:00Z"},
            {"lat_a": 90, "lat_b": -90},
            {"lat_a": None},
        )
    ],
    ("/v1/progressed", {**BIRTH, "target_datetime": "1980-01-01"}),
    ("/v1/progressed", {**BIRTH, "target_datetime": "1990-06-15T14:30:00Z"}),
    ("/v1/progressed", {**BIRTH, "target_jd": 2816787.5}),
    ("/v1/progressed", {**BIRTH, "target_datetime": "2024-01-01", "year_days": 1}),
    ("/v1/progressed", {**BIRTH, "target_datetime": "2024-01-01", "year_days": 0}),
    ("/v1/draconic", {**BIRTH, "bodies": "sun,moon"}),
    ("/v1/draconic", {**BIRTH, "bodies": "sun,true_node", "node": "mean_node"}),
    # Returns: each body kind, each count cap, the frames.
    *[
        _chart("/v1/returns", **params)
        for params in (
            {"body": "moon", "count": 13},
            {"body": "moon", "count": 14},
            {"body": "mars", "count": 5},
            {"body": "mars", "count": 6},
            {"body": "mean_node"},
            {"body": "pholus"},
            {"body": "sirius"},
            {"body": "earth"},
            {"body": "sun", "heliocentric": "true"},
            {"body": "earth", "heliocentric": "true"},
            {"body": "mean_node", "heliocentric": "true"},
            {"body": "ceres", "search_start": "2990-01-01"},
            {"body": "ceres", "datetime": "1100-01-01"},
            {"body": "chiron"},
            {"body": "no-such-body"},
            {"body": "sun", "search_start_jd": 2816787.6},
            {"body": "saturn", "search_start": "2995-01-01", "count": 2},
        )
    ],
    # Ingresses, eclipses, heliacal events.
    *[
        ("/v1/ingresses", {**MOMENT, **params})
        for params in (
            {"body": "mars", "sign": "leo"},
            {"body": "mars", "longitude": 360},
            {"body": "mars", "longitude": 0},
            {"body": "mars", "sign": "leo", "longitude": 10},
            {"body": "mars"},
            {"body": "mean_node", "sign": "leo"},
            {"body": "ceres", "sign": "leo"},
            {"body": "sirius", "sign": "leo"},
            {"body": "pluto", "sign": "leo", "datetime": "2999-06-01"},
            {"body": "moon", "sign": "leo", "backward": "true", "datetime": "-3001-02-04"},
            {"body": "sun", "sign": "aries", "count": 100},
            {"body": "planets", "sign": "leo"},
            {"body": "MARS", "sign": "leo"},
        )
    ],
    *[
        (path, {**MOMENT, **params})
        for path in ("/v1/eclipses/solar", "/v1/eclipses/lunar")
        for params in (
            {"count": 0},
            {"count": 10},
            {"count": 11},
            {"backward": "true", "datetime": "-3001-02-04"},
            {"datetime": "2999-12-01", "count": 3},
            {"lat": 0, "lon": 0, "alt": 20001},
        )
    ],
    *[
        ("/v1/heliacal", {**MOMENT, "lat": 30, "lon": 31, **params})
        for params in (
            {"body": "venus", "event": "morning_first"},
            {"body": "mars", "event": "evening_first"},
            {"body": "venus", "event": "evening_first"},
            {"body": "sun", "event": "morning_first"},
            {"body": "moon", "event": "morning_first"},
            {"body": "ceres", "event": "morning_first"},
            {"body": "venus", "event": "acronychal_rising"},
            {"body": "jupiter", "event": "acronychal_setting"},
            {"body": "venus", "event": "morning_first", "lat": 89},
            {"body": "venus", "event": "morning_first", "datetime": "2999-11-01"},
            {"body": "venus", "event": "nonsense"},
            {"body": "planets", "event": "morning_first"},
            {"body": "Mercury", "event": "Evening_First"},
            {"body": "sun", "event": "acronychal_rising"},
        )
    ],
    # Transits: each form, each cap, the moving bodies.
    *[
        ("/v1/transits", params)
        for params in (
            {**BIRTH, "start": "2024-01-01", "end": "2024-12-31"},
            {**BIRTH, "start": "2024-01-01", "end": "2025-01-02"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-01-01"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-07-03", "moon": "include"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-07-02", "moon": "include"},
            {"start": "2024-01-01", "end": "2024-02-01", "targets": "mutual"},
            {"start": "2024-01-01", "end": "2024-02-01", "targets": "mutual", "lat": 1, "lon": 1},
            {"start": "2024-01-01", "end": "2024-02-01"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-02-01", "moving": "ceres"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-02-01", "moving": "pholus"},
            {**BIRTH, "start": "2999-06-01", "end": "2999-12-31", "moving": "ceres"},
            {**BIRTH, "start": "2999-06-01", "end": "3000-01-01"},
            {**BIRTH, "start_jd": 2816787.0, "end_jd": 2816787.6},
            {**BIRTH, "start": "2024-01-01", "end": "2024-02-01", "bodies": "sirius"},
            {**BIRTH, "start": "2024-01-01", "end": "2024-02-01", "bodies": "mean_node,chiron"},
            {"jd": 1, "start": "2024-01-01", "end": "2024-02-01"},
            {**BIRTH, "datetime": "1100-01-01", "start": "2024-01-01", "end": "2024-02-01", "bodies": "sun,ceres"},
            {**BIRTH, "start": "1100-01-01", "end": "1100-02-01", "moving": "sun,ceres"},
            {**BIRTH, "start": "2999-12-01", "end": "2999-12-31T23:30:00Z", "moving": "vesta"},
            {"start": "1100-01-01", "end": "1100-02-01", "targets": "mutual", "moving": "sun,juno"},
        )
    ],
    # Time lords: at, a range, each cap, before birth, the starting point and the sect.
    *[
        (path, {**BIRTH, **params})
        for path in TIME_LORDS
        for params in (
            {"at": "2024-01-01"},
            {"at": "1980-01-01"},
            {"at": "1990-06-15T14:30:00Z"},
            {"start": "1980-01-01", "end": "1991-01-01"},
            {"start": "2000-01-01", "end": "1999-01-01"},
            {"start": "2000-01-01", "end": "2000-01-01"},
            {"at": "2024-01-01", "start": "2000-01-01", "end": "2001-01-01"},
            {},
            {"start": "1990-06-15T14:30:00Z", "end": "2110-06-16T14:30:00Z"},
            {"start": "1990-06-15T14:30:00Z", "end": "2200-06-16T14:30:00Z"},
            {"at": "2024-01-01", "bodies": "mars"},
            {"at": "2024-01-01", "bodies": "moon"},
            {"at": "2024-01-01", "bodies": "sun"},
            {"at_jd": 2816787.6},
            {"at": "2999-12-31"},
        )
    ],
    *[
        ("/v1/profections", {**BIRTH, "at": "2024-01-01", **params})
        for params in (
            {"from": "mars"},
            {"from": "mars", "bodies": "sun"},
            {"from": "part_of_fortune", "bodies": "sun"},
            {"from": "nowhere"},
            {"from": "midheaven"},
            {"solar": "true", "bodies": "moon"},
            {"solar": "true"},
            {"year_days": 0},
            {"year_days": 400},
        )
    ],
    *[
        ("/v1/zodiacal-releasing", {**BIRTH, **params})
        for params in (
            {"at": "2024-01-01", "from": "mars"},
            {"at": "2024-01-01", "from": "part_of_fortune", "bodies": "sun"},
            {"at": "2024-01-01", "max_level": 5},
            {"at": "2024-01-01", "max_level": 0},
            {"max_level": 4, "start": "2024-01-01", "end": "2025-01-01T00:00:01Z"},
            {"max_level": 3, "start": "2000-01-01", "end": "2030-01-01"},
        )
    ],
    # An asteroid among a time lord's bodies at a birth outside its ephemeris (1200-01-09 to 3000-01-01).
    *[
        (path, {**BIRTH, "bodies": "sun,moon,ceres", **params})
        for path in TIME_LORDS
        for params in (
            {"datetime": "1100-01-01", "at": "1150-01-01"},
            {"datetime": "1200-01-09", "at": "1250-01-01"},
            {"jd": 2159358.4, "at": "1250-01-01"},
        )
    ],
    *[
        ("/v1/firdaria", {**BIRTH, "at": "2024-01-01", **params})
        for params in (
            {"day_chart": "auto", "bodies": "moon"},
            {"day_chart": "true", "bodies": "moon"},
            {"night_order": "nodes_after_mars"},
            {"year_days": 0},
        )
    ],
    # The small endpoints: each refused value of their RPC comments.
    *[
        ("/v1/ayanamsha", {**MOMENT, "system": system})
        for system in ("all", "lahiri", "0", "46", "47", "-1", "01", "nonsense", "")
    ],
    *[
        ("/v1/stars", {**MOMENT, "star": star})
        for star in ("all", "sirius", ",alCMa", "alCMa", "no-such-star", "", " ")
    ],
    *[
        ("/v1/void-of-course", {**MOMENT, **params})
        for params in ({"bodies": "sun,mars"}, {"bodies": "moon"}, {"orb": 0}, {"aspects": "nonsense"})
    ],
    *[
        ("/v1/midpoints", {**MOMENT, **params})
        for params in (
            {"lots": "fortune"},
            {"lots": "fortune", "lat": 1, "lon": 1},
            {"modulus": 0},
            {"modulus": 360},
            {"modulus": 360.0001},
            {"trees": "true", "tree_orb": 0},
            {"trees": "true", "tree_orb": -1},
            {"heliocentric": "true"},
            {"sidereal": "lahiri", "lots": "fortune", "lat": 1, "lon": 1, "system": "gauquelin"},
        )
    ],
    *[
        ("/v1/patterns", {**MOMENT, **params})
        for params in (
            {"stellium_scope": "house"},
            {"stellium_scope": "house", "lat": 1, "lon": 1},
            {"stellium_min": 1},
            {"stellium_min": 11},
            {"patterns": "kite", "aspects": "trine"},
        )
    ],
    *[
        ("/v1/lots", {**BIRTH, **params})
        for params in ({"lots": "nonsense"}, {"heliocentric": "true"}, {"system": "gauquelin"}, {"lat": 90})
    ],
    *[
        ("/v1/planetary-hours", {**MOMENT, **place})
        for place in (
            {"lat": 80, "lon": 0},
            {"lat": -80, "lon": 0},
            {"lat": 66.5, "lon": 0, "datetime": "2024-06-21"},
            {"lat": 0, "lon": 0},
        )
    ],
    *[("/v1/sidereal-time", {**MOMENT, **params}) for params in ({"lon": 180}, {"lon": 180.1}, {"lat": 10})],
    *[
        ("/v1/dignities", {**MOMENT, **params})
        for params in ({"day_chart": "true", "dispositors": "true"}, {"rulership": "modern", "bodies": "all"})
    ],
    # Astrocartography: each form, the line cap, cusp values, the systems.
    *[
        ("/v1/astrocartography", {**MOMENT, **params})
        for params in (
            {"bodies": "sun", "targets": '[{"body": "sun", "angles": ["mc"]}]'},
            {"targets": '[{"body": "planets", "angles": ["mc"]}]'},
            {"targets": '[{"body": "sun", "cusps": [13]}]'},
            {"targets": '[{"body": "sun", "cusps": [1, 12.99]}]'},
            {"angles": "nonsense"},
            {"bodies": "all"},
            {"bodies": "planets", "system": "gauquelin"},
            {"bodies": "sun", "system": "whole_sign", "targets": None},
            {"targets": '[{"body": "sun", "cusps": [2]}]', "system": "whole_sign"},
            {"targets": '[{"body": "sun", "cusps": [2]}]', "system": "equal"},
            {"targets": '[{"body": "sun", "cusps": [2]}]', "system": "gauquelin"},
            {"latitude_step": 0.4},
            {"max_latitude": 90},
            {"sidereal": "lahiri"},
            {"mode": "mundane", "targets": '[{"body": "sun", "cusps": [2]}]'},
            {"format": "geojson", "bodies": "pholus"},
        )
    ],
]


@pytest.mark.parametrize("path, params", BOUNDARY_CORPUS, ids=lambda value: value if isinstance(value, str) else None)
def test_every_boundary_case_of_every_endpoint_is_refused_by_the_gateway_first(client, refusals, path, params):
    refusals.clear()
    sent = {name: value for name, value in params.items() if value is not None}
    checked(client.get(path, params=sent), ("GET", path, sent))
    assert not refusals, refused_by_the_service(refusals)
