"""The body registry: names, aliases, groups, and the resolution of a requested body list."""

from __future__ import annotations

import difflib

from shared.kernel.errors import BodyNotEligible, BodyNotFound

# Source: spec/decisions.md "Bodies".
PLANETS: tuple[str, ...] = (
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    "mean_node",
)
ASTEROIDS: tuple[str, ...] = ("chiron", "pholus", "ceres", "pallas", "juno", "vesta")
ALL: tuple[str, ...] = PLANETS + ("true_node",) + ASTEROIDS + ("mean_apogee", "osc_apogee")
GROUPS: dict[str, tuple[str, ...]] = {"planets": PLANETS, "asteroids": ASTEROIDS, "all": ALL}

# Alias -> the body it names; the answer keeps the alias's spelling.
ALIASES: dict[str, str] = {"lilith": "mean_apogee"}

# Exists only in heliocentric mode.
EARTH = "earth"
NODES_AND_APOGEES: frozenset[str] = frozenset({"mean_node", "true_node", "mean_apogee", "osc_apogee"})

BODY_NAMES: tuple[str, ...] = ALL
ACCEPTED_NAMES: tuple[str, ...] = ALL + tuple(ALIASES) + (EARTH,)


def canonical_body(name: str) -> str:
    """Return the registry body behind a resolved name (``lilith`` -> ``mean_apogee``)."""
    return ALIASES.get(name, name)


def is_asteroid(name: str) -> bool:
    """Return True for the asteroids (no ephemeris outside the files' span, no fallback)."""
    return canonical_body(name) in ASTEROIDS


def is_node_or_apogee(name: str) -> bool:
    """Return True for the lunar nodes and apogees (not bodies a heliocentric view can place)."""
    return canonical_body(name) in NODES_AND_APOGEES


def _not_found(name: str, param: str) -> BodyNotFound:
    close = difflib.get_close_matches(name, ACCEPTED_NAMES + tuple(GROUPS), n=1)
    hint = f"Did you mean {close[0]!r}? " if close else ""
    return BodyNotFound(
        f"Unknown body {name!r} in {param}. Valid names: {', '.join(BODY_NAMES)}, lilith "
        f"(alias of mean_apogee), earth (heliocentric only); groups: {', '.join(GROUPS)}.",
        suggestion=f"{hint}Use a body name such as sun, moon, mean_node, chiron, or a group: planets, asteroids, all.",
        param=param,
    )


def resolve_bodies(names: list[str], *, heliocentric: bool = False, param: str = "bodies") -> list[str]:
    """Return the body names a request asks for, groups expanded, in the order given.

    Input is case-insensitive (surrounding blanks ignored); output is lowercase and keeps the
    requested spelling of an alias (``lilith``). Groups expand in place in the order of
    decisions.md; a body named twice (also through a group, or as ``lilith`` beside
    ``mean_apogee``) appears once, at its first place. An empty list gives an empty list (the
    default group is the caller's business).

    Geocentric: ``earth`` raises BodyNotEligible (suggesting heliocentric=true).
    Heliocentric: ``sun``, nodes and apogees named explicitly raise BodyNotEligible (``sun``
    suggesting ``earth``); groups put ``earth`` in place of ``sun`` and leave the nodes and
    apogees out. Unknown names raise BodyNotFound. Errors name ``param``.
    """
    return _resolve(names, heliocentric, param)


def _resolve(names, heliocentric: bool, param: str) -> list[str]:
    resolved: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        body = canonical_body(name)
        if body not in seen:
            seen.add(body)
            resolved.append(name)

    for raw in names:
        name = str(raw).strip().lower()
        if name in GROUPS:
            for member in GROUPS[name]:
                if heliocentric and member == "sun":
                    add(EARTH)
                elif heliocentric and member in NODES_AND_APOGEES:
                    continue
                else:
                    add(member)
            continue
        if name == EARTH:
            if not heliocentric:
                raise BodyNotEligible(
                    f"The body 'earth' in {param} exists only in heliocentric mode.",
                    suggestion="Add heliocentric=true, or ask for the sun for the geocentric view.",
                    param=param,
                )
            add(EARTH)
            continue
        if name not in BODY_NAMES and name not in ALIASES:
            raise _not_found(name, param)
        if heliocentric and name == "sun":
            raise BodyNotEligible(
                f"The body 'sun' in {param} is the centre of a heliocentric view and has no position in it.",
                suggestion="Ask for earth instead: its heliocentric position is the Sun's geocentric one reversed.",
                param=param,
            )
        if heliocentric and is_node_or_apogee(name):
            raise BodyNotEligible(
                f"The body {name!r} in {param} is a point of the Moon's geocentric orbit and has no "
                "heliocentric position.",
                suggestion="Leave the nodes and apogees out of a heliocentric request, or drop heliocentric=true.",
                param=param,
            )
        add(name)
    return resolved
