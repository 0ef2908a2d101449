"""/v1/transits (interface.md, its section and Transit scan result), rule by rule through the API."""

from __future__ import annotations

import pytest

from tests.api.test_conventions_api import assert_error, balance

PATH = "/v1/transits"
BIRTH = {"datetime": "1990-06-15T14:30:00Z"}
YEAR = {"start": "2024-01-01T00:00:00Z", "end": "2024-12-31T00:00:00Z"}
WEEK = {"start": "2024-03-01T00:00:00Z", "end": "2024-03-08T00:00:00Z"}
SUN_TO_PLUTO = ["sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]


def scan(api, **params) -> dict:
    response = api.get(PATH, params=params)
    assert response.status_code == 200, response.text
    assert response.json()["meta"]["credits_used"] == 5
    return response.json()


def test_a_natal_scan_reports_its_configuration_points_and_windows(api):
    body = scan(api, **BIRTH, **YEAR, lat=51.5, lon=-0.13)
    data = body["data"]
    assert data["targets"] == "natal" and data["moving"] == SUN_TO_PLUTO
    assert data["aspects"] == ["conjunction", "sextile", "square", "trine", "opposition"] and data["orb"] == 1.0
    assert [p["body"] for p in data["points"]][-2:] == ["ascendant", "midheaven"]
    event = data["events"][0]
    assert set(event) == {"moving", "aspect", "target", "enter", "exacts", "leave", "clamped_start", "clamped_end"}
    for event in data["events"]:
        assert event["enter"]["jd"] <= event["leave"]["jd"]
        assert all(event["enter"]["jd"] <= x["jd"] <= event["leave"]["jd"] for x in event["exacts"])


def test_events_are_ordered_by_enter_then_moving_then_target(api):
    data = scan(api, **BIRTH, **YEAR)["data"]
    targets = [p["body"] for p in data["points"]]
    keys = [(e["enter"]["jd"], data["moving"].index(e["moving"]), targets.index(e["target"])) for e in data["events"]]
    assert keys == sorted(keys)


def test_moon_returns_only_keeps_the_lunar_return_on_long_ranges_and_says_what_it_dropped(api):
    body = scan(api, **BIRTH, **YEAR)
    moon_events = [e for e in body["data"]["events"] if e["moving"] == "moon"]
    assert moon_events and all((e["aspect"], e["target"]) == ("conjunction", "moon") for e in moon_events)
    assert 12 <= len(moon_events) <= 14
    assert any("returns_only" in w and "dropped" in w for w in body["warnings"])


def test_moon_returns_only_scans_the_moon_normally_under_14_days(api):
    body = scan(api, **BIRTH, **WEEK)
    assert {e["target"] for e in body["data"]["events"] if e["moving"] == "moon"} - {"moon"}
    assert "warnings" not in body


def test_moon_exclude_drops_it_and_include_scans_it(api):
    excluded = scan(api, **BIRTH, **WEEK, moon="exclude")["data"]
    assert "moon" not in excluded["moving"] and not [e for e in excluded["events"] if e["moving"] == "moon"]
    included = scan(api, **BIRTH, start="2024-01-01T00:00:00Z", end="2024-03-01T00:00:00Z", moon="include")["data"]
    assert len({e["target"] for e in included["events"] if e["moving"] == "moon"}) > 5


def test_mutual_scans_each_unordered_pair_once_and_lists_no_points(api):
    data = scan(
        api,
        targets="mutual",
        start="2024-01-01T00:00:00Z",
        end="2024-07-01T00:00:00Z",
        moving="sun,mercury,venus,mars,jupiter",
    )["data"]
    assert "points" not in data
    order = data["moving"]
    assert data["events"] and all(order.index(e["moving"]) < order.index(e["target"]) for e in data["events"])


def test_the_range_ends_clamp_the_windows_they_cut(api):
    data = scan(api, **BIRTH, start="2024-01-01T00:00:00Z", end="2024-01-02T00:00:00Z", orb=10, moon="exclude")["data"]
    assert any(e["clamped_start"] and e["enter"] == data["start"] for e in data["events"])
    assert any(e["clamped_end"] and e["leave"] == data["end"] for e in data["events"])


REFUSALS = [
    ({**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2025-01-02T00:00:01Z"}, "range_too_long", "end"),
    (
        {**BIRTH, "start": "2024-01-01T00:00:00Z", "end": "2024-07-03T00:00:00Z", "moon": "include"},
        "range_too_long",
        "end",
    ),
    ({**BIRTH, "start": "2024-01-02T00:00:00Z", "end": "2024-01-01T00:00:00Z"}, "invalid_parameter", "end"),
    ({**BIRTH, **WEEK, "sidereal": "lahiri"}, "invalid_parameter", "sidereal"),
    ({**BIRTH, **WEEK, "heliocentric": "true"}, "invalid_parameter", "heliocentric"),
    ({**BIRTH, **WEEK, "topocentric": "true"}, "invalid_parameter", "topocentric"),
    ({**WEEK}, "missing_parameter", "datetime"),
    ({**BIRTH, **WEEK, "targets": "mutual"}, "invalid_parameter", "datetime"),
    ({**BIRTH, **WEEK, "lat": 51.5}, "missing_parameter", "lon"),
    ({**BIRTH, **WEEK, "moving": "sun,lilith"}, "body_not_eligible", "moving"),
    ({**BIRTH, **WEEK, "moving": "sun,vulcan"}, "body_not_found", "moving"),
    ({**BIRTH, **WEEK, "moving": "sun,pholus"}, "body_not_eligible", "moving"),
    ({**BIRTH, **WEEK, "moving": "sun,aldebaran"}, "body_not_eligible", "moving"),
    ({**BIRTH, **WEEK, "moving": "sun,433"}, "body_not_eligible", "moving"),
    ({**BIRTH, **WEEK, "moving": "asteroids"}, "body_not_eligible", "moving"),
    ({**BIRTH, **WEEK, "orb": 0}, "invalid_parameter", "orb"),
    ({**BIRTH, **WEEK, "orb": 10.5}, "invalid_parameter", "orb"),
    ({**BIRTH, **WEEK, "aspects": "conjunction,parallel"}, "invalid_parameter", "aspects"),
    ({**BIRTH, **WEEK, "moon": "sometimes"}, "invalid_parameter", "moon"),
    ({**BIRTH, **WEEK, "targets": "composite"}, "invalid_parameter", "targets"),
    ({**WEEK, "targets": "mutual", "place": "2996944"}, "invalid_parameter", "place"),
    ({**BIRTH, **WEEK, "range_tz": "Mars/Base"}, "invalid_parameter", "range_tz"),
    ({**WEEK, "targets": "mutual", "range_tz": "auto"}, "missing_parameter", "range_tz"),
    (
        {**BIRTH, "start_jd": 2460371.5, "end": "2024-03-08T00:00:00", "range_tz": "UTC"},
        "conflicting_parameters",
        "range_tz",
    ),
]


@pytest.mark.parametrize(("params", "code", "param"), REFUSALS, ids=[f"{c}-{'-'.join(p)}"[:70] for p, c, _ in REFUSALS])
def test_each_refusal_is_a_400_and_costs_nothing(stack, params, code, param):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        assert_error(client.get(PATH, params=params), 400, code, param)
    assert balance(stack, name) == 10


@pytest.mark.parametrize(
    "window",
    [
        {"start": "1150-01-01T00:00:00Z", "end": "1150-02-01T00:00:00Z"},
        {"start": "1199-12-01T00:00:00Z", "end": "1200-02-01T00:00:00Z"},
        {"start": "0600-01-01T00:00:00Z", "end": "0600-02-01T00:00:00Z"},
    ],
)
def test_a_moving_asteroid_outside_its_ephemeris_is_out_of_range_never_a_500(api, window):
    # The asteroid files cover 1200-01-09 to 2999-12-31 (Chiron's engine limit of 675 CE lies
    # before them); the planets fall back to the Moshier ephemeris and are scanned anywhere.
    for moving in ("sun,ceres", "chiron"):
        error = assert_error(api.get(PATH, params={**BIRTH, **window, "moving": moving}), 400, "out_of_range", "moving")
        assert (
            "1200-01-09" in error["message"]
            and "swisseph" not in error["message"]
            and "restricted" not in error["message"]
        )
    assert api.get(PATH, params={**BIRTH, **window, "moving": "sun,saturn"}).status_code == 200


#: Every moving body /v1/transits scans, and its fifteen aspect types.
EVERY_MOVING = (
    "sun,moon,mercury,venus,mars,jupiter,saturn,uranus,neptune,pluto,mean_node,true_node,chiron,ceres,pallas,juno,vesta"
)
EVERY_ASPECT = (
    "conjunction,opposition,trine,square,sextile,quincunx,semi_sextile,semi_square,sesquiquadrate,quintile,"
    "bi_quintile,septile,bi_septile,tri_septile,quindecile"
)


def test_fifteen_aspect_types_and_every_moving_body_are_accepted(api):
    data = scan(
        api,
        **BIRTH,
        start="2024-01-01T00:00:00Z",
        end="2024-01-15T00:00:00Z",
        aspects=EVERY_ASPECT,
        moving=EVERY_MOVING,
        bodies="all",
        orb=10,
        moon="include",
    )["data"]
    assert len(data["aspects"]) == 15 and len(data["moving"]) == 17 and data["events"]


WIDEST = {
    **BIRTH,
    "start": "2024-01-01T00:00:00Z",
    "end": "2024-07-01T00:00:00Z",
    "orb": 10,
    "moon": "include",
    "bodies": "all",
    "moving": EVERY_MOVING,
    "aspects": EVERY_ASPECT,
}


@pytest.fixture(scope="module")
def hurried_stack(module_stacks):
    """The gateway with a scan deadline of 50 ms, far shorter than the widest scan."""
    return module_stacks.in_process("hurried", {"CELESTIAL_SCAN_DEADLINE_S": "0.05"})


def test_a_scan_past_its_deadline_stops_and_is_504_deadline_exceeded_refunded(hurried_stack):
    name, key = hurried_stack.new_key(credits=10)
    with hurried_stack.client(key) as client:
        assert_error(client.get(PATH, params=WIDEST), 504, "deadline_exceeded")
    assert balance(hurried_stack, name) == 10


# --- the natal points are the natal chart's ------------------------------------------------

# Inside the polar circle: Placidus falls back to Porphyrius, and Campanus would give the IC as Midheaven.
PLACES = [{"lat": 51.5, "lon": -0.13}, {"lat": 75.0, "lon": 120.0}]


@pytest.mark.parametrize("place", PLACES, ids=["london", "polar"])
@pytest.mark.parametrize("bodies", ["planets", "sun,moon,chiron,mean_node,ceres"])
def test_the_natal_points_are_the_natal_charts_bodies_ascendant_and_midheaven(api, place, bodies):
    # Exact: both are the one chart caster's values for the same birth (a transit scan takes
    # no flag, so the chart is the default tropical one).
    points = scan(api, **BIRTH, **WEEK, **place, bodies=bodies)["data"]["points"]
    response = api.get("/v1/natal-chart", params={**BIRTH, **place, "bodies": bodies})
    assert response.status_code == 200, response.text
    chart = response.json()["data"]
    expected = [(p["body"], p["longitude"]) for p in chart["positions"]]
    expected += [("ascendant", chart["houses"]["ascendant"]), ("midheaven", chart["houses"]["midheaven"])]
    assert [(p["body"], p["longitude"]) for p in points] == expected


def test_without_a_place_the_natal_points_are_the_natal_charts_bodies_alone(api):
    points = scan(api, **BIRTH, **WEEK)["data"]["points"]
    response = api.get("/v1/natal-chart", params={**BIRTH, **PLACES[0]})
    assert response.status_code == 200, response.text
    assert [(p["body"], p["longitude"]) for p in points] == [
        (p["body"], p["longitude"]) for p in response.json()["data"]["positions"]
    ]


# Local time first (issue 38, part 5): a birth in Lyon on 13 July 1985 at 14:05, summer time
# (CEST, UTC+2), is 12:05Z; in January Lyon keeps CET, UTC+1.
LYON = "2996944"
LYON_BIRTH = {"datetime": "1985-07-13T14:05:00", "place": LYON}
LOCAL_WEEK = {"start": "2026-01-01T00:00:00", "end": "2026-01-08T00:00:00"}


def test_place_gives_the_natal_place_and_the_zone_its_datetime_is_read_in(api):
    by_town = scan(api, **LYON_BIRTH, **LOCAL_WEEK, bodies="sun")
    assert by_town["meta"]["moment"]["datetime"]["utc"] == "1985-07-13T12:05:00.000Z"
    places = api.get("/v1/places", params={"q": "Lyon", "country": "FR"}).json()["data"]["places"]
    (town,) = [place for place in places if place["id"] == LYON]
    by_hand = scan(
        api,
        datetime="1985-07-13T12:05:00Z",
        lat=town["lat"],
        lon=town["lon"],
        bodies="sun",
        start="2025-12-31T23:00:00Z",
        end="2026-01-07T23:00:00Z",
    )
    assert by_town["data"] == by_hand["data"]


def test_a_range_without_an_offset_is_read_in_the_births_zone_by_default(api):
    moment = scan(api, **LYON_BIRTH, **LOCAL_WEEK, bodies="sun")["meta"]["moment"]
    assert (moment["start"]["utc"], moment["end"]["utc"]) == ("2025-12-31T23:00:00.000Z", "2026-01-07T23:00:00.000Z")


def test_range_tz_reads_the_range_in_its_own_zone_and_leaves_the_birth_alone(api):
    moment = scan(api, **LYON_BIRTH, **LOCAL_WEEK, bodies="sun", range_tz="America/New_York")["meta"]["moment"]
    assert moment["start"]["utc"] == "2026-01-01T05:00:00.000Z"
    assert moment["datetime"]["utc"] == "1985-07-13T12:05:00.000Z"


def test_a_range_given_in_utc_is_never_shifted_by_a_zone(api):
    body = scan(
        api, **LYON_BIRTH, start="2026-01-01T00:00:00Z", end="2026-01-08T00:00:00Z", bodies="sun", range_tz="Asia/Tokyo"
    )
    assert body["data"]["start"]["datetime"] == "2026-01-01T00:00:00.000Z"
    assert "start" not in body["meta"]["moment"]
