"""The tables of essential dignity, as data (one source named for each).

Signs are indexed 0 (Aries) to 11 (Pisces); degrees are within the sign.
"""

from __future__ import annotations

# Domicile rulers: decisions.md, Dignities (the traditional scheme is Ptolemy's, Tetrabiblos
# I.17; the modern one gives Scorpio, Aquarius and Pisces to Pluto, Uranus and Neptune).
TRADITIONAL_RULERS: tuple[str, ...] = (
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "saturn",
    "jupiter",
)
MODERN_RULERS: tuple[str, ...] = (
    "mars",
    "venus",
    "mercury",
    "moon",
    "sun",
    "mercury",
    "venus",
    "pluto",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
)
RULERSHIPS = {"traditional": TRADITIONAL_RULERS, "modern": MODERN_RULERS}

# Exaltations (body, sign index, degree): interface.md, Dignity record; the North Node's is
# named north_node and applies to mean_node and true_node (decisions.md).
EXALTATIONS: tuple[tuple[str, int, float], ...] = (
    ("sun", 0, 19.0),
    ("moon", 1, 3.0),
    ("north_node", 2, 3.0),
    ("jupiter", 3, 15.0),
    ("mercury", 5, 15.0),
    ("saturn", 6, 21.0),
    ("mars", 9, 28.0),
    ("venus", 11, 27.0),
)
NORTH_NODE = "north_node"

# Triplicity rulers, two-ruler scheme (day, night) by element: interface.md, Dignity record.
TRIPLICITY_BY_ELEMENT = {
    "fire": ("sun", "jupiter"),
    "earth": ("venus", "moon"),
    "air": ("saturn", "mercury"),
    "water": ("mars", "mars"),
}
ELEMENTS: tuple[str, ...] = ("fire", "earth", "air", "water") * 3

# Egyptian terms (ruler, end degree; each term starts where the previous ends): decisions.md,
# Dignities, which is Ptolemy's table of the Egyptian terms (Tetrabiblos I.21).
EGYPTIAN_TERMS: tuple[tuple[tuple[str, float], ...], ...] = (
    (("jupiter", 6), ("venus", 12), ("mercury", 20), ("mars", 25), ("saturn", 30)),
    (("venus", 8), ("mercury", 14), ("jupiter", 22), ("saturn", 27), ("mars", 30)),
    (("mercury", 6), ("jupiter", 12), ("venus", 17), ("mars", 24), ("saturn", 30)),
    (("mars", 7), ("venus", 13), ("mercury", 19), ("jupiter", 26), ("saturn", 30)),
    (("jupiter", 6), ("venus", 11), ("saturn", 18), ("mercury", 24), ("mars", 30)),
    (("mercury", 7), ("venus", 17), ("jupiter", 21), ("mars", 28), ("saturn", 30)),
    (("saturn", 6), ("mercury", 14), ("jupiter", 21), ("venus", 28), ("mars", 30)),
    (("mars", 7), ("venus", 11), ("mercury", 19), ("jupiter", 24), ("saturn", 30)),
    (("jupiter", 12), ("venus", 17), ("mercury", 21), ("saturn", 26), ("mars", 30)),
    (("mercury", 7), ("jupiter", 14), ("venus", 22), ("saturn", 26), ("mars", 30)),
    (("mercury", 7), ("venus", 13), ("jupiter", 20), ("mars", 25), ("saturn", 30)),
    (("venus", 12), ("jupiter", 16), ("mercury", 19), ("mars", 28), ("saturn", 30)),
)

# Faces (decans): the Chaldean order of the planets, starting with Mars in the first face of
# Aries (interface.md, Dignity record; Lilly, Christian Astrology, 1647, p. 104).
CHALDEAN_ORDER: tuple[str, ...] = ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
FACE_WIDTH_DEG = 10.0
FIRST_FACE_RULER = "mars"

# Score weights: interface.md, Dignity record.
SCORE_DOMICILE, SCORE_EXALTATION, SCORE_TRIPLICITY, SCORE_TERM, SCORE_FACE = 5, 4, 3, 2, 1
SCORE_DETRIMENT, SCORE_FALL, SCORE_PEREGRINE = -5, -4, -5
