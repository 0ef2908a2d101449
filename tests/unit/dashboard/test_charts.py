"""gateway/dashboard/charts.py: a server-drawn SVG bar chart, one bar per value, its text
escaped, an image a screen reader names by its title (WAI-ARIA ``role="img"``)."""

from __future__ import annotations

import re

from gateway.dashboard.charts import bar_chart_svg


def test_a_chart_has_one_bar_per_value_and_escapes_its_text():
    svg = bar_chart_svg(["<d1>", "d2"], [0, 4], "credits & more")
    assert svg.count("<rect") == 2 and "credits &amp; more" in svg and "&lt;d1&gt;" in svg
    assert 'role="img"' in svg


def test_bar_heights_are_proportional_to_the_values_with_the_tallest_filling_the_plot():
    # 180 px tall, 24 px under the axis and 16 above the tallest bar: a plot of 140 px.
    svg = bar_chart_svg(["a", "b", "c"], [10, 5, 0], "t")
    heights = [float(h) for h in re.findall(r'<rect[^>]* height="([0-9.]+)"', svg)]
    assert heights == [140.0, 70.0, 0.0]


def test_a_chart_of_zeros_draws_empty_bars_instead_of_dividing_by_zero():
    svg = bar_chart_svg(["a", "b"], [0, 0], "t")
    assert re.findall(r'<rect[^>]* height="([0-9.]+)"', svg) == ["0.0", "0.0"] and "max 0" in svg
