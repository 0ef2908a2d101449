"""The summaries of the curated MCP tools' results: one or two sentences a model can answer
from, before the data it may read for detail. Each summary is a function of the result's
``data``, its ``meta`` and the tool's arguments, returning plain text."""

from __future__ import annotations

from typing import Any

SIGNS = (
    "Aries",
    "Taurus",
    "Gemini",
    "Cancer",
    "Leo",
    "Virgo",
    "Libra",
    "Scorpio",
    "Sagittarius",
    "Capricorn",
    "Aquarius",
    "Pisces",
)


def zodiac(longitude: float) -> str:
    """Return an ecliptic longitude as degrees and minutes of its sign (111.03 -> 21°01′ Cancer)."""
    minutes = round((longitude % 30) * 60)
    sign = int(longitude // 30) % 12
    if minutes == 30 * 60:
        minutes, sign = 0, (sign + 1) % 12
    return f"{minutes // 60}°{minutes % 60:02d}′ {SIGNS[sign]}"


def moments(meta: dict[str, Any]) -> str:
    """Return how the API read each local time (meta.moment), e.g. "datetime 1985-07-13T14:05:00
    Europe/Paris (CEST, UTC+02:00) = 1985-07-13T12:05:00.000Z"; empty when all were UTC."""
    said = []
    for name, reading in (meta.get("moment") or {}).items():
        offset = reading["utc_offset_seconds"]
        sign = "+" if offset >= 0 else "-"
        hours, rest = divmod(abs(offset), 3600)
        said.append(
            f"{name} {reading['local']} {reading['tz']} ({reading['abbreviation']}, "
            f"UTC{sign}{hours:02d}:{rest // 60:02d}) = {reading['utc']}"
        )
    return "; ".join(said)


def with_moments(text: str, meta: dict[str, Any]) -> str:
    read = moments(meta)
    return f"{text} Local times read as: {read}." if read else text


def chart_line(chart: dict[str, Any]) -> str:
    """Return a chart's moment, place, Sun, Moon and angles in one sentence."""
    metadata = chart.get("metadata", {})
    placements = {row["body"]: row for row in chart.get("positions", ())}
    parts = [
        f"{body.capitalize()} {zodiac(placements[body]['longitude'])}" for body in ("sun", "moon") if body in placements
    ]
    houses = chart.get("houses") or {}
    parts += [
        f"{angle.capitalize()} {zodiac(houses[angle])}"
        for angle in ("ascendant", "midheaven")
        if houses.get(angle) is not None
    ]
    location = metadata.get("location") or {}
    where = f" at {location['latitude']:.2f}, {location['longitude']:.2f}" if location else ""
    return (
        f"{metadata.get('datetime_iso', '?')} UTC{where}, {metadata.get('house_system', '')} houses: "
        f"{', '.join(parts)}; {len(chart.get('aspects', ()))} aspects"
    )


def chart_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    if "chart_a" in data:
        text = (
            f"Synastry. A: {chart_line(data['chart_a'])}. B: {chart_line(data['chart_b'])}. "
            f"{len(data.get('inter_aspects', ()))} aspects between them."
        )
    elif "charts" in data:
        text = (
            f"{len(data['charts'])} return chart(s); the first: {chart_line(data['charts'][0])}."
            if data["charts"]
            else "No return found."
        )
    else:
        text = f"{data.get('chart_type', 'natal').capitalize()} chart for {chart_line(data)}."
    return with_moments(text, meta)


def positions_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    rows = data.get("positions", ())
    listed = ", ".join(
        f"{row['body']} {zodiac(row['longitude'])}{' R' if row.get('retrograde') else ''}" for row in rows[:12]
    )
    return with_moments(f"{len(rows)} positions (tropical unless sidereal): {listed}.", meta)


def places_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    towns = data.get("places", ())
    if not towns:
        return f"No town named {arguments.get('q')!r}: try another spelling or drop country."
    found = "; ".join(
        f"{t['name']} ({t['country']}, {t['tz']}, pop. {t['population']}): id {t['id']}" for t in towns[:5]
    )
    return f"{len(towns)} town(s): {found}. Pass the id as place (or its lat, lon and tz where a tool has no place)."


def timezone_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    offset = data["utc_offset_seconds"] / 3600
    return (
        f"{data['tz']} ({data['abbreviation']}, UTC{offset:+g}, DST {'on' if data['dst'] else 'off'}): local "
        f"{data['local']} = {data['utc']} UTC."
    )


def wheel_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    return with_moments(
        f"A {arguments.get('kind', 'natal')} chart wheel, PNG {data['size']} px, in the image content.", meta
    )


def transits_regroup(data: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Return a transit scan's data with its events counted by moving body and pair
    (``by_moving``: {"saturn": {"events": 7, "pairs": {"square sun": 2}}}), and the events."""
    by_moving: dict[str, dict[str, Any]] = {}
    for event in data.get("events", ()):
        group = by_moving.setdefault(event["moving"], {"events": 0, "pairs": {}})
        group["events"] += 1
        pair = f"{event['aspect']} {event['target']}"
        group["pairs"][pair] = group["pairs"].get(pair, 0) + 1
    kept = {key: value for key, value in data.items() if key not in ("events", "points")}
    return {**kept, "by_moving": by_moving, "events": []}, list(data.get("events", ()))


def transits_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    groups = data["by_moving"]
    total = sum(group["events"] for group in groups.values())
    pairs = sum(len(group["pairs"]) for group in groups.values())
    counts = ", ".join(f"{body} {group['events']}" for body, group in groups.items())
    return with_moments(
        f"{total} transit windows in {pairs} pairs (moving aspect target), by moving body: {counts}. "
        "by_moving counts every pair; events lists the windows in order of entry, a page at a time "
        "(narrow with moving, aspects or a shorter range).",
        meta,
    )


def sky_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    events = data.get("events", ())
    counts: dict[str, int] = {}
    for event in events:
        counts[event["kind"]] = counts.get(event["kind"], 0) + 1
    said = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    return with_moments(
        f"{len(events)} sky events ({said}), in order; each has a one-line summary and a stable id, "
        "in the forecast's event shape (point and natal_house null).",
        meta,
    )


def forecast_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    """Return how many events of each kind the forecast holds, whose moves and in which order
    (the tool's defaults read into ``arguments``), and, when the API has more pages, the
    page_token of the next."""
    events = data.get("events", ())
    counts: dict[str, int] = {}
    for event in events:
        counts[event["kind"]] = counts.get(event["kind"], 0) + 1
    said = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    moving = arguments.get("moving")
    whose = f" of {', '.join(moving)} moving" if moving else ""
    if arguments.get("rank") == "significance":
        order = (
            "most significant first (slow movers' exact contacts to the angles and luminaries, then to the other "
            "natal points, eclipses on natal points, stations, ...; each class in time order)"
        )
    else:
        order = "in time order"
    text = (
        f"{len(events)} forecast events{whose} ({said}), {order}; each has a one-line summary and a stable id "
        "(moving=[] for every body; narrow with kinds or bodies)."
    )
    if data.get("next_page_token"):
        text += f" More events follow: call again with page_token={data['next_page_token']}."
    return with_moments(text, meta)


def time_lords_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    periods = data.get("periods", ())
    lords = ", ".join(
        f"level {p.get('level', 1)} {p.get('lord') or p.get('ruler') or p.get('sign', '')}" for p in periods[:4]
    )
    return with_moments(
        f"{arguments.get('kind', 'profections')}: {len(periods)} period(s){': ' + lords if lords else ''}.", meta
    )


def vedic_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    conventions = meta.get("conventions", {})
    said = ", ".join(f"{k} {v}" for k, v in conventions.items() if k in ("ayanamsha", "node", "houses", "year_length"))
    if arguments.get("kind") == "match":
        kootas = ", ".join(f"{k.get('name')} {k.get('score', 0):g}/{k.get('max', 0):g}" for k in data.get("kootas", ()))
        manglik = "; ".join(
            f"{side.upper()} ({data.get(side, {}).get('role')}) "
            f"{'manglik' if data.get(side, {}).get('manglik', {}).get('manglik') else 'not manglik'}"
            for side in ("a", "b")
        )
        text = (
            f"Ashtakoota {data.get('total', 0):g}/36 ({said}): {kootas}. {manglik}; each koota's reason in data.kootas."
        )
    elif arguments.get("kind") == "ashtakavarga":
        signs = " ".join(str(s.get("bindus", 0)) for s in data.get("sarvashtakavarga", ()))
        text = (
            f"Sarvashtakavarga ({said}), Aries to Pisces: {signs}; {data.get('sarvashtakavarga_total', 0)} in all. "
            "Each graha's bindus and their contributors in data.bhinnashtakavargas."
        )
    elif arguments.get("kind") == "panchang":
        limbs = "; ".join(
            f"{name} {data.get(name, {}).get('name')}" for name in ("tithi", "nakshatra", "yoga", "karana")
        )
        text = (
            f"Panchang ({said}, sunrise {conventions.get('sunrise')}): {data.get('vara', {}).get('name')}; {limbs}; "
            "ends in data (UTC)."
        )
    elif arguments.get("kind") == "dasha":
        periods = data.get("periods", ())
        lords = " / ".join(p.get("lord", "") for p in periods[:3])
        balance = data.get("balance", {})
        text = (
            f"Vimshottari: {len(periods)} period(s){': ' + lords if lords else ''}; at birth {balance.get('lord')} "
            f"with {balance.get('years', 0):.2f} years left ({said})."
        )
    else:
        moon = next((p for p in data.get("points", ()) if p.get("body") == "moon"), {})
        lagna = next((p for p in data.get("points", ()) if p.get("body") == "lagna"), {})
        text = (
            f"Sidereal chart ({said}): lagna {lagna.get('sign')}, Moon {moon.get('sign')} in "
            f"{moon.get('nakshatra', {}).get('name')} pada {moon.get('nakshatra', {}).get('pada')}; vargas under "
            "data.vargas."
        )
    return with_moments(text, meta)


def eclipses_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    eclipses = data.get("eclipses", ())
    said = "; ".join(f"{e['eclipse_type']} at {e['maximum']['datetime']}" for e in eclipses[:5])
    return with_moments(f"{len(eclipses)} {arguments.get('kind', 'solar')} eclipse(s), maximum in UTC: {said}.", meta)


def astrocartography_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    lines = data.get("lines", ())
    return with_moments(
        f"{len(lines)} lines (body x angle), each as segments of (latitude, longitude) points; "
        "narrow with bodies or angles; extra.latitude_step (default here 5) sets the spacing.",
        meta,
    )


def hours_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    return with_moments(
        f"Day ruler {data.get('day_ruler')}; the moment falls in planetary hour {data.get('current_hour')} of 24 "
        "(hours[] in UTC).",
        meta,
    )
