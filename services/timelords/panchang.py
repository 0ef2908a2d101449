"""/v1/vedic/panchang: vara, tithi, nakshatra, yoga and karana of a day or at an instant."""

from __future__ import annotations

from celestial.v1 import vedic_pb2 as pb
from kernel.deadline import Deadline
from kernel.errors import PolarDayOrNight
from kernel.panchang import SUNRISES, Limb, panchang
from kernel.positions import ayanamsha_value
from kernel.timescale import written_offset_s
from services.timelords.vedic_chart import POSITIONS
from shared.runtime.closed_sets import bound_to_choices
from shared.runtime.kernel_errors import naming, naming_moment
from shared.runtime.wire import fill_instant, moment_from, read_moment, required_place, sent_moment_name

bound_to_choices(SUNRISES, "kernel.panchang.SUNRISES", (pb.ComputePanchangRequest, "sunrise"))

SUNRISE = "sunrise"


def compute(request: pb.ComputePanchangRequest, deadline: Deadline) -> pb.ComputePanchangResponse:
    """Return the panchang container: the conventions, the day's sunrise and sunset, the vara and the four limbs."""
    ayanamsha = request.query
    moment = moment_from(request, "moment")
    place = required_place(request, "location")
    where = (place.latitude_deg, place.longitude_deg, place.altitude_m)
    # Inside the polar circles a day may have no sunrise: the place is at fault, named as lat
    # (as /v1/planetary-hours names it).
    with naming("lat", reading=False, also=(PolarDayOrNight,)), naming_moment(sent_moment_name(request, "moment")):
        found = panchang(
            moment.jd_ut1,
            *where,
            ayanamsha,
            sunrise=request.sunrise,
            at_sunrise=request.limbs_at == SUNRISE,
            utc_offset_s=_civil_clock_offset_s(request),
        )
    index, name, lord = found.vara
    conventions = pb.VedicConventions(
        ayanamsha=ayanamsha.name,
        ayanamsha_id=ayanamsha.id,
        ayanamsha_deg=ayanamsha_value(moment, ayanamsha),
        sunrise=request.sunrise,
        positions=POSITIONS,
    )
    data = pb.PanchangData(
        limbs_at=request.limbs_at,
        vara=pb.Vara(index=index, name=name, lord=lord),
    )
    for field, jd_ut1 in (
        ("moment", found.jd),
        ("sunrise", found.sunrise_jd),
        ("sunset", found.sunset_jd),
        ("next_sunrise", found.next_sunrise_jd),
    ):
        fill_instant(getattr(data, field), jd_ut1)
    for field in ("tithi", "nakshatra", "yoga", "karana"):
        _fill_limb(getattr(data, field), getattr(found, field))
    return pb.ComputePanchangResponse(data=data, conventions=conventions)


def _civil_clock_offset_s(request: pb.ComputePanchangRequest) -> float | None:
    """Return the offset (seconds east of UTC) of the clock whose dates name the day: the zone's
    for a local datetime (tz, or the place's zone), the written offset for a datetime with one
    (UTC for Z or none), None (local mean time at the place) for a jd."""
    _moment, local = read_moment(request, "moment")
    if local is not None:
        return local.utc_offset_s
    if request.moment.WhichOneof("value") == "datetime":
        return written_offset_s(request.moment.datetime)
    return None


def _fill_limb(record: pb.PanchangLimb, limb: Limb) -> None:
    """Fill a limb's record: its index, name and span, and a tithi's paksha, a nakshatra's pada and lord."""
    record.index, record.name = limb.index, limb.name
    fill_instant(record.start, limb.start_jd)
    fill_instant(record.end, limb.end_jd)
    for name in ("paksha", "pada", "lord"):
        value = getattr(limb, name)
        if value is not None:
            setattr(record, name, value)
