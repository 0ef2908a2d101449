"""Reader of what an astrocartography request draws: its targets (a body with the angles and
cusp values drawn for it), from the full form's ``targets`` or the flat form's bodies x
angles. Validation runs it in the gateway before any charge (the rule of
ComputeAstrocartographyRequest, `shared/runtime/request_readers.py`): the two forms mixed, an
unknown angle or body, a target naming a group, more than 80 lines and cusps in a house
system without cusp lines are refused there.
Cusp values in [1, 13) are a field option of the request (AstroTarget.cusps)."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from kernel.astrocartography import ANGLES, check_cusp_line_system, parse_angle
from kernel.bodies import resolve_bodies
from shared.errors import ConflictingParameters, InvalidParameter
from shared.runtime.kernel_errors import BODY_ERRORS, naming
from shared.runtime.wire import house_system_from, listed_bodies

# Source: interface.md, Limits.
MAX_LINES = 80
DEFAULT_BODIES = ["planets"]


@dataclass(frozen=True)
class Target:
    """One body with the angles and cusp values to draw for it, in request order."""

    body: str
    angles: tuple[str, ...]
    cusps: tuple[float, ...]


def targets_from(request: Message) -> list[Target]:
    """Return the request's targets: the full form's ``targets``, or the flat form's bodies x
    angles (default the planets x the four angles). Refuses the two forms mixed, unknown
    angles and bodies, a target naming several bodies or no line, more than 80 lines and cusps asked
    in a house ``system`` without cusp lines."""
    if request.targets:
        if request.bodies or request.angles:
            raise ConflictingParameters(
                "targets replaces bodies and angles; the request sent both.",
                suggestion="Send either targets (the full form) or bodies and angles (the flat form).",
                param="targets",
            )
        targets = []
        for index, target in enumerate(request.targets):
            if not target.angles and not target.cusps:
                raise InvalidParameter(
                    f"Target {index} ({target.body}) asks for no line: it has neither angles nor cusps.",
                    suggestion="Give each target at least one angle (asc, dsc, mc, ic) or one cusp value in [1, 13).",
                    param=f"targets[{index}]",
                )
            with naming("targets", also=BODY_ERRORS):
                resolved = resolve_bodies([target.body])
            if len(resolved) != 1:
                raise InvalidParameter(
                    f"A target names one body; {target.body!r} names {len(resolved)}.",
                    suggestion="Give each body a target of its own, or use the flat form's bodies for a group.",
                    param="targets",
                )
            targets.append(
                Target(
                    resolved[0],
                    _angles(target.angles, "targets"),
                    tuple(target.cusps),
                )
            )
        param = "targets"
    else:
        angles = tuple(dict.fromkeys(_angles(request.angles, "angles"))) or ANGLES
        # The bodies sent were read by validation's check, and kept.
        bodies = listed_bodies(request, "bodies") if request.bodies else resolve_bodies(list(DEFAULT_BODIES))
        targets = [Target(body, angles, ()) for body in bodies]
        param = "bodies"
    lines = sum(len(t.angles) + len(t.cusps) for t in targets)
    if lines > MAX_LINES:
        raise InvalidParameter(
            f"The request asks for {lines} lines; at most {MAX_LINES} are drawn per request.",
            suggestion="Ask for fewer bodies, angles or cusps, and split the rest into a second request.",
            param=param,
        )
    if any(t.cusps for t in targets):
        system = house_system_from(request).name
        with naming("system"):
            check_cusp_line_system(system)
    return targets


def _angles(names: list[str], param: str) -> tuple[str, ...]:
    with naming(param):
        return tuple(parse_angle(name) for name in names)
