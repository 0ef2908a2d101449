"""Draw the lines of a /v1/astrocartography GeoJSON answer over a world map, as a PNG.

    curl -s -H "Authorization: Bearer $KEY" \
      "http://127.0.0.1:8080/v1/astrocartography?datetime=1990-06-15T14:30:00Z&format=geojson" \
      | /tmp/map-env/bin/python docs/astrocartography_map.py - my-map.png

The input is the API's answer (the envelope, or its ``data`` alone) read from a file or
standard input ("-"). Each body gets one colour; the Ascendant is drawn solid, the Descendant
dashed, the Midheaven dotted, the Imum Coeli dash-dotted, cusp lines thin. It needs only
matplotlib and basemap (its coastlines work offline), which pin an older numpy than the
service does, so give them an environment of their own:
``python3 -m venv /tmp/map-env && /tmp/map-env/bin/pip install basemap``.
"""

from __future__ import annotations

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from mpl_toolkits.basemap import Basemap  # noqa: E402

STYLES = {"ascendant": "-", "descendant": "--", "midheaven": ":", "imum_coeli": "-."}
ABBREVIATIONS = {"ascendant": "AS", "descendant": "DS", "midheaven": "MC", "imum_coeli": "IC"}


def draw(collection: dict, path: str, title: str) -> None:
    """Write ``collection`` (a GeoJSON FeatureCollection of astrocartography segments) to ``path`` as a PNG."""
    figure = plt.figure(figsize=(14, 7.5))
    world = Basemap(projection="cyl", llcrnrlat=-89, urcrnrlat=89, llcrnrlon=-180, urcrnrlon=180, resolution="c")
    world.drawcoastlines(linewidth=0.4, color="0.45")
    world.fillcontinents(color="0.94", lake_color="white")
    world.drawparallels(range(-60, 61, 30), labels=[1, 0, 0, 0], linewidth=0.2, color="0.7")
    world.drawmeridians(range(-180, 181, 60), labels=[0, 0, 0, 1], linewidth=0.2, color="0.7")
    colours = {}
    for feature in collection["features"]:
        properties, geometry = feature["properties"], feature["geometry"]
        if geometry["type"] != "LineString":
            continue
        body, line = properties["body"], properties["line"]
        colour = colours.setdefault(body, plt.cm.tab20(len(colours) % 20))
        lons, lats = zip(*geometry["coordinates"])
        angle = line["kind"] == "angle"
        plt.plot(
            lons, lats, STYLES.get(line["value"], "-") if angle else "-", color=colour, linewidth=1.4 if angle else 0.7
        )
        if angle and line["value"] == "midheaven":
            plt.text(
                lons[len(lons) // 2],
                74,
                f"{body} {ABBREVIATIONS[line['value']]}",
                rotation=90,
                fontsize=7,
                color=colour,
                ha="right",
            )
    handles = [plt.Line2D([], [], color=c, label=b) for b, c in colours.items()]
    handles += [plt.Line2D([], [], color="k", linestyle=s, label=ABBREVIATIONS[a]) for a, s in STYLES.items()]
    plt.legend(handles=handles, loc="lower left", fontsize=7, ncol=2, framealpha=0.9)
    plt.title(title)
    figure.savefig(path, dpi=90, bbox_inches="tight")


def main(argv: list[str]) -> None:
    source, path = argv[1], argv[2]
    answer = json.load(sys.stdin if source == "-" else open(source, encoding="utf-8"))
    collection = answer.get("data", answer)
    draw(collection, path, argv[3] if len(argv) > 3 else "Astrocartography lines")


if __name__ == "__main__":
    main(sys.argv)
