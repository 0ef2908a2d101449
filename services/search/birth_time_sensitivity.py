"""/v1/natal-chart/sensitivity: what an uncertain birth time changes in a chart
(:mod:`kernel.birth_time_sensitivity`), as JSON, drawn as a timeline
(services/search/sensitivity_timeline), or as JSON with that timeline beside it (svg=true), as
/v1/chart-wheel's format=json has its wheel."""

from __future__ import annotations

import hashlib

from celestial.v1 import search_service_pb2 as pb
from kernel.birth_time_sensitivity import SensitivityQuery, birth_time_sensitivity
from kernel.deadline import Deadline
from services.search.sensitivity_timeline.picture import TimelineBirth, timeline_svg
from shared.pictures.png import render_png
from shared.pictures.themes import THEMES
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming_moment
from shared.runtime.wire import birth_from, fill_instant, read_moment, sent_moment_name, town_from

# The palettes give the request's theme its meaning.
bound_to_choices(THEMES, "shared.pictures.themes.THEMES", (pb.FindBirthTimeSensitivityRequest, "theme"))


def compute(request: pb.FindBirthTimeSensitivityRequest, deadline: Deadline) -> pb.FindBirthTimeSensitivityResponse:
    """Return the birth, the window, each fact with the birth times over which it holds and
    every change of the chart inside the window (with svg=true the timeline's SVG beside
    them), or with format svg or png its timeline."""
    read = request.query
    moment, place = birth_from(request)
    query = SensitivityQuery(
        birth_jd=moment.jd_ut1,
        place=place,
        letter=read.system.letter,
        bodies=read.bodies,
        flags=read.flags,
        aspect_types=read.aspect_types,
        orb_deg=read.orb_deg,
        window_days=read.window_days,
        vedic_ayanamsha=read.vedic_ayanamsha,
        at_jd=read.at_jd,
    )
    with naming_moment(sent_moment_name(request, "birth.moment")):
        found = birth_time_sensitivity(query, deadline)
    warnings = [c.message for c in found.warnings]
    svg: str | None = None
    if read.picture is not None:
        town = ""
        if request.birth.HasField("place"):
            found_town = town_from(request, request.birth.place, "place")
            town = f"{found_town.name}, {found_town.country}"
        birth = TimelineBirth(
            jd=moment.jd_ut1,
            reading=read_moment(request, "birth.moment")[1],
            town=town,
            latitude=place.latitude_deg,
            longitude=place.longitude_deg,
            window_hours=request.window_hours,
            sidereal=read.flags.sidereal.name if read.flags.sidereal is not None else None,
            system=read.system,
            vedic_ayanamsha=read.vedic_ayanamsha.name,
            bodies=read.bodies,
        )
        svg, (width, height) = timeline_svg(found, birth, read.picture)
        if request.format == "png":
            answer = pb.BirthTimeSensitivityAnswer(png=render_png(svg, width, height))
            return pb.FindBirthTimeSensitivityResponse(data=answer, warnings=warnings)
        if request.format == "svg":
            return pb.FindBirthTimeSensitivityResponse(data=pb.BirthTimeSensitivityAnswer(svg=svg), warnings=warnings)
    data = pb.BirthTimeSensitivityData(ayanamsha=read.vedic_ayanamsha.name)
    fill_instant(data.birth, moment.jd_ut1)
    fill_instant(data.start, found.start_jd)
    fill_instant(data.end, found.end_jd)
    for span in found.facts:
        record = data.facts.add(fact=span.fact)
        if span.value is not None:
            record.value = span.value
        if span.holds_from is not None:
            fill_instant(record.holds_from, span.holds_from)
        if span.holds_until is not None:
            fill_instant(record.holds_until, span.holds_until)
    for change in found.changes:
        record = data.changes.add()
        fill_instant(record.instant, change.jd)
        for fact in change.facts:
            item = record.facts.add(fact=fact.fact)
            if fact.before is not None:
                item.before = fact.before
            if fact.after is not None:
                item.after = fact.after
    if svg is not None:
        data.svg = svg
        data.sha256 = hashlib.sha256(svg.encode()).hexdigest()
    return pb.FindBirthTimeSensitivityResponse(data=pb.BirthTimeSensitivityAnswer(json=data), warnings=warnings)
