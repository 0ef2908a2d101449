"""Where the chart family places its points, and what its extras are built from
(decisions.md, conformance decisions: Gauquelin sectors, Draconic, Dignities, Lots), rule by
rule on every endpoint each rule touches.

References, none produced by the code under test:
- Gauquelin sectors: the response's own 36 cusps (Swiss Ephemeris swe_houses) read by the
  definition of a sector (sectors run with the diurnal motion, against the zodiac: sector k
  spans from cusp k+1 forward to cusp k); for a point on the ecliptic that is exactly where
  Swiss Ephemeris's independent swe_house_pos puts it (tests/unit/kernel/test_chart.py checks the
  kernel against swe_house_pos directly). Houses are integers: compared exactly.
- Draconic patterns: /v1/natal-chart for the same birth, compared exactly.
- Dignities: the spec's rules applied by hand to the records' own flags, and the signs'
  rulers of decisions.md (Dignities) written out here.
- Lots: the same lots computed with every operand listed in ``bodies`` (1e-9 degree: the
  same ephemeris call either way, rounding of the turn or the mean aside).
"""

from __future__ import annotations

import pytest

from tests.api import test_chart_errors_api as chart_errors
from tests.api.test_chart_errors_api import BIRTH, MOMENT, PAIR
from tests.api.test_conventions_api import assert_error

# The chart endpoints of the chart errors' tests, and the composite.
CHART_ENDPOINTS = {**chart_errors.CHART_ENDPOINTS, "/v1/composite": PAIR}
DIGNITY_ENDPOINTS = [path for path in CHART_ENDPOINTS if path != "/v1/draconic"]  # draconic refuses dignities (rule 6)
GAUQUELIN = {"system": "gauquelin"}
# Domicile rulers, Aries to Pisces (decisions.md, Dignities).
TRADITIONAL_RULERS = [
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "saturn",
    "jupiter",
]
MODERN_RULERS = TRADITIONAL_RULERS[:7] + ["pluto", "jupiter", "saturn", "uranus", "neptune"]
SIGNS = [
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
]


def reply(api, path, **params) -> dict:
    response = api.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def charts_of(path, data) -> list[dict]:
    return [data["chart_a"], data["chart_b"]] if path == "/v1/synastry" else [data]


def sector(longitude: float, cusps: list[float]) -> int:
    """The Gauquelin sector holding a point on the ecliptic: sector k from cusp k+1 forward to cusp k."""
    for k in range(len(cusps)):
        start, end = cusps[(k + 1) % len(cusps)], cusps[k]
        if 0.0 < (longitude - start) % 360.0 <= (end - start) % 360.0:
            return k + 1
    raise AssertionError("the sectors cover the ecliptic")


# --- Gauquelin sectors place every point by the sector it stands in ---------------------


@pytest.mark.parametrize("path", list(CHART_ENDPOINTS))
def test_gauquelin_places_derived_points_by_sector(api, path):
    data = reply(api, path, **CHART_ENDPOINTS[path], **GAUQUELIN, derived_points="true", lots="default")["data"]
    for chart in charts_of(path, data):
        cusps = chart["houses"]["cusps"][1:]
        assert len(cusps) == 36
        points = chart["derived_points"]
        assert {p["kind"] for p in points} == {"midpoint", "antiscion", "contra_antiscion", "lot"}
        assert [p["house"] for p in points] == [sector(p["longitude"], cusps) for p in points]
        assert len({p["house"] for p in points}) > 12  # spread over the sectors, not all in sector 1


def test_gauquelin_places_composite_positions_by_sector(api):
    chart = reply(api, "/v1/composite", **PAIR, **GAUQUELIN)["data"]
    cusps = chart["houses"]["cusps"][1:]
    houses = [p["house"] for p in chart["positions"]]
    assert houses == [sector(p["longitude"], cusps) for p in chart["positions"]]
    assert len(set(houses)) > 3


def test_gauquelin_places_lots_by_sector(api):
    lots = reply(api, "/v1/lots", **BIRTH, **GAUQUELIN)["data"]["lots"]
    cusps = reply(api, "/v1/natal-chart", **BIRTH, **GAUQUELIN)["data"]["houses"]["cusps"][1:]
    assert [lot["house"] for lot in lots] == [sector(lot["longitude"], cusps) for lot in lots]
    assert len({lot["house"] for lot in lots}) > 3


def test_gauquelin_places_midpoints_antiscia_and_lots_by_sector_on_midpoints(api):
    points = reply(api, "/v1/midpoints", **BIRTH, **GAUQUELIN, lots="default")["data"]["derived_points"]
    cusps = reply(api, "/v1/natal-chart", **BIRTH, **GAUQUELIN)["data"]["houses"]["cusps"][1:]
    assert {p["kind"] for p in points} == {"midpoint", "antiscion", "contra_antiscion", "lot"}
    assert [p["house"] for p in points] == [sector(p["longitude"], cusps) for p in points]


@pytest.mark.parametrize("path", ["/v1/patterns", "/v1/natal-chart"])
def test_gauquelin_places_house_scope_stelliums_by_sector(api, path):
    # The chart's bodies are in the sectors they stand in (checked against swe_house_pos in
    # tests/unit/kernel/test_chart.py); a stellium by house groups exactly those sectors.
    positions = reply(api, "/v1/natal-chart", **BIRTH, **GAUQUELIN)["data"]["positions"]
    groups: dict[int, list[str]] = {}
    for position in positions:
        groups.setdefault(position["house"], []).append(position["body"])
    expected = sorted(members for members in groups.values() if len(members) >= 2)
    assert expected, "the birth has two bodies in one sector"
    chosen = {"patterns": "stellium"} if path == "/v1/patterns" else {"patterns": "true", "pattern_types": "stellium"}
    found = reply(api, path, **BIRTH, **GAUQUELIN, **chosen, stellium_scope="house", stellium_min=2)["data"]["patterns"]
    assert sorted(p["bodies"] for p in found) == expected


@pytest.mark.parametrize("path", [p for p in CHART_ENDPOINTS if p != "/v1/draconic"])
@pytest.mark.parametrize("flag", ["j2000", "heliocentric"])
def test_gauquelin_sectors_refuse_j2000_and_heliocentric_positions(api, path, flag):
    # A sector is a place in the sky seen from the chart's place at its moment: it needs
    # geocentric positions of date (heliocentric charts list the Earth instead of the Sun).
    params = {
        **CHART_ENDPOINTS[path],
        **GAUQUELIN,
        flag: "true",
        **({"bodies": "earth,mars"} if flag == "heliocentric" else {}),
    }
    assert_error(api.get(path, params=params), 400, "invalid_parameter", "system")


# --- Draconic ------------------------------------------------------------------------------


@pytest.mark.parametrize("scope", ["sign", "house", "conjunction"])
def test_draconic_patterns_are_exactly_the_natal_patterns(api, scope):
    chosen = {"patterns": "true", "stellium_min": 2, "stellium_scope": scope}
    natal = reply(api, "/v1/natal-chart", **BIRTH, **chosen)["data"]["patterns"]
    draconic = reply(api, "/v1/draconic", **BIRTH, **chosen)["data"]["patterns"]
    assert draconic == natal
    assert any(p["pattern"] == "stellium" for p in natal)


def test_draconic_computes_the_node_named_by_node_whether_or_not_it_is_listed(api):
    true_node = reply(api, "/v1/positions", **MOMENT, bodies="true_node")["data"][0]["longitude"]
    chart = reply(api, "/v1/draconic", **BIRTH, node="true_node")["data"]  # planets: mean_node only
    assert chart["metadata"]["source"] == {"type": "draconic", "node_body": "true_node", "node_longitude": true_node}
    listed = reply(api, "/v1/draconic", **BIRTH, node="true_node", bodies="planets,true_node")["data"]
    assert chart["positions"] == [p for p in listed["positions"] if p["body"] != "true_node"]
    assert chart["houses"] == listed["houses"]


def test_draconic_without_any_node_is_no_north_node(api):
    assert_error(api.get("/v1/draconic", params={**BIRTH, "bodies": "sun,moon,mars"}), 400, "no_north_node", "bodies")


def test_draconic_refuses_heliocentric_the_node_has_no_heliocentric_position(api):
    error = assert_error(
        api.get("/v1/draconic", params={**BIRTH, "heliocentric": "true"}), 400, "invalid_parameter", "heliocentric"
    )
    assert "heliocentric" in error["message"]


# --- Dignities -----------------------------------------------------------------------------


def peregrine_by_the_rules(record: dict, rulers: list[str]) -> bool:
    dignified = any(
        record[f]
        for f in ("in_domicile", "in_exaltation", "in_triplicity", "in_term", "in_face", "in_detriment", "in_fall")
    )
    return record["body"] in rulers and not dignified


@pytest.mark.parametrize(("rulership", "rulers"), [("traditional", TRADITIONAL_RULERS), ("modern", MODERN_RULERS)])
def test_peregrine_applies_only_to_a_body_that_rules_a_sign_under_the_rulership_on_dignities(api, rulership, rulers):
    records = reply(api, "/v1/dignities", **MOMENT, bodies="all", rulership=rulership)["data"]["dignities"]
    assert [r["peregrine"] for r in records] == [peregrine_by_the_rules(r, rulers) for r in records]
    # Uranus at 8 Capricorn has no dignity and no debility: peregrine only where it rules a sign.
    uranus = next(r for r in records if r["body"] == "uranus")
    assert uranus["peregrine"] is (rulership == "modern")


@pytest.mark.parametrize("path", DIGNITY_ENDPOINTS)
@pytest.mark.parametrize(("rulership", "rulers"), [("traditional", TRADITIONAL_RULERS), ("modern", MODERN_RULERS)])
def test_peregrine_applies_only_to_a_body_that_rules_a_sign_under_the_rulership_on_charts(api, path, rulership, rulers):
    data = reply(api, path, **CHART_ENDPOINTS[path], dignities="true", rulership=rulership, bodies="all")["data"]
    for chart in charts_of(path, data):
        records = chart["dignities"]
        assert [r["peregrine"] for r in records] == [peregrine_by_the_rules(r, rulers) for r in records]
        assert not any(r["peregrine"] for r in records if r["body"] not in rulers)


@pytest.mark.parametrize(("rulership", "rulers"), [("traditional", TRADITIONAL_RULERS), ("modern", MODERN_RULERS)])
def test_dispositor_chains_are_arrays_of_links_ending_as_the_spec_says(api, rulership, rulers):
    data = reply(api, "/v1/dignities", **MOMENT, dispositors="true", rulership=rulership)["data"]
    sign_of = {r["body"]: r["sign"] for r in data["dignities"]}
    chains = data["dispositors"]["chains"]
    assert [chain[0]["body"] for chain in chains] == list(sign_of)
    for chain in chains:
        assert all(set(link) == {"body", "sign", "dispositor"} for link in chain)
        for link, following in zip(chain, chain[1:]):
            assert link["dispositor"] == following["body"]
        for link in chain:
            assert (link["sign"], link["dispositor"]) == (
                sign_of[link["body"]],
                rulers[SIGNS.index(sign_of[link["body"]])],
            )
        last, bodies = chain[-1], [link["body"] for link in chain]
        ends = [
            last["dispositor"] == last["body"],
            last["dispositor"] in bodies[:-1],
            last["dispositor"] not in sign_of,
        ]
        assert sum(ends) == 1, chain  # final dispositor, cycle, or the ruler is absent
        assert len(set(bodies)) == len(bodies)  # no body twice: a chain stops at the first repeat


def test_a_dispositor_cycle_ends_on_the_link_that_repeats_its_first_body(api):
    # 1990-06-15: the Moon in Pisces goes to Jupiter, Jupiter in Cancer back to the Moon; each
    # chain closes on the link back to its first body.
    chains = reply(api, "/v1/dignities", **MOMENT, dispositors="true", bodies="moon,jupiter")["data"]["dispositors"][
        "chains"
    ]
    assert chains == [
        [
            {"body": "moon", "sign": "pisces", "dispositor": "jupiter"},
            {"body": "jupiter", "sign": "cancer", "dispositor": "moon"},
        ],
        [
            {"body": "jupiter", "sign": "cancer", "dispositor": "moon"},
            {"body": "moon", "sign": "pisces", "dispositor": "jupiter"},
        ],
    ]


# --- Lots compute their own operands --------------------------------------------------------


def lots_of(points: list[dict]) -> list[tuple[str, float]]:
    return [(p["name"], p["longitude"]) for p in points if p["kind"] == "lot"]


def assert_same_lots(found: list[tuple[str, float]], expected: list[tuple[str, float]]) -> None:
    assert [name for name, _ in found] == [name for name, _ in expected] and len(found) == 7
    for (_, a), (_, b) in zip(found, expected):
        assert abs((a - b + 180.0) % 360.0 - 180.0) < 1e-9


def test_lots_compute_their_own_operands_on_lots(api):
    alone = reply(api, "/v1/lots", **BIRTH, bodies="mars")["data"]["lots"]
    listed = reply(api, "/v1/lots", **BIRTH, bodies="all")["data"]["lots"]
    assert alone == listed


def test_lots_compute_their_own_operands_on_midpoints(api):
    alone = lots_of(reply(api, "/v1/midpoints", **BIRTH, bodies="uranus", lots="default")["data"]["derived_points"])
    listed = lots_of(reply(api, "/v1/midpoints", **BIRTH, bodies="planets", lots="default")["data"]["derived_points"])
    assert_same_lots(alone, listed)


@pytest.mark.parametrize("path", list(CHART_ENDPOINTS))
def test_lots_compute_their_own_operands_on_charts(api, path):
    few = "uranus,mean_node" if path == "/v1/draconic" else "uranus"
    asked = {"derived_points": "true", "lots": "default", "dignities": "false"}
    alone = reply(api, path, **CHART_ENDPOINTS[path], **asked, bodies=few)["data"]
    listed = reply(api, path, **CHART_ENDPOINTS[path], **asked, bodies="planets")["data"]
    for chart_alone, chart_listed in zip(charts_of(path, alone), charts_of(path, listed)):
        assert_same_lots(lots_of(chart_alone["derived_points"]), lots_of(chart_listed["derived_points"]))


@pytest.mark.parametrize("path", [p for p in CHART_ENDPOINTS if p != "/v1/draconic"])
def test_lots_need_geocentric_positions_so_heliocentric_lots_are_invalid_parameter(api, path):
    params = {
        **CHART_ENDPOINTS[path],
        "heliocentric": "true",
        "bodies": "earth,mars",
        "derived_points": "true",
        "lots": "fortune",
    }
    assert_error(api.get(path, params=params), 400, "invalid_parameter", "lots")
    assert reply(api, path, **{k: v for k, v in params.items() if k != "lots"})  # without lots the chart is cast


UNUSED_DERIVED_POINT_PARAMETERS = [
    ({"lots": "fortune"}, "lots"),
    ({"midpoints": "false"}, "midpoints"),
    ({"antiscia": "false"}, "antiscia"),
    ({"resolution": "higher"}, "resolution"),
    # Sent with their default values: still sent, still unused.
    ({"midpoints": "true"}, "midpoints"),
    ({"antiscia": "true"}, "antiscia"),
    ({"resolution": "lower"}, "resolution"),
]


@pytest.mark.parametrize(
    ("path", "params", "named"),
    [
        pytest.param(path, params, named, id=f"{path}-{named}-{next(iter(params.values()))}")
        for path in CHART_ENDPOINTS
        for params, named in UNUSED_DERIVED_POINT_PARAMETERS
        # A composite's resolution chooses its positions' arc, so it is always used.
        if not (path == "/v1/composite" and named == "resolution")
    ],
)
def test_derived_point_parameters_sent_without_derived_points_add_a_warning(api, path, params, named):
    body = reply(api, path, **CHART_ENDPOINTS[path], **params)
    assert all(chart["derived_points"] == [] for chart in charts_of(path, body["data"]))
    unused = [w for w in body.get("warnings", []) if "not used" in w]
    assert len(unused) == 1 and named in unused[0]  # synastry's two charts say it once
    used = reply(api, path, **CHART_ENDPOINTS[path], **params, derived_points="true")
    assert not [w for w in used.get("warnings", []) if "not used" in w]
