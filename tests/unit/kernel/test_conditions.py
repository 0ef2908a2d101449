"""kernel/conditions.py: an engine condition is one of the spec's warning kinds (interface.md, Chart
object ``warnings``: high_latitude, ephemeris_fallback, low_precision, sidereal_not_configured)
and renders as ``{kind, message}``."""

from __future__ import annotations

import dataclasses

import pytest

from kernel.conditions import CONDITION_KINDS, Condition

# The spec's list, typed from interface.md rather than read from the module.
SPEC_KINDS = {"high_latitude", "ephemeris_fallback", "low_precision", "sidereal_not_configured"}


def test_the_condition_kinds_are_the_specs_warning_kinds():
    assert set(CONDITION_KINDS) == SPEC_KINDS and len(CONDITION_KINDS) == len(SPEC_KINDS)


@pytest.mark.parametrize("kind", ["", "High_Latitude", "high latitude", "warning", "out_of_range"])
def test_a_kind_outside_the_spec_is_refused_when_the_condition_is_made(kind):
    with pytest.raises(ValueError, match="unknown condition kind"):
        Condition(kind, "anything")


@pytest.mark.parametrize("kind", sorted(SPEC_KINDS))
def test_a_condition_renders_as_its_kind_and_message(kind):
    message = f"Houses fell back ({kind})."
    assert Condition(kind, message).as_dict() == {"kind": kind, "message": message}


def test_a_condition_cannot_be_changed_once_made():
    condition = Condition("low_precision", "Moshier's analytic ephemeris was used.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        condition.kind = "high_latitude"  # type: ignore[misc]
