"""What a flattened parameter says about the group it belongs to: the chart options every
chart request shares are described once, in their guide, and each of them links it; a
group that only gathers parameters for the wire (the aspect selection) says nothing; any
other group (a birth's moment, its place, a range's start) gives its own comment."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from google.protobuf.descriptor import FieldDescriptor

#: The guide describing the chart options once (docs/chart-options.md, served as a guide).
CHART_OPTIONS_GUIDE = "/docs/guides/chart-options"
#: The messages whose fields are the chart options.
CHART_OPTION_MESSAGES = frozenset({"celestial.v1.ChartOptions", "celestial.v1.ChartRequestOptions"})
#: Messages that only gather parameters for the wire: their fields' own comments say it all.
WIRE_ONLY_MESSAGES = frozenset({"celestial.v1.AspectSelection"})
#: The line each chart option begins with.
CHART_OPTION_LEAD = f"A [chart option]({CHART_OPTIONS_GUIDE})."


def group_lead(holders: Sequence[FieldDescriptor], comments: Mapping[str, str]) -> str:
    """Return what a parameter flattened through ``holders`` (outermost first) says of its
    group before its own text: :data:`CHART_OPTION_LEAD` for a chart option, nothing for
    a wire-only group, else the innermost holder's comment ("" without holders)."""
    if any(holder.message_type.full_name in CHART_OPTION_MESSAGES for holder in holders):
        return CHART_OPTION_LEAD
    if not holders or holders[-1].message_type.full_name in WIRE_ONLY_MESSAGES:
        return ""
    return comments.get(holders[-1].full_name, "")
