"""The generated clients (``make sdk``: openapi-python-client and @hey-api/openapi-ts, both
pinned) built from the real stack's document and calling it: a position, a natal chart, a
transit scan and a batch answered, a 402 and a 429 surfaced as the clients' typed errors."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys

import pytest

from deploy.generate_sdks import served_document
from deploy.local_stack import Stack
from deploy.python_client_package import generate_python
from deploy.typescript_client_package import TYPESCRIPT_COMPILER, generate_typescript
from shared.runtime.config import REPO_ROOT

MOMENT = {"datetime_": "2024-03-20T12:00:00Z"}
TYPESCRIPT_CALLS = REPO_ROOT / "tests" / "e2e" / "sdk_calls.ts"
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "commonjs",
        "moduleResolution": "node",
        "lib": ["ES2022", "DOM", "DOM.Iterable"],
        "strict": True,
        "skipLibCheck": True,
        "outDir": "dist",
        "types": [],
    }
}


@pytest.fixture(scope="module")
def document(stack: Stack, tmp_path_factory):
    path = tmp_path_factory.mktemp("sdk") / "openapi.json"
    path.write_bytes(served_document(stack.base_url))
    return path


@pytest.fixture(scope="module")
def keys(stack: Stack) -> dict[str, str]:
    return {
        "funded": stack.new_key()[1],
        "empty": stack.new_key(credits=0)[1],
        "limited": stack.new_key(rate_per_minute=1)[1],
    }


@pytest.fixture(scope="module")
def celestial_client(document):
    folder = generate_python(document, document.parent / "python")
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("celestial_client")
    finally:
        sys.path.remove(str(folder))
        for name in [
            name for name in sys.modules if name == "celestial_client" or name.startswith("celestial_client.")
        ]:
            del sys.modules[name]


def test_the_python_client_computes_a_position_a_natal_chart_a_transit_scan_and_a_batch(stack, keys, celestial_client):
    from celestial_client.api.batch import post_batch
    from celestial_client.api.ephemeris import get_natal_chart, get_positions
    from celestial_client.api.search import get_transits
    from celestial_client.models import PostBatchBody

    with celestial_client.AuthenticatedClient(base_url=stack.base_url, token=keys["funded"]) as client:
        position = get_positions.sync_detailed(client=client, bodies="sun", **MOMENT)
        chart = get_natal_chart.sync_detailed(client=client, lat=51.5, lon=-0.1, **MOMENT)
        transits = get_transits.sync_detailed(
            client=client, start="2024-03-01T00:00:00Z", end="2024-03-15T00:00:00Z", bodies="mars", **MOMENT
        )
        body = PostBatchBody.from_dict(
            {"requests": [{"endpoint": "/v1/positions", "params": {"datetime": "2024-03-20T12:00:00Z"}}]}
        )
        batch = post_batch.sync_detailed(client=client, body=body)

    assert position.status_code == 200 and position.parsed.data[0].body == "sun"
    assert chart.status_code == 200 and chart.parsed.meta.credits_used == 2
    assert transits.status_code == 200 and transits.parsed.meta.credits_used == 5
    assert batch.status_code == 200 and batch.parsed.data.summary.succeeded == 1


def test_the_python_client_has_one_model_per_shared_type_whichever_answer_carries_it(stack, keys, celestial_client):
    from celestial_client.api.ephemeris import get_natal_chart, get_planetary_hours, get_synastry
    from celestial_client.api.search import get_transits
    from celestial_client.models import Aspect, Chart, Instant, LocalTime, TransitEvent

    birth = {"datetime_": "1990-06-15T14:30:00", "tz": "Europe/London", "lat": 51.5074, "lon": -0.1278}
    with celestial_client.AuthenticatedClient(base_url=stack.base_url, token=keys["funded"]) as client:
        natal = get_natal_chart.sync(client=client, **birth)
        synastry = get_synastry.sync(
            client=client,
            datetime_a="1990-06-15T14:30:00Z",
            lat_a=51.5,
            lon_a=-0.1,
            datetime_b="1992-01-01T08:00:00Z",
            lat_b=48.85,
            lon_b=2.35,
        )
        transits = get_transits.sync(
            client=client, start="2024-03-01T00:00:00Z", end="2024-03-15T00:00:00Z", bodies="mars", **MOMENT
        )
        hours = get_planetary_hours.sync(client=client, lat=51.5, lon=-0.1, **MOMENT)

    assert isinstance(natal.data, Chart) and isinstance(synastry.data.chart_a, Chart)
    assert isinstance(natal.data.aspects[0], Aspect) and isinstance(synastry.data.inter_aspects[0], Aspect)
    assert isinstance(transits.data.events[0], TransitEvent) and isinstance(transits.data.events[0].enter, Instant)
    assert isinstance(hours.data.sunrise, Instant)
    assert isinstance(natal.meta.moment["datetime"], LocalTime) and natal.meta.moment["datetime"].abbreviation == "BST"


def test_the_python_client_parses_astrocartography_in_either_format_into_its_typed_models(
    stack, keys, celestial_client
):
    from celestial_client.api.astrocartography import get_astrocartography
    from celestial_client.models import (
        AngleLineRef,
        AstroMap,
        GeoJsonFeatureCollection,
        GeoJsonLineString,
        GetAstrocartographyFormat,
    )

    request = {**MOMENT, "bodies": "sun", "angles": "midheaven"}
    with celestial_client.AuthenticatedClient(base_url=stack.base_url, token=keys["funded"]) as client:
        lines = get_astrocartography.sync_detailed(client=client, **request)
        features = get_astrocartography.sync_detailed(
            client=client, format_=GetAstrocartographyFormat.GEOJSON, **request
        )

    assert lines.status_code == 200 and isinstance(lines.parsed.data, AstroMap)
    line = lines.parsed.data.lines[0]
    assert isinstance(line.line, AngleLineRef) and line.line.value == "midheaven"
    point = line.segments[0].points[0]
    assert isinstance(point.latitude, float) and isinstance(point.longitude, float)

    assert features.status_code == 200 and isinstance(features.parsed.data, GeoJsonFeatureCollection)
    feature = features.parsed.data.features[0]
    assert isinstance(feature.geometry, GeoJsonLineString)
    # The same line, as [longitude, latitude] pairs: the JSON the API returns, typed.
    assert feature.geometry.coordinates[0] == [point.longitude, point.latitude]
    assert feature.properties.body == "sun" and feature.properties.line.value == "midheaven"


def test_the_python_client_surfaces_402_and_429_as_its_typed_error(stack, keys, celestial_client):
    from celestial_client.api.ephemeris import get_positions
    from celestial_client.models import Error

    with celestial_client.AuthenticatedClient(base_url=stack.base_url, token=keys["empty"]) as client:
        unpaid = get_positions.sync_detailed(client=client, **MOMENT)
    with celestial_client.AuthenticatedClient(base_url=stack.base_url, token=keys["limited"]) as client:
        # One request a minute: of three calls, two fall in one window, whatever the clock.
        limited = next(
            answer
            for answer in (get_positions.sync_detailed(client=client, **MOMENT) for _ in range(3))
            if answer.status_code != 200
        )

    assert unpaid.status_code == 402 and isinstance(unpaid.parsed, Error)
    assert unpaid.parsed.errors[0].code == "insufficient_credits" and unpaid.parsed.errors[0].suggestion
    assert limited.status_code == 429 and isinstance(limited.parsed, Error)
    assert limited.parsed.errors[0].code == "rate_limit_exceeded" and int(limited.headers["Retry-After"]) >= 1


def test_both_python_layers_send_one_request_for_one_call_so_one_idempotency_key_serves_both(celestial_client):
    # Issue 49: the generated functions sent every parameter's default, Celestial none: two
    # query strings for one call, and the second under the same Idempotency-Key was a 409.
    import httpx

    from celestial_client.api.ephemeris import get_natal_chart, get_positions
    from celestial_client.api.search import get_forecast

    sent: list[httpx.Request] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        body = {
            "errors": [{"code": "invalid_parameter", "message": "m", "suggestion": "s"}],
            "meta": {"request_id": "r"},
        }
        return httpx.Response(400, json=body)

    calls = [
        (get_positions, "positions", {"bodies": "sun,moon", "equatorial": True, "lat": 48.85, "lon": 2.35}),
        (get_natal_chart, "natal_chart", {"place": "2988507", "system": "whole_sign", "parallels": False}),
        (get_forecast, "forecast", {"start": "2026-07-01", "end": "2026-08-01", "lat": 1.5, "lon": -2.25}),
    ]
    transport = {"transport": httpx.MockTransport(refuse)}
    api = celestial_client.Celestial(base_url="http://api.invalid", api_key="svc_live_k", httpx_args=transport)
    client = celestial_client.AuthenticatedClient(
        base_url="http://api.invalid", token="svc_live_k", httpx_args=transport
    )
    for module, method, arguments in calls:
        passed = {**MOMENT, **arguments, "idempotency_key": f"key-{method}"}
        module.sync_detailed(client=client, **passed)
        with pytest.raises(celestial_client.InvalidParameter):
            getattr(api, method)(**passed)
        generated, layered = sent[-2:]
        assert str(generated.url) == str(layered.url), method
        assert generated.url.query == layered.url.query and generated.method == layered.method == "GET"
        assert generated.headers["Idempotency-Key"] == layered.headers["Idempotency-Key"] == f"key-{method}"
    # Only what was passed: no default rides along.
    assert sent[0].url.params.multi_items() == [
        ("datetime", "2024-03-20T12:00:00Z"),
        ("bodies", "sun,moon"),
        ("lat", "48.85"),
        ("lon", "2.35"),
        ("equatorial", "true"),
    ]


def test_celestial_refuses_a_missing_or_empty_key_with_authentication_error_before_any_request(celestial_client):
    import httpx

    sent: list[httpx.Request] = []
    transport = {"transport": httpx.MockTransport(lambda request: sent.append(request) or httpx.Response(200))}
    for empty in ("", "   "):
        with pytest.raises(celestial_client.AuthenticationError) as refused:
            celestial_client.Celestial(base_url="http://api.invalid", api_key=empty, httpx_args=transport)
        assert refused.value.code == "invalid_api_key" and refused.value.param == "api_key"
    assert sent == []


@pytest.fixture(scope="module")
def typescript_answers(stack, keys, document) -> dict[str, dict]:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to build the TypeScript client (.ci/run installs them)")
    # The generated functions alone, built as CommonJS beside them (the package is an ES module).
    folder = generate_typescript(document, document.parent / "typescript") / "src" / "generated"
    shutil.copy(TYPESCRIPT_CALLS, folder / "calls.ts")
    (folder / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    (folder / "package.json").write_text('{"type": "commonjs"}')
    compiled = subprocess.run([str(TYPESCRIPT_COMPILER), "-p", str(folder)], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = subprocess.run(
        ["node", str(folder / "dist" / "calls.js"), stack.base_url, keys["funded"], keys["empty"], keys["limited"]],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return {answer["name"]: answer for answer in map(json.loads, ran.stdout.splitlines())}


def test_the_typescript_client_builds_and_computes_a_position_a_natal_chart_a_transit_scan_and_a_batch(
    typescript_answers,
):
    assert (
        typescript_answers["position"]["status"] == 200
        and typescript_answers["position"]["data"]["data"][0]["body"] == "sun"
    )
    assert typescript_answers["natal_chart"]["data"]["meta"]["credits_used"] == 2
    assert typescript_answers["transits"]["data"]["meta"]["credits_used"] == 5
    assert typescript_answers["batch"]["data"]["data"]["summary"] == {"total": 2, "succeeded": 2, "failed": 0}


def test_the_typescript_client_types_astrocartography_in_either_format(typescript_answers):
    # sdk_calls.ts reads these members only after narrowing the answer's union by its typed
    # members ('lines' in data, geometry.type === 'LineString'); tsc --strict compiled it.
    typed = typescript_answers["astrocartography"]
    assert typed["status"] == [200, 200]
    assert typed["line"] == {"kind": "angle", "value": "midheaven"}
    assert typed["firstPosition"] == [typed["firstPoint"]["longitude"], typed["firstPoint"]["latitude"]]


def test_the_typescript_client_surfaces_402_and_429_as_its_typed_error(typescript_answers):
    unpaid, limited = typescript_answers["no_credits"], typescript_answers["rate_limited"]
    assert (
        unpaid["status"] == 402
        and unpaid["error"]["errors"][0]["code"] == "insufficient_credits"
        and "data" not in unpaid
    )
    assert limited["status"] == 429 and limited["error"]["errors"][0]["code"] == "rate_limit_exceeded"
    assert int(limited["retryAfter"]) >= 1
