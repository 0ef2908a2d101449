"""Essential dignities of a body in its sign, and dispositorship (interface.md, Dignity record, Dispositors object).

Conventions where the spec is silent:
- Every body gets the table lookups of its sign and degree (rulers of the sign, term, face);
  its own ``in_*`` flags are true only when it is that ruler. The nodes are exalted (and in
  fall) as the North Node.
- A term or face covers [start, end) degrees of its sign.
- ``peregrine`` applies to a body that can hold essential dignity under the chosen rulership
  (one that rules a sign there: the seven planets, and Uranus, Neptune and Pluto in the
  modern scheme) and holds none, and no debility either; any other body is never peregrine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernel import dignity_tables as tables
from kernel.bodies import NODE_BODIES
from kernel.errors import UnreadableValue
from kernel.zodiac import SIGN_KEYS, sign_of_index

RULERSHIP_NAMES = tuple(tables.RULERSHIPS)


@dataclass(frozen=True)
class Dignity:
    """A body's essential dignities in its sign (interface.md, Dignity record); ``sign``
    lowercase, ``sign_degree`` in [0, 30)."""

    body: str
    sign: str
    sign_degree: float
    domicile_ruler: str
    in_domicile: bool
    in_detriment: bool
    exaltation_ruler: str | None
    exaltation_degree: float | None
    in_exaltation: bool
    in_fall: bool
    triplicity_ruler: str | None
    in_triplicity: bool
    term_ruler: str
    in_term: bool
    face_ruler: str
    in_face: bool
    peregrine: bool
    score: int


@dataclass(frozen=True)
class DispositorLink:
    """One step of a chain: ``body`` in ``sign`` (lowercase) is disposed of by ``dispositor``."""

    body: str
    sign: str
    dispositor: str


@dataclass(frozen=True)
class DispositorChain:
    """A body's chain of dispositors and how it ends: ``final_dispositor`` (a body in its own
    sign), ``cycle`` (a dispositor already in the chain, on the link that repeats it) or
    ``ruler_absent`` (the dispositor is not among the bodies)."""

    links: list[DispositorLink]
    end: str


@dataclass(frozen=True)
class MutualReception:
    """Two bodies each in the other's domicile (signs lowercase)."""

    body_a: str
    sign_a: str
    body_b: str
    sign_b: str


@dataclass(frozen=True)
class Dispositors:
    """Chains (one per body, in body order), mutual receptions (pairs in body order) and final
    dispositors (bodies in their own domicile, in body order)."""

    chains: list[DispositorChain] = field(default_factory=list)
    mutual_receptions: list[MutualReception] = field(default_factory=list)
    final_dispositors: list[str] = field(default_factory=list)


def parse_rulership(text: str) -> tuple[str, ...]:
    """Return the table of domicile rulers ``text`` names (traditional or modern)."""
    if text not in tables.RULERSHIPS:
        raise UnreadableValue(
            f"Unknown rulership {text!r}.", suggesting=lambda param: f"Send {param}=traditional or {param}=modern."
        )
    return tables.RULERSHIPS[text]


def _exaltation_name(body: str) -> str:
    return tables.NORTH_NODE if body in NODE_BODIES else body


def _exaltation_of_sign(index: int) -> tuple[str, float] | None:
    for ruler, sign, degree in tables.EXALTATIONS:
        if sign == index:
            return ruler, degree
    return None


def term_ruler(index: int, degree: float) -> str:
    """Return the ruler of the Egyptian term holding ``degree`` (within sign ``index``)."""
    for ruler, end in tables.EGYPTIAN_TERMS[index]:
        if degree < end:
            return ruler
    return tables.EGYPTIAN_TERMS[index][-1][0]


def face_ruler(index: int, degree: float) -> str:
    """Return the ruler of the face (decan) holding ``degree`` (within sign ``index``)."""
    start = tables.CHALDEAN_ORDER.index(tables.FIRST_FACE_RULER)
    face = index * 3 + min(2, int(degree // tables.FACE_WIDTH_DEG))
    return tables.CHALDEAN_ORDER[(start + face) % len(tables.CHALDEAN_ORDER)]


def assess(body: str, longitude_deg: float, rulers: tuple[str, ...], day_chart: bool | None) -> Dignity:
    """Return the essential dignities of ``body`` at ``longitude_deg`` (degrees, on the chart's
    zodiac) under the domicile ``rulers`` table; triplicity only when ``day_chart`` is given."""
    index, degree = sign_of_index(longitude_deg)
    opposite = (index + 6) % 12
    domicile = rulers[index]
    in_domicile = body == domicile
    in_detriment = body == rulers[opposite]
    exaltation = _exaltation_of_sign(index)
    exalted_name = _exaltation_name(body)
    in_exaltation = exaltation is not None and exaltation[0] == exalted_name
    fall = _exaltation_of_sign(opposite)
    in_fall = fall is not None and fall[0] == exalted_name
    triplicity = None
    if day_chart is not None:
        day, night = tables.TRIPLICITY_BY_ELEMENT[tables.ELEMENTS[index]]
        triplicity = day if day_chart else night
    in_triplicity = triplicity is not None and body == triplicity
    term = term_ruler(index, degree)
    face = face_ruler(index, degree)
    in_term, in_face = body == term, body == face
    dignified = in_domicile or in_exaltation or in_triplicity or in_term or in_face
    debilitated = in_detriment or in_fall
    peregrine = body in rulers and not dignified and not debilitated
    score = (
        tables.SCORE_DOMICILE * in_domicile
        + tables.SCORE_EXALTATION * in_exaltation
        + tables.SCORE_TRIPLICITY * in_triplicity
        + tables.SCORE_TERM * in_term
        + tables.SCORE_FACE * in_face
        + tables.SCORE_DETRIMENT * in_detriment
        + tables.SCORE_FALL * in_fall
        + tables.SCORE_PEREGRINE * peregrine
    )
    return Dignity(
        body=body,
        sign=SIGN_KEYS[index],
        sign_degree=degree,
        domicile_ruler=domicile,
        in_domicile=in_domicile,
        in_detriment=in_detriment,
        exaltation_ruler=exaltation[0] if exaltation else None,
        exaltation_degree=exaltation[1] if exaltation else None,
        in_exaltation=in_exaltation,
        in_fall=in_fall,
        triplicity_ruler=triplicity,
        in_triplicity=in_triplicity,
        term_ruler=term,
        in_term=in_term,
        face_ruler=face,
        in_face=in_face,
        peregrine=peregrine,
        score=int(score),
    )


def dispositors(placements: list[tuple[str, float]], rulers: tuple[str, ...]) -> Dispositors:
    """Return the dispositorship of ``placements`` (body, longitude in degrees; body order)
    under the domicile ``rulers`` table."""
    sign_of_body = {body: sign_of_index(longitude)[0] for body, longitude in placements}
    chains = []
    for body, _ in placements:
        links: list[DispositorLink] = []
        seen = [body]
        current = body
        while True:
            index = sign_of_body[current]
            ruler = rulers[index]
            links.append(DispositorLink(current, SIGN_KEYS[index], ruler))
            if ruler == current:
                end = "final_dispositor"
                break
            if ruler not in sign_of_body:
                end = "ruler_absent"
                break
            if ruler in seen:
                end = "cycle"
                break
            seen.append(ruler)
            current = ruler
        chains.append(DispositorChain(links, end))
    receptions = []
    bodies = [body for body, _ in placements]
    for i, body_a in enumerate(bodies):
        for body_b in bodies[i + 1 :]:
            sign_a, sign_b = sign_of_body[body_a], sign_of_body[body_b]
            if rulers[sign_a] == body_b and rulers[sign_b] == body_a and body_a != body_b:
                receptions.append(MutualReception(body_a, SIGN_KEYS[sign_a], body_b, SIGN_KEYS[sign_b]))
    finals = [body for body in bodies if rulers[sign_of_body[body]] == body]
    return Dispositors(chains, receptions, finals)
