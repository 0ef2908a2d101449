"""Service time of a chart wheel (issue 37) beside kerykeion's chart for the same births, in
the same run.

Ours: the ephemeris service's /v1/chart-wheel handler, in process, for natal charts at
distinct moments (the planets, Placidus, the major aspects, the light theme, 800 px): as an
SVG (cast, layout, drawing) and as a PNG (the same, then resvg's pixels written as 8-bit RGB,
shared/pictures/png.py); and a transit bi-wheel as an SVG (both charts and their cross aspects
cast, layout, drawing); and the PNG in the print theme, written as 8-bit greyscale (issue 51).
Beside each PNG, timed in the same run on the same SVGs: resvg drawing the pixels alone, and
resvg's own PNG (the pixels and its RGBA encoder), with its bytes against ours. kerykeion (a bench-only
dependency) casts the same births and draws its natal wheel as an SVG string (its subject,
chart data with the aspects, and ``ChartDrawer.generate_wheel_only_svg_string``: the wheel
without the aspect grid and tables its full chart adds). Goals (issue 37): a natal SVG in
5 ms or less, a transit bi-wheel SVG in 8 ms or less, an 800 px PNG in 60 ms or less, at least
3x faster than kerykeion. The header (on by default) and the positions-and-cusps table (issue
51): the same natal SVGs drawn bare (``header=false``) and with both (``table=aside``), in
alternate rounds; goal: they add at most 1 ms.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET

import svg2png_py

from bench.figures import record
from bench.natal_chart import births
from celestial.v1 import ephemeris_service_pb2 as pb
from celestial.v1.common_pb2 import Moment, Place
from kernel import engine
from kernel.deadline import Deadline
from services.ephemeris import chart_wheel
from shared.pictures.png import FONT_FAMILY, fonts, render_png
from shared.runtime.config import load_settings
from shared.runtime.validation import validate

#: Births drawn per round; the PNG rounds draw fewer (each is some tens of milliseconds).
SVG_BIRTHS = 60
PNG_BIRTHS = 15
ROUNDS = 3


def _requests(moments, format: str, theme: str = "light", **options) -> list[pb.DrawChartWheelRequest]:
    return [
        validate(
            pb.DrawChartWheelRequest(
                birth=pb.WheelBirth(
                    moment=Moment(datetime=moment.strftime("%Y-%m-%dT%H:%M:%SZ")), location=Place(lat=lat, lon=lon)
                ),
                format=format,
                theme=theme,
                size=800,
                **options,
            )
        )
        for moment, lat, lon in moments
    ]


def _transit_requests(moments) -> list[pb.DrawChartWheelRequest]:
    """Return the SVG requests of transit bi-wheels: each birth's chart inside, and outside the
    sky at the moment of another birth (the births in reverse order), so that no two bi-wheels
    share a chart."""
    return [
        validate(
            pb.DrawChartWheelRequest(
                kind="transit",
                birth=request.birth,
                transit=Moment(datetime=transit.strftime("%Y-%m-%dT%H:%M:%SZ")),
                format="svg",
                size=800,
            )
        )
        for request, (transit, _, _) in zip(_requests(moments, "svg"), reversed(moments))
    ]


def _median(rounds: list[float]) -> float:
    return sorted(rounds)[len(rounds) // 2]


def _timed(work, items) -> tuple[float, float]:
    """Return the median seconds per item of ``work`` over ROUNDS rounds, by the wall clock and
    by this process's CPU time. Every step here runs on one thread (resvg too), so on a quiet
    machine the two agree; on a shared one the CPU time is what the work itself costs."""
    wall, cpu = [], []
    for _ in range(ROUNDS):
        started, started_cpu = time.perf_counter(), time.process_time()
        for item in items:
            work(item)
        wall.append((time.perf_counter() - started) / len(items))
        cpu.append((time.process_time() - started_cpu) / len(items))
    return _median(wall), _median(cpu)


def _ours(requests) -> tuple[float, float]:
    """Return the median seconds per wheel of the service's handler (wall, CPU)."""
    return _timed(lambda request: chart_wheel.compute(request, Deadline.never()), requests)


def _header_and_table_extra(moments) -> tuple[float, float]:
    """Return the median seconds per natal SVG the header and the table add (wall, CPU): the
    wheels drawn with both less the same wheels drawn bare, each pair of rounds one after
    the other so that the machine's load weighs on both alike."""
    bare = _requests(moments, "svg", header=False)
    dressed = _requests(moments, "svg", header=True, table="aside")
    wall, cpu = [], []
    for _ in range(ROUNDS):
        bare_time, dressed_time = _ours(bare), _ours(dressed)
        wall.append(dressed_time[0] - bare_time[0])
        cpu.append(dressed_time[1] - bare_time[1])
    return _median(wall), _median(cpu)


def _svgs(requests) -> list[str]:
    """Return the SVG documents of the PNG requests ``requests``."""
    return [
        chart_wheel.compute(
            validate(pb.DrawChartWheelRequest(birth=r.birth, format="svg", theme=r.theme, size=800, header=r.header)),
            Deadline.never(),
        ).data.svg
        for r in requests
    ]


def _size_of(svg: str) -> tuple[int, int]:
    """Return the width and height in pixels the SVG document ``svg`` declares."""
    root = ET.fromstring(svg)
    return int(float(root.get("width"))), int(float(root.get("height")))


_OPTIONS = svg2png_py.RenderOptions(font_family=FONT_FAMILY)


def _resvg(svg: str) -> bytes:
    """Return resvg's own PNG (8-bit RGBA, its encoder) of ``svg``, drawn as render_png draws it."""
    return svg2png_py.svg_to_png(svg, fonts(), options=_OPTIONS)


def _pixels(svg: str) -> None:
    """Draw the pixels of ``svg`` as render_png does, encoding none."""
    svg2png_py.svg_to_rgba(svg, fonts(), options=_OPTIONS)


def _rasterising(requests) -> tuple[tuple[float, float], tuple[float, float]]:
    """Return the median seconds per wheel (wall, CPU) of resvg drawing the pixels alone, and of
    resvg's own PNG (the pixels and its RGBA encoder), the SVGs drawn beforehand."""
    svgs = _svgs(requests)
    return _timed(_pixels, svgs), _timed(_resvg, svgs)


def _bytes(requests) -> tuple[float, float]:
    """Return the mean bytes of the PNGs of ``requests``: resvg's own, and render_png's."""
    svgs = _svgs(requests)
    return (
        sum(len(_resvg(svg)) for svg in svgs) / len(svgs),
        sum(len(render_png(svg, *_size_of(svg))) for svg in svgs) / len(svgs),
    )


def _kerykeion(moments) -> tuple[float, float] | None:
    """Return the median seconds per natal wheel SVG of kerykeion, cast, aspects and drawing
    (wall, CPU), or None when it is not installed."""
    try:
        from kerykeion import AstrologicalSubjectFactory, ChartDataFactory, ChartDrawer
    except ImportError:
        return None

    def draw(birth) -> None:
        moment, lat, lon = birth
        subject = AstrologicalSubjectFactory.from_birth_data(
            "bench",
            moment.year,
            moment.month,
            moment.day,
            moment.hour,
            moment.minute,
            lng=lon,
            lat=lat,
            tz_str="Etc/UTC",
            online=False,
        )
        ChartDrawer(ChartDataFactory.create_natal_chart_data(subject)).generate_wheel_only_svg_string()

    return _timed(draw, moments)


def _print_references(pixels, resvg, sizes, figure: str) -> None:
    """Print the references of one PNG figure: resvg's pixels alone, resvg's own PNG, and the
    mean bytes of resvg's PNG and of ours (recorded as ``figure``)."""
    print(f"    resvg drawing the pixels alone:  {pixels[0] * 1e3:7.2f} ms  CPU {pixels[1] * 1e3:7.2f} ms")
    print(
        f"    resvg's own RGBA PNG (the pixels, its encoder):  {resvg[0] * 1e3:7.2f} ms  CPU {resvg[1] * 1e3:7.2f} ms;"
        f" bytes: resvg's {sizes[0] / 1e3:6.1f} kB, ours {record(figure, sizes[1] / 1e3):6.1f} kB "
        f"({1 - sizes[1] / sizes[0]:.0%} fewer)"
    )


def main() -> None:
    engine.use_ephemeris_files(load_settings().ephe_path)
    moments = births(SVG_BIRTHS)
    svg = _ours(_requests(moments, "svg"))
    biwheel = _ours(_transit_requests(moments))
    png_requests = _requests(moments[:PNG_BIRTHS], "png")
    png = _ours(png_requests)
    pixels, resvg = _rasterising(png_requests)
    png_bytes = _bytes(png_requests)
    print_requests = _requests(moments[:PNG_BIRTHS], "png", "print")
    print_png = _ours(print_requests)
    print_pixels, print_resvg = _rasterising(print_requests)
    print_bytes = _bytes(print_requests)
    extra = _header_and_table_extra(moments)
    theirs = _kerykeion(moments)
    print(
        f"chart wheel service time (natal, 800 px, median of {ROUNDS} rounds, in process; wall clock, CPU time beside)"
    )
    print(
        f"  ours, SVG ({SVG_BIRTHS} births: cast, layout, drawing): {record('wheel_natal_svg_ms', svg[0] * 1e3):7.2f} "
        f"ms  CPU {svg[1] * 1e3:7.2f} ms  (goal <= 5 ms)"
    )
    print(
        f"  ours, transit bi-wheel SVG ({SVG_BIRTHS} births: both charts, cross aspects, layout, drawing): "
        f"{record('wheel_biwheel_svg_ms', biwheel[0] * 1e3):7.2f} ms  CPU {biwheel[1] * 1e3:7.2f} ms  (goal <= 8 ms)"
    )
    print(
        f"  ours, PNG, 8-bit RGB ({PNG_BIRTHS} births: the SVG, resvg's pixels, encoding):  "
        f"{record('wheel_png_800_ms', png[0] * 1e3):7.2f} ms  CPU {png[1] * 1e3:7.2f} ms  (goal <= 60 ms)"
    )
    _print_references(pixels, resvg, png_bytes, "wheel_png_800_kb")
    print(
        f"  ours, PNG in the print theme, 8-bit greyscale ({PNG_BIRTHS} births):  "
        f"{record('wheel_png_800_print_ms', print_png[0] * 1e3):7.2f} ms  CPU {print_png[1] * 1e3:7.2f} ms"
    )
    _print_references(print_pixels, print_resvg, print_bytes, "wheel_png_800_print_kb")
    print(
        f"  the header and the table aside, added to a natal SVG ({SVG_BIRTHS} births): "
        f"{record('wheel_header_table_extra_ms', extra[0] * 1e3):7.2f} ms  CPU {extra[1] * 1e3:7.2f} ms  (goal <= 1 ms)"
    )
    if theirs is None:
        print("  kerykeion not installed (pip install -r requirements-dev.txt)")
    else:
        print(
            f"  kerykeion, its natal wheel SVG ({SVG_BIRTHS} births):  {theirs[0] * 1e3:7.2f} ms  CPU "
            f"{theirs[1] * 1e3:7.2f} ms  ratio kerykeion/ours "
            f"{record('wheel_kerykeion_over_ours', theirs[0] / svg[0]):5.1f} (CPU {theirs[1] / svg[1]:5.1f})  (goal "
            ">= 3)"
        )


if __name__ == "__main__":
    main()
