"""A user's program against the built wheel (tests/e2e/test_client_packages.py runs it in a
fresh venv and type-checks it with mypy --strict): a chart wheel saved as a PNG file, the same
wheel as SVG text, sky events as an iCalendar, and a bad house system for a PNG caught as
InvalidParameter. Prints one JSON line per text answer and per error."""

import json
import sys
from pathlib import Path

from celestial_client import Celestial, InvalidParameter


def main(base_url: str, api_key: str, png_path: str) -> None:
    with Celestial(base_url=base_url, api_key=api_key) as api:
        # London, 15 June 1990, 14:30 UTC: the moment of the API's recorded example.
        # The annotations are the proof: mypy --strict accepts them only if format_ types the answer.
        png: bytes = api.chart_wheel(datetime_="1990-06-15T14:30:00Z", lat=51.5074, lon=-0.1278, format_="png")
        Path(png_path).write_bytes(png)
        svg: str = api.chart_wheel(datetime_="1990-06-15T14:30:00Z", lat=51.5074, lon=-0.1278)
        print(json.dumps({"head": svg[:5], "role_img": 'role="img"' in svg}))
        ics: str = api.calendar(start="2024-04-01T00:00:00Z", end="2024-04-10T00:00:00Z", format_="ics")
        print(json.dumps({"first_line": ics.splitlines()[0]}))
        try:
            api.chart_wheel(
                datetime_="1990-06-15T14:30:00Z", lat=51.5074, lon=-0.1278, format_="png", system="placidius"
            )
        except InvalidParameter as error:
            print(json.dumps({"code": error.code, "param": error.param}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
