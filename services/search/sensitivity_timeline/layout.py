"""The sensitivity timeline laid out: where every header line, tick, row, interval and label
goes, in pixels, apart from how they are drawn (``drawing.py`` writes the SVG).

The picture is laid out at NOMINAL_WIDTH pixels and scaled to the request's ``size``. Below the
header, the time axis: the birth's label, then a tick at every round clock time (every
``tick_minutes``) with the local clock time of the birth's zone above the UTC time. Then one
row per fact under a heading per group (the angles, each body, the Moon's Vedic facts, the
profection), each row divided into the intervals over which its value holds. An interval's
label is the first of its candidates (a glyph, the value in full, its abbreviations) that fits
inside it with a margin; an interval too narrow for any has none (its ``<title>`` still names
the value). A row whose value never changes in the window is ``steady`` (drawn quietly).

Text widths are estimated, not measured: TEXT_EM em a character (Noto Sans' widest letters are
about 0.7 em, its average 0.55 em), so a label judged to fit does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.runtime.sensitivity_inputs import (
    AXIS_HEIGHT,
    GROUP_HEIGHT,
    HEADER_HEIGHT,
    NOMINAL_WIDTH,
    ROW_HEIGHT,
    timeline_height,
)

#: The margins left, right and above, nominal pixels.
MARGIN = 20.0
#: Font sizes (nominal pixels): the title, the header's lines, the axis' labels, a group's
#: heading, a row's label, an interval's text; the glyphs' side.
TITLE_FONT, LINE_FONT, AXIS_FONT, GROUP_FONT, ROW_FONT, VALUE_FONT, GLYPH_SIDE = (
    19.0,
    14.0,
    12.0,
    13.0,
    12.0,
    12.0,
    15.0,
)
#: The estimated width of a character, em (see the module's docstring); bold a little wider.
TEXT_EM, BOLD_EM = 0.6, 0.64
#: The space kept free either side of an interval's label, nominal pixels.
LABEL_PAD = 3.0
#: An interval's rectangle is inset this much from its row's top and bottom, nominal pixels.
ROW_INSET = 2.5
#: The share of the width the row labels may take at most.
LABEL_COLUMN_SHARE = 0.3
#: The clock steps a tick may be set at, minutes, and the least distance between two ticks,
#: nominal pixels (a label "14:05" is some 36 wide).
TICK_STEPS = (5, 10, 15, 20, 30, 60, 120, 180, 240, 360)
TICK_SPACING = 64.0
#: A tick this near the birth (nominal pixels) shows no labels: the birth's own times stand there.
BIRTH_CLEARANCE = 44.0
#: A row label's indent under its group's heading, nominal pixels.
INDENT = 12.0
MINUTES_PER_DAY = 1440.0


@dataclass(frozen=True)
class Label:
    """A candidate label of an interval: a ``text``, or with ``glyph`` the name of a glyph
    (shared/pictures/glyph_outlines.json)."""

    text: str
    glyph: bool = False


@dataclass(frozen=True)
class Segment:
    """An interval of birth times (UT1 JD ``start_jd`` to ``end_jd``) over which a fact holds
    ``value`` (None: no aspect): its ``title`` (the value and times in words), its candidate
    ``labels`` (best first) and its ``tone`` (how the drawing colours it: ``element:<0-11>``,
    ``aspect:<name>`` or ``text``)."""

    start_jd: float
    end_jd: float
    value: str | None
    title: str
    labels: tuple[Label, ...]
    tone: str = "text"


@dataclass(frozen=True)
class Row:
    """One fact: its name (``fact``), its label and its intervals in time order."""

    fact: str
    label: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Group:
    """A group of facts under a heading: the angles, a body, the Moon's Vedic facts, the profection."""

    key: str
    label: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Tick:
    """A tick of the axis at UT1 JD ``jd``: its local clock time (None without a zone) and its UTC time."""

    jd: float
    local: str | None
    utc: str


@dataclass(frozen=True)
class Timeline:
    """What the picture shows, in words: the ``header`` lines (the first the title), the
    window (``start_jd`` to ``end_jd``), the birth, its mark's label and clock times, the axis' row labels
    (``local_label`` None without a zone), the ticks, the groups of facts and the instants at
    which any fact changes."""

    header: tuple[str, ...]
    start_jd: float
    end_jd: float
    birth_jd: float
    birth_label: str
    birth_tick: Tick
    local_label: str | None
    utc_label: str
    ticks: tuple[Tick, ...]
    groups: tuple[Group, ...]
    changes: tuple[float, ...]


@dataclass(frozen=True)
class TextBox:
    """A line of text: its anchor point (pixels; ``anchor`` start, middle or end; ``y`` its
    baseline's centre line), font size and weight, and ``tone`` (text, faint, birth)."""

    x: float
    y: float
    text: str
    font: float
    anchor: str = "start"
    bold: bool = False
    tone: str = "text"


@dataclass(frozen=True)
class MarkBox:
    """An interval's label placed: its centre (pixels), its text or glyph name and its size
    (the font size, or a glyph's side)."""

    x: float
    y: float
    text: str
    glyph: bool
    size: float


@dataclass(frozen=True)
class IntervalBox:
    """An interval placed: from ``x0`` to ``x1`` (pixels), its segment, its ``shade`` (0 or 1,
    alternating along a changing row) and its label (None when none fits)."""

    x0: float
    x1: float
    segment: Segment
    shade: int
    mark: MarkBox | None


@dataclass(frozen=True)
class RowBox:
    """A fact's row placed: ``y`` its top and ``height`` (pixels), its label, whether its value
    holds over the whole window (``steady``) and its intervals."""

    fact: str
    label: TextBox
    y: float
    height: float
    inset: float
    steady: bool
    intervals: tuple[IntervalBox, ...]


@dataclass(frozen=True)
class GroupBox:
    """A group's heading placed: ``y`` the top of its heading row, its label and its rows."""

    key: str
    y: float
    label: TextBox
    rows: tuple[RowBox, ...]


@dataclass(frozen=True)
class TickBox:
    """A tick placed: its UT1 JD, ``x`` and its labels (None: too near the birth's, or without a zone),
    ``birth`` for the birth's own."""

    jd: float
    x: float
    local: TextBox | None
    utc: TextBox | None
    birth: bool = False


@dataclass(frozen=True)
class TimelineLayout:
    """The whole picture placed: its ``width`` and ``height``, the header's lines, the plot's
    left and right (``x0``, ``x1``), its top and bottom (``y0`` the first group's top, ``y1``
    the last row's bottom), the axis' labels, the ticks, the birth (UT1 JD ``birth_jd``), its ``birth_x`` and label,
    each change's rule (its UT1 JD and x) and the groups."""

    width: int
    height: int
    scale: float
    header: tuple[TextBox, ...]
    x0: float
    x1: float
    axis_y: float
    y0: float
    y1: float
    axis_labels: tuple[TextBox, ...]
    ticks: tuple[TickBox, ...]
    birth_jd: float
    birth_x: float
    birth_label: TextBox
    rules: tuple[tuple[float, float], ...]
    groups: tuple[GroupBox, ...]


def text_width(text: str, font: float, bold: bool = False) -> float:
    """Return the estimated width (pixels) of ``text`` at ``font`` pixels."""
    return len(text) * font * (BOLD_EM if bold else TEXT_EM)


def tick_minutes(size: int, window_days: float) -> int:
    """Return the clock step of the ticks (minutes) of a window ``window_days`` either side of
    the birth on a picture ``size`` pixels wide: the least of TICK_STEPS keeping ticks
    TICK_SPACING nominal pixels apart on a plot of (an estimated) three quarters of the width."""
    plot = 0.75 * NOMINAL_WIDTH
    window_minutes = 2.0 * window_days * MINUTES_PER_DAY
    for step in TICK_STEPS:
        if plot * step / window_minutes >= TICK_SPACING:
            return step
    return TICK_STEPS[-1]


def timeline_layout(timeline: Timeline, size: int) -> TimelineLayout:
    """Return where everything of ``timeline`` goes on a picture ``size`` pixels wide."""
    s = size / NOMINAL_WIDTH
    rows = sum(len(group.rows) for group in timeline.groups)
    height = timeline_height(size, rows, len(timeline.groups))
    header = _header(timeline.header, s)
    labels = [(group.label, GROUP_FONT, True, 0.0) for group in timeline.groups] + [
        (row.label, ROW_FONT, False, INDENT) for group in timeline.groups for row in group.rows
    ]
    labels += [(text, AXIS_FONT, True, 0.0) for text in (timeline.local_label, timeline.utc_label) if text]
    column = max(indent + text_width(text, font, bold) for text, font, bold, indent in labels) + 2 * LABEL_PAD
    column = min(column, LABEL_COLUMN_SHARE * NOMINAL_WIDTH)
    x0, x1 = (MARGIN + column + LABEL_PAD) * s, size - MARGIN * s
    span = timeline.end_jd - timeline.start_jd

    def x_of(jd: float) -> float:
        return x0 + (x1 - x0) * (jd - timeline.start_jd) / span

    axis_y = HEADER_HEIGHT * s
    birth_x = x_of(timeline.birth_jd)
    birth_label = TextBox(birth_x, axis_y + 10 * s, timeline.birth_label, AXIS_FONT * s, "middle", True, "birth")
    local_y, utc_y = axis_y + 29 * s, axis_y + 47 * s
    axis_labels = []
    if timeline.local_label:
        axis_labels.append(_fitted(MARGIN * s, local_y, timeline.local_label, AXIS_FONT, True, column, s))
    axis_labels.append(
        _fitted(MARGIN * s, utc_y if timeline.local_label else local_y, timeline.utc_label, AXIS_FONT, True, column, s)
    )
    ticks = [_tick(tick, x_of(tick.jd), local_y, utc_y, s) for tick in timeline.ticks]
    # A tick whose labels the birth's would touch shows none: the birth's own stand there.
    ticks = [
        TickBox(tick.jd, tick.x, None, None) if abs(tick.x - birth_x) < BIRTH_CLEARANCE * s else tick for tick in ticks
    ]
    ticks.append(_tick(timeline.birth_tick, birth_x, local_y, utc_y, s, birth=True))
    y = (HEADER_HEIGHT + AXIS_HEIGHT) * s
    groups = []
    for group in timeline.groups:
        heading = _fitted(MARGIN * s, y + GROUP_HEIGHT * s * 0.55, group.label, GROUP_FONT, True, column, s)
        top, y = y, y + GROUP_HEIGHT * s
        placed = []
        for row in group.rows:
            placed.append(_row(row, y, s, x_of, column, birth_x))
            y += ROW_HEIGHT * s
        groups.append(GroupBox(group.key, top, heading, tuple(placed)))
    return TimelineLayout(
        width=size,
        height=height,
        scale=s,
        header=header,
        x0=x0,
        x1=x1,
        axis_y=axis_y,
        y0=(HEADER_HEIGHT + AXIS_HEIGHT) * s,
        y1=y,
        axis_labels=tuple(axis_labels),
        ticks=tuple(ticks),
        birth_jd=timeline.birth_jd,
        birth_x=birth_x,
        birth_label=birth_label,
        rules=tuple((jd, x_of(jd)) for jd in timeline.changes),
        groups=tuple(groups),
    )


def _tick(tick: Tick, x: float, local_y: float, utc_y: float, s: float, birth: bool = False) -> TickBox:
    """Return a tick placed at ``x``: its local time above its UTC time (faint), or its UTC
    time alone on the upper line without a zone; the birth's bold in its colour."""
    tone = "birth" if birth else "text"
    local = TextBox(x, local_y, tick.local, AXIS_FONT * s, "middle", birth, tone) if tick.local is not None else None
    utc_tone = tone if birth or tick.local is None else "faint"
    utc = TextBox(x, utc_y if tick.local is not None else local_y, tick.utc, AXIS_FONT * s, "middle", birth, utc_tone)
    return TickBox(tick.jd, x, local, utc, birth)


def _header(lines: Sequence[str], s: float) -> tuple[TextBox, ...]:
    boxes = [TextBox(MARGIN * s, (MARGIN + 12) * s, lines[0], TITLE_FONT * s, bold=True)]
    boxes += [
        TextBox(MARGIN * s, (MARGIN + 12 + 24 * (i + 1)) * s, line, LINE_FONT * s) for i, line in enumerate(lines[1:])
    ]
    return tuple(boxes)


def _fitted(
    x: float, y: float, text: str, font: float, bold: bool, column: float, s: float, indent: float = 0.0
) -> TextBox:
    """Return a label of the label column at ``x`` (plus ``indent``), its font made smaller
    when its text would not fit in the ``column`` (nominal pixels)."""
    room = column - indent - 2 * LABEL_PAD
    width = text_width(text, font, bold)
    fitted = font if width <= room else font * room / width
    return TextBox(x + indent * s, y, text, fitted * s, bold=bold)


def _row(row: Row, y: float, s: float, x_of: Callable[[float], float], column: float, birth_x: float) -> RowBox:
    steady = len(row.segments) == 1
    centre = y + ROW_HEIGHT * s / 2
    # A changing row's label is bold, a steady one's faint: the changing rows stand out.
    label = _fitted(MARGIN * s, centre, row.label, ROW_FONT, not steady, column, s, INDENT)
    label = TextBox(label.x, label.y, label.text, label.font, bold=not steady, tone="faint" if steady else "text")
    intervals = []
    for index, segment in enumerate(row.segments):
        x0, x1 = x_of(segment.start_jd), x_of(segment.end_jd)
        intervals.append(IntervalBox(x0, x1, segment, index % 2, _mark(segment, x0, x1, centre, birth_x, s)))
    return RowBox(row.fact, label, y, ROW_HEIGHT * s, ROW_INSET * s, steady, tuple(intervals))


def _mark(segment: Segment, x0: float, x1: float, y: float, birth_x: float, s: float) -> MarkBox | None:
    """Return the first of the segment's labels that fits between ``x0`` and ``x1`` with a
    margin, centred there, at height ``y``; None when none fits. A label the birth's line would
    cross is centred instead on the wider side of the interval around the birth when it fits there."""
    pad = LABEL_PAD * s
    for label in segment.labels:
        width = GLYPH_SIDE * s if label.glyph else text_width(label.text, VALUE_FONT * s)
        if width + 2 * pad > x1 - x0:
            continue
        x = (x0 + x1) / 2
        if abs(x - birth_x) < width / 2 + 2 * pad:
            left, right = (x0, birth_x), (birth_x, x1)
            side = max(left, right, key=lambda part: part[1] - part[0])
            if width + 4 * pad <= side[1] - side[0]:
                x = (side[0] + side[1]) / 2
        return MarkBox(x, y, label.text, label.glyph, (GLYPH_SIDE if label.glyph else VALUE_FONT) * s)
    return None
