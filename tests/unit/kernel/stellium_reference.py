"""stellium (a test-only dependency: requirements-dev.txt) as the independent reference of the
secondary progressions and the solar-arc and Naibod directions (kernel/progressions.py,
kernel/directions.py).

stellium sets Swiss Ephemeris's ephemeris path (a module global of the C library) and, unless
told where, copies its own files into ``~/.stellium``, so it runs in a child process (``python
-m tests.unit.kernel.stellium_reference``) pointed by ``STELLIUM_EPHE_PATH`` at our
``data/ephe``: both sides read the same files. The child reads one JSON request on stdin and
writes one JSON answer on stdout.

stellium's conventions, read from its code (stellium 0.22.0): ``utils/progressions.py``
``calculate_progressed_datetime`` takes the whole days of ``target - natal`` (``timedelta.days``,
truncated) over 365.25 as the progressed days; ``calculate_years_elapsed`` the same whole days
over 365.25 as the years (Naibod's); ``NAIBOD_RATE_DEGREES_PER_YEAR`` is 59.1333′ a year
(59′08″). ``core/native.py`` ``build_chart_datetime`` reads a UTC clock as UT (``swe.julday``,
no DUT1). ``engines/ephemeris.py`` computes with ``FLG_SWIEPH | FLG_SPEED``: apparent
geocentric tropical positions of date, the node the true one (``True Node``). Births and
targets are sent as UTC-aware datetimes, so no zone (nor a summer-time change between birth
and the progressed day) enters.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EPHE = ROOT / "data" / "ephe"
#: stellium's names of the points compared, by ours.
NAMES = {
    "sun": "Sun",
    "moon": "Moon",
    "mercury": "Mercury",
    "venus": "Venus",
    "mars": "Mars",
    "jupiter": "Jupiter",
    "saturn": "Saturn",
    "uranus": "Uranus",
    "neptune": "Neptune",
    "pluto": "Pluto",
    "true_node": "True Node",
    "chiron": "Chiron",
    "ascendant": "ASC",
    "midheaven": "MC",
}


def reference(request: dict) -> dict:
    """Return stellium's answer to ``request`` (see :func:`_answer`), computed in a child process."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.unit.kernel.stellium_reference"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "STELLIUM_EPHE_PATH": str(EPHE)},
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _longitudes(chart) -> dict[str, float]:
    by_name = {p.name: p.longitude for p in chart.positions}
    return {ours: by_name[theirs] for ours, theirs in NAMES.items()}


def _answer(request: dict) -> dict:
    """Answer ``{cases: [{birth: ISO UTC, lat, lon, target: ISO UTC}]}``: for each case the natal
    chart's Julian Day (UT) and longitudes (degrees, of :data:`NAMES`), the progressed chart's
    (angle_method ``quotidian``: its own angles), the solar arc (``calculate_solar_arc`` of the
    two Suns, and the arc ``ComparisonBuilder.progression`` applied with angle_method
    ``solar_arc``), the Naibod arc it applied with angle_method ``naibod``, and the directed
    ASC and MC of each method. And for each of ``dated: [{birth, lat, lon, targets: [ISO UTC]}]``
    its natal chart's Julian Day and longitudes, and at each target the longitudes of
    ``ComparisonBuilder.arc_direction`` (arc_type ``solar_arc``: every natal point plus the arc)
    and of the progressed chart."""
    from stellium import ChartBuilder, Native
    from stellium.core.comparison import ComparisonBuilder
    from stellium.utils.progressions import calculate_solar_arc

    answers = []
    for case in request["cases"]:
        birth = dt.datetime.fromisoformat(case["birth"])
        target = dt.datetime.fromisoformat(case["target"])
        natal = ChartBuilder.from_native(Native(birth, (case["lat"], case["lon"]))).calculate()
        by_method = {
            method: ComparisonBuilder.progression(natal, target_date=target, angle_method=method)._chart2
            for method in ("quotidian", "solar_arc", "naibod")
        }
        natal_at = _longitudes(natal)
        progressed_at = _longitudes(by_method["quotidian"])
        answers.append(
            {
                "natal_jd": natal.datetime.julian_day,
                "natal": natal_at,
                "progressed_jd": by_method["quotidian"].datetime.julian_day,
                "progressed": progressed_at,
                "solar_arc": calculate_solar_arc(natal_at["sun"], progressed_at["sun"]),
                "solar_arc_applied": by_method["solar_arc"].metadata["angle_arc"],
                "naibod_arc": by_method["naibod"].metadata["angle_arc"],
                "directed": {
                    method: {k: _longitudes(by_method[method])[k] for k in ("ascendant", "midheaven")}
                    for method in ("solar_arc", "naibod")
                },
            }
        )
    dated = []
    for case in request.get("dated", []):
        birth = dt.datetime.fromisoformat(case["birth"])
        natal = ChartBuilder.from_native(Native(birth, (case["lat"], case["lon"]))).calculate()
        at = []
        for target in map(dt.datetime.fromisoformat, case["targets"]):
            directed = ComparisonBuilder.arc_direction(natal, target_date=target, arc_type="solar_arc")._chart2
            progressed = ComparisonBuilder.progression(natal, target_date=target, angle_method="quotidian")._chart2
            at.append({"directed": _longitudes(directed), "progressed": _longitudes(progressed)})
        dated.append({"natal_jd": natal.datetime.julian_day, "natal": _longitudes(natal), "at": at})
    return {"cases": answers, "dated": dated}


if __name__ == "__main__":
    print(json.dumps(_answer(json.loads(sys.stdin.read()))))
