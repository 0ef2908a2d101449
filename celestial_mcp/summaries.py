"""The summaries of the curated MCP tools' results: one or two sentences a model can answer
from, before the data it may read for detail. Each summary is a function of the result's
``data``, its ``meta`` and the tool's arguments, returning plain text."""

from __future__ import annotations

from datetime import date, datetime, timedelta
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
        score = data.get("compatibility")
        if score:
            text += (
                f" Compatibility ({score['method']}): {score['score']} points, {score['category'].replace('_', ' ')}, "
                f"from {len(score.get('parts', ()))} parts."
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


#: Each cause of docs/explain-difference.md in words, by kind and value ("{value}": the value).
CAUSE_WORDS: dict[str, dict[str, str]] = {
    "dst": {"not_applied": "the clock read without the summer hour", "applied": "a summer hour the zone did not keep"},
    "am_pm": {"pm": "the morning hour read as the evening's", "am": "the evening hour read as the morning's"},
    "date": {"+1": "the date a day later", "-1": "the date a day earlier"},
    "local_mean_time": {"": "the clock read as local mean time (UTC{value})"},
    "time_offset": {"": "the clock read at UTC{value}"},
    "longitude_sign": {"": "the longitude's sign reversed ({value})"},
    "latitude_sign": {"": "the latitude's sign reversed ({value})"},
    "coordinates_swapped": {"": "latitude and longitude swapped"},
    "house_system": {"": "{value} houses"},
    "zodiac": {"tropical": "the tropical zodiac", "": "the sidereal zodiac of {value}"},
    "node": {"": "the mean and true node swapped"},
    "topocentric": {"true": "topocentric positions", "false": "geocentric positions"},
    "true_positions": {"": "geometric (true) positions"},
    "delta_t": {"": "ΔT taken as 0"},
    "year_length": {"": "dasha years of {value}"},
}


def cause_words(cause: dict[str, Any]) -> str:
    """Return a cause in words with its kind and value (``the date a day later (date=+1)``)."""
    kind, value = cause.get("kind", ""), str(cause.get("value", ""))
    words = CAUSE_WORDS.get(kind, {})
    said = words.get(value, words.get("", "{kind}")).format(value=value, kind=kind)
    return f"{said} ({kind}={value})"


def request_words(request: dict[str, Any]) -> str:
    """Return an explanation's corrected request as natal_chart arguments (``datetime=...,
    lat=...``); topocentric, which the tool takes in extra, as ``extra.topocentric``."""
    said = []
    for name, value in request.items():
        if name == "topocentric":
            if value:
                said.append("extra.topocentric=true")
        elif isinstance(value, list):
            said.append(f"{name}=[{', '.join(map(str, value))}]")
        else:
            said.append(f"{name}={value}")
    return ", ".join(said)


def angle_words(arcsec: float) -> str:
    """Return an angle given in arcseconds in the unit that reads best (11.5″, 12.3′, 70.86°)."""
    size = abs(arcsec)
    if size < 60:
        return f"{size:g}″"
    return f"{size / 60:.1f}′" if size < 3600 else f"{size / 3600:.2f}°"


def _residual_share(residual: dict[str, Any], data: Any) -> float:
    """Return how far one residual lies outside our number, as a share of its tolerance: an
    angle over ``tolerance_arcsec``, a date over ``tolerance_seconds``, an unmatched nakshatra
    or house as infinitely far (the API ranks them the same way, docs/explain-difference.md)."""
    if "arcsec" in residual:
        return abs(residual["arcsec"]) / data.get("tolerance_arcsec", 60.0)
    if "seconds" in residual:
        return abs(residual["seconds"]) / data.get("tolerance_seconds", 21600.0)
    return 0.0 if residual.get("matched") else float("inf")


def _residual_words(residual: dict[str, Any]) -> str:
    """Return one residual in words: an angle or a time off, or a nakshatra or house not matched."""
    if "arcsec" in residual:
        return f"{angle_words(residual['arcsec'])} off"
    if "seconds" in residual:
        return f"{abs(residual['seconds']) / 3600:.1f} h off"
    return "matched" if residual.get("matched") else "not matched"


def _within_words(top: dict[str, Any], data: Any) -> str:
    """Return how close the best reading comes: its largest angle when the numbers include
    longitudes, else its score over the tolerances (1 = at the tolerance)."""
    if "residual_arcsec" in top:
        tolerance = f"{data.get('tolerance_arcsec', 60.0):g}″"
        return f"every number within {angle_words(top['residual_arcsec'])} (tolerance {tolerance})"
    return f"every number within its tolerance (score {top.get('residual_score', 0):.2f} of 1)"


def explanation_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    """Return the best reading of the other program's numbers: its causes in words, how close it
    comes, and the natal_chart request that gives those numbers from us; or that nothing we
    know explains them, with the closest reading and its worst number."""
    explanations = data.get("explanations") or []
    tolerance = f"{data.get('tolerance_arcsec', 60.0):g}″"
    if not explanations:
        return with_moments("No reading to compare.", meta)
    top = explanations[0]
    because = " and ".join(cause_words(cause) for cause in top.get("causes", ())) or "the birth as sent"
    request = request_words(top.get("request", {}))
    within = _within_words(top, data)
    if not data.get("explained"):
        worst = max(top.get("residuals", ()), key=lambda r: _residual_share(r, data), default=None)
        off = f", {worst['point']} {_residual_words(worst)}" if worst else ""
        text = (
            f"Nothing we know explains their numbers. The closest reading, {because}{off} (tolerance "
            f"{tolerance} for angles), is natal_chart with {request}: check their numbers and the birth data."
        )
    elif not top.get("causes"):
        text = f"No difference to explain: the birth as sent gives their numbers, {within}."
    else:
        others = len(explanations) - 1
        text = (
            f"Explained: their numbers come from {because}, {within}. natal_chart with {request} gives their "
            "numbers (datetime in UTC)."
        )
        if others:
            text += f" {others} other reading(s) explain them too, in data.explanations (best first)."
    return with_moments(text, meta)


def _fact_rank(fact: str) -> int:
    """Return where a sensitivity's fact comes in its summary: the angles first, then the
    signs and the Moon's Vedic facts, the houses, and the aspects to the angles last."""
    if fact.startswith(("asc_", "mc_")):
        return 0
    if fact.endswith("_sign") or fact.startswith("moon_") or fact.endswith("_lord"):
        return 1
    return 2 if fact.endswith("_house") else 3


#: The most characters a sensitivity summary gives to the changing facts' values and times; the
#: rest are named, their times in data.changes.
SENSITIVITY_SUMMARY_CHARS = 6_000


def sensitivity_regroup(data: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Return a sensitivity's data with the facts that hold over the whole window as
    ``holds_throughout`` ({fact: value}), ``facts`` the others (each with its interval around
    the birth), and its changes (the list that pages)."""
    facts = data.get("facts", ())
    throughout = {f["fact"]: f["value"] for f in facts if f["holds_from"] is None and f["holds_until"] is None}
    kept = {key: value for key, value in data.items() if key not in ("facts", "changes")}
    changing = [f for f in facts if f["fact"] not in throughout]
    return {**kept, "holds_throughout": throughout, "facts": changing, "changes": []}, list(data.get("changes", ()))


def _clock(meta: dict[str, Any]) -> tuple[int, str]:
    """Return the UTC offset (seconds) and the zone's words of the birth's local time, or UTC's."""
    reading = (meta.get("moment") or {}).get("datetime")
    if not reading:
        return 0, "UTC"
    offset = reading["utc_offset_seconds"]
    hours, rest = divmod(abs(offset), 3600)
    sign = "+" if offset >= 0 else "-"
    return offset, f"{reading['tz']}, {reading['abbreviation']}, UTC{sign}{hours:02d}:{rest // 60:02d}"


def _local(instant: dict[str, Any], offset: int) -> datetime:
    """Return an instant's clock time at ``offset`` seconds from UTC, to the nearest second."""
    utc = datetime.fromisoformat(instant["datetime"].replace("Z", "+00:00"))
    return (utc + timedelta(seconds=offset, milliseconds=500)).replace(microsecond=0, tzinfo=None)


def _clock_words(instant: dict[str, Any], offset: int, day: date) -> str:
    """Return an instant's clock time (``10:25:36``), with its date when it is not ``day``."""
    local = _local(instant, offset)
    return local.strftime("%H:%M:%S" if local.date() == day else "%Y-%m-%d %H:%M:%S")


def sensitivity_summary(data: Any, meta: dict[str, Any], arguments: dict[str, Any]) -> str:
    """Return the window of birth times on the birth's clock, the facts that hold over all of it,
    and each other fact's values with the clock times at which it changes (the angles first)."""
    offset, zone = _clock(meta)
    birth_day = _local(data["birth"], offset).date()

    def clock(instant: dict[str, Any]) -> str:
        return _clock_words(instant, offset, birth_day)

    throughout = data.get("holds_throughout", {})
    changes = data.get("changes", ())
    timelines: dict[str, list[str]] = {}
    for change in changes:
        for fact in change["facts"]:
            line = timelines.setdefault(fact["fact"], [fact["before"] or "none"])
            line.append(f"{fact['after'] or 'none'} from {clock(change['instant'])}")
    same = ", ".join(f"{fact} {value or 'none'}" for fact, value in throughout.items())
    text = (
        f"Birth times {clock(data['start'])} to {clock(data['end'])} ({zone}; on {birth_day.isoformat()}), "
        f"the chart as cast at {clock(data['birth'])}. The same for every birth time in it ({len(throughout)}): "
        f"{same or 'nothing'}. Changing ({len(timelines)} facts, at {len(changes)} birth times):"
    )
    said, unsaid, used = [], [], 0
    order = {f["fact"]: index for index, f in enumerate(data.get("facts", ()))}
    for fact in sorted(timelines, key=lambda name: (_fact_rank(name), order.get(name, len(order)))):
        line = f" {fact} {', '.join(timelines[fact])};"
        if used + len(line) > SENSITIVITY_SUMMARY_CHARS:
            unsaid.append(fact)
            continue
        said.append(line)
        used += len(line)
    text += "".join(said)
    if unsaid:
        text += f" also {', '.join(unsaid)} (their times in data.changes);"
    return with_moments(text.rstrip(";") + ". Each change's instant (UTC) and values in data.changes.", meta)
