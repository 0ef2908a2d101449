"""Aspect patterns of a chart (interface.md, GET/POST /v1/patterns, rules 1-3).

Patterns are assembled from the aspects already detected, never from longitudes (rule 1),
so a pattern needs its forming aspect types among those asked for. Containment is reported,
not collapsed (rule 2). Within a type, each body set appears once; types come in the
filter's order and, within a type, patterns in body order: by the chart indices of their
members as reported (members in chart order, the focal body last) (rule 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from kernel.aspects import AspectMatch
from kernel.errors import MissingValue, UnreadableValue
from kernel.zodiac import sign_index

#: Pattern types and the aspect types that form them (interface.md, pattern types).
FORMING_ASPECTS: dict[str, tuple[str, ...]] = {
    "t_square": ("opposition", "square"),
    "grand_trine": ("trine",),
    "grand_cross": ("opposition", "square"),
    "yod": ("sextile", "quincunx"),
    "kite": ("trine", "opposition", "sextile"),
    "mystic_rectangle": ("opposition", "trine", "sextile"),
    "stellium": (),
}
PATTERN_TYPES: tuple[str, ...] = tuple(FORMING_ASPECTS)
STELLIUM_SCOPES = ("sign", "house", "conjunction")
STELLIUM_MIN_RANGE = (2, 10)


@dataclass(frozen=True)
class Pattern:
    """One pattern: ``bodies`` in chart order with the focal body last where there is one,
    ``focal`` (T-square and yod apex, kite tail) or None, the forming ``aspects`` (the detected
    records, in their list's order) and ``tightness`` in degrees (the widest forming orb; for
    a stellium the shortest arc holding its members)."""

    pattern: str
    bodies: tuple[str, ...]
    focal: str | None
    aspects: tuple[AspectMatch, ...]
    tightness: float


def parse_pattern_types(names: Sequence[str]) -> tuple[str, ...]:
    """Return the pattern types named, in the order given, each once; unknown → UnreadableValue."""
    chosen: list[str] = []
    for name in names:
        key = name.strip().lower()
        if key not in FORMING_ASPECTS:
            raise UnreadableValue(
                f"Unknown pattern type {name!r}.", suggestion=f"Use any of: {', '.join(PATTERN_TYPES)}."
            )
        if key not in chosen:
            chosen.append(key)
    return tuple(chosen)


def missing_aspect_warnings(
    types: Sequence[str], aspect_types: Sequence[str], stellium_scope: str = "sign"
) -> list[str]:
    """Return a prose warning for each pattern type asked for whose forming aspect types are
    not all among ``aspect_types`` (such a pattern can never be found)."""
    warnings = []
    for pattern in types:
        forming = FORMING_ASPECTS[pattern] or (("conjunction",) if stellium_scope == "conjunction" else ())
        missing = [aspect for aspect in forming if aspect not in aspect_types]
        if missing:
            warnings.append(
                f"No {pattern} can be found: it is formed by {', '.join(forming)}, and {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not among the aspects asked for."
            )
    return warnings


class _Links:
    """The detected aspects by pair and, per aspect type, each body's partners."""

    def __init__(self, aspects: Sequence[AspectMatch]):
        self.by_pair: dict[tuple[str, str], AspectMatch] = {}
        self.partners: dict[str, dict[str, set[str]]] = {}
        for a in aspects:
            self.by_pair[(a.body_a, a.body_b)] = self.by_pair[(a.body_b, a.body_a)] = a
            partners = self.partners.setdefault(a.aspect, {})
            partners.setdefault(a.body_a, set()).add(a.body_b)
            partners.setdefault(a.body_b, set()).add(a.body_a)
        self.order = {id(a): i for i, a in enumerate(aspects)}
        self._aspects = list(aspects)

    def get(self, x: str, y: str, aspect: str) -> AspectMatch | None:
        match = self.by_pair.get((x, y))
        return match if match is not None and match.aspect == aspect else None

    def pairs(self, aspect: str) -> list[AspectMatch]:
        return [a for a in self._aspects if a.aspect == aspect]

    def common(self, aspect: str, x: str, y: str) -> set[str]:
        """Return the bodies in ``aspect`` with both ``x`` and ``y``."""
        partners = self.partners.get(aspect, {})
        return partners.get(x, set()) & partners.get(y, set())

    def sorted(self, matches: list[AspectMatch]) -> tuple[AspectMatch, ...]:
        return tuple(sorted(matches, key=lambda a: self.order[id(a)]))


def require_houses(types: Sequence[str], stellium_scope: str, *, has_houses: bool) -> None:
    """Return None when the patterns of ``types`` can be found with the houses known or not
    as ``has_houses`` says; a stellium by house without the houses is MissingValue (the houses
    need a place, which its reader names)."""
    if stellium_scope == "house" and "stellium" in types and not has_houses:
        raise MissingValue(
            wording=lambda place: f"stellium_scope=house needs the houses, so {place}.",
            suggesting=lambda place: f"Add {place}, or use stellium_scope=sign or conjunction.",
        )


def find_patterns(
    bodies: Sequence[str],
    aspects: Sequence[AspectMatch],
    types: Sequence[str],
    *,
    longitudes: dict[str, float],
    houses: dict[str, int] | None = None,
    stellium_min: int = 3,
    stellium_scope: str = "sign",
) -> list[Pattern]:
    """Return the patterns of ``types`` among ``bodies`` (chart order) formed by ``aspects``.

    ``longitudes`` (degrees) serve the stellium's sign and span; ``houses`` (body → house) is
    needed for ``stellium_scope=house`` (MissingValue without it).
    """
    require_houses(types, stellium_scope, has_houses=houses is not None)
    index = {body: i for i, body in enumerate(bodies)}
    links = _Links(aspects)
    found: list[Pattern] = []
    for pattern in types:
        candidates = _FINDERS[pattern](bodies, links, index, longitudes, houses, stellium_min, stellium_scope)
        unique: dict[frozenset[str], Pattern] = {}
        for candidate in candidates:
            unique.setdefault(frozenset(candidate.bodies), candidate)
        found.extend(sorted(unique.values(), key=lambda p: tuple(index[b] for b in p.bodies)))
    return found


def _in_order(index: dict[str, int], members: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(members, key=index.__getitem__))


def _made(pattern: str, index, links: _Links, members, focal: str | None, matches: list[AspectMatch]) -> Pattern:
    ordered = _in_order(index, [m for m in members if m != focal]) + ((focal,) if focal else ())
    forming = links.sorted(matches)
    return Pattern(pattern, ordered, focal, forming, max(a.orb_deg for a in forming))


def _t_squares(bodies, links, index, *_):
    for opposition in links.pairs("opposition"):
        a, b = opposition.body_a, opposition.body_b
        for c in links.common("square", a, b):
            yield _made(
                "t_square",
                index,
                links,
                (a, b, c),
                c,
                [opposition, links.get(a, c, "square"), links.get(b, c, "square")],
            )


def _grand_trines(bodies, links, index, *_):
    for trine in links.pairs("trine"):
        a, b = trine.body_a, trine.body_b
        for c in links.common("trine", a, b):
            yield _made(
                "grand_trine",
                index,
                links,
                (a, b, c),
                None,
                [trine, links.get(a, c, "trine"), links.get(b, c, "trine")],
            )


def _two_oppositions(links):
    """Yield each two oppositions among four distinct bodies, with the bodies (a, b, c, d)."""
    for first, second in combinations(links.pairs("opposition"), 2):
        a, b, c, d = first.body_a, first.body_b, second.body_a, second.body_b
        if len({a, b, c, d}) == 4:
            yield first, second, (a, b, c, d)


def _grand_crosses(bodies, links, index, *_):
    for first, second, (a, b, c, d) in _two_oppositions(links):
        squares = [
            links.get(a, c, "square"),
            links.get(a, d, "square"),
            links.get(b, c, "square"),
            links.get(b, d, "square"),
        ]
        if all(squares):
            yield _made("grand_cross", index, links, (a, b, c, d), None, [first, second, *squares])


def _yods(bodies, links, index, *_):
    for sextile in links.pairs("sextile"):
        a, b = sextile.body_a, sextile.body_b
        for c in links.common("quincunx", a, b):
            yield _made(
                "yod", index, links, (a, b, c), c, [sextile, links.get(a, c, "quincunx"), links.get(b, c, "quincunx")]
            )


def _kites(bodies, links, index, *rest):
    for trine in _grand_trines(bodies, links, index, *rest):
        vertices = trine.bodies
        for d in bodies:
            if d in vertices:
                continue
            for vertex in vertices:
                others = [v for v in vertices if v != vertex]
                opposition = links.get(d, vertex, "opposition")
                sextiles = [links.get(d, other, "sextile") for other in others]
                if opposition and all(sextiles):
                    yield _made("kite", index, links, (*vertices, d), d, [*trine.aspects, opposition, *sextiles])


def _mystic_rectangles(bodies, links, index, *_):
    for first, second, (a, b, c, d) in _two_oppositions(links):
        for side in ("trine", "sextile"):
            other = "sextile" if side == "trine" else "trine"
            sides = [links.get(a, c, side), links.get(b, d, side), links.get(a, d, other), links.get(b, c, other)]
            if all(sides):
                yield _made("mystic_rectangle", index, links, (a, b, c, d), None, [first, second, *sides])


def _stelliums(bodies, links, index, longitudes, houses, stellium_min, scope):
    if scope == "conjunction":
        groups = _conjunction_chains(bodies, links)
    else:
        key = (lambda body: sign_index(longitudes[body])) if scope == "sign" else houses.__getitem__
        by_key: dict[int, list[str]] = {}
        for body in bodies:
            by_key.setdefault(key(body), []).append(body)
        groups = list(by_key.values())
    for members in groups:
        if len(members) >= stellium_min:
            conjunctions = [links.get(x, y, "conjunction") for x, y in combinations(members, 2)]
            yield Pattern(
                "stellium",
                _in_order(index, members),
                None,
                links.sorted([c for c in conjunctions if c]),
                _span([longitudes[m] for m in members]),
            )


def _conjunction_chains(bodies, links) -> list[list[str]]:
    """Return the maximal sets of bodies joined by chains of detected conjunctions."""
    seen: set[str] = set()
    chains = []
    for start in bodies:
        if start in seen:
            continue
        chain, frontier = [], [start]
        seen.add(start)
        while frontier:
            body = frontier.pop()
            chain.append(body)
            for other in bodies:
                if other not in seen and links.get(body, other, "conjunction"):
                    seen.add(other)
                    frontier.append(other)
        chains.append(chain)
    return chains


def _span(longitudes: list[float]) -> float:
    """Return the shortest arc (degrees) holding every longitude: 360 minus the widest gap."""
    ordered = sorted(lon % 360.0 for lon in longitudes)
    gaps = [b - a for a, b in zip(ordered, ordered[1:])] + [ordered[0] + 360.0 - ordered[-1]]
    return 360.0 - max(gaps)


_FINDERS = {
    "t_square": _t_squares,
    "grand_trine": _grand_trines,
    "grand_cross": _grand_crosses,
    "yod": _yods,
    "kite": _kites,
    "mystic_rectangle": _mystic_rectangles,
    "stellium": _stelliums,
}
