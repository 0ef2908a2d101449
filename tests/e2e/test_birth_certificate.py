"""Issue 27 on real processes: a natal chart from a birth certificate's fields alone (a town's
name, a local date and clock time) equals the chart from the UTC instant and coordinates
converted by hand; finding the town and its zone costs nothing."""

from __future__ import annotations

import json

#: The certificate: born in London on 6 June 1944 at 08:00 by the clock. That summer Britain
#: kept British Double Summer Time, UTC+2 (tz database, europe: "GB-Eire 1944 Apr 2 - Sep 17
#: 2:00s 2:00 BDST"), so by hand the instant is 06:00 UTC.
TOWN, LOCAL_TIME, UTC_BY_HAND = "london", "1944-06-06T08:00:00", "1944-06-06T06:00:00Z"
#: GeoNames' point for London (geonames.org/2643743), typed by hand.
LONDON = {"lat": 51.50853, "lon": -0.12574}


def test_a_natal_chart_from_a_certificates_town_and_local_time_equals_the_hand_converted_one(stack):
    name, key = stack.new_key(credits=10)
    with stack.client(key) as client:
        found = client.get("/v1/places", params={"q": TOWN, "country": "GB", "limit": 1})
        assert found.status_code == 200, found.text
        town = found.json()["data"]["places"][0]
        zone = client.get(
            "/v1/timezone", params={"datetime": LOCAL_TIME, "tz": "auto", "lat": town["lat"], "lon": town["lon"]}
        )
        from_certificate = client.get("/v1/natal-chart", params={"datetime": LOCAL_TIME, "place": town["id"]})
        by_hand = client.get("/v1/natal-chart", params={"datetime": UTC_BY_HAND, **LONDON})
    assert (town["name"], town["tz"]) == ("London", "Europe/London")
    assert (zone.json()["data"]["abbreviation"], zone.json()["data"]["utc_offset_seconds"]) == ("BDST", 7200)
    assert from_certificate.status_code == 200, from_certificate.text
    assert from_certificate.json()["data"] == by_hand.json()["data"]
    reading = from_certificate.json()["meta"]["moment"]["datetime"]
    assert (reading["abbreviation"], reading["utc"]) == ("BDST", "1944-06-06T06:00:00.000Z")
    # The town and its zone were free: two natal charts (2 credits each) were all that was paid.
    assert json.loads(stack.admin("account", "show", name, "--json").stdout)["balance"] == 10 - 2 * 2
