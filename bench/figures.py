"""The figures `make bench` measures, by name, and the file it writes them to.

Each benchmark records its figures here as it prints them; `make bench` writes them all to
``var/bench.json`` (one member per figure, the names issue 28 gives), so a run can be compared
with another without reading its output. A module run alone records nothing to disk.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from shared.runtime.config import REPO_ROOT

#: Where `make bench` writes the figures.
FIGURES_PATH = REPO_ROOT / "var" / "bench.json"

_figures: dict[str, float] = {}


def record(name: str, value: float) -> float:
    """Keep ``value`` as the figure ``name`` (rounded to 4 decimals) and return it unchanged."""
    _figures[name] = round(float(value), 4)
    return value


def write(path: Path = FIGURES_PATH) -> Path:
    """Write every figure recorded so far to ``path`` as one JSON object; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(_figures, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    return path
