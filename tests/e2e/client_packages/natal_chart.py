"""A user's program against the built wheel (tests/e2e/test_client_packages.py runs it in a
fresh venv and type-checks it with mypy --strict): a natal chart from a town and a local time,
with how the local time was read (meta.moment, typed), and a bad house system caught as
InvalidParameter. Prints one JSON line per answer."""

import json
import sys

from celestial_client import Celestial, InvalidParameter
from celestial_client.models import MetaMoment


def main(base_url: str, api_key: str) -> None:
    with Celestial(base_url=base_url, api_key=api_key) as api:
        lyon = api.places(q="Lyon", country="FR").data.places[0]
        chart = api.natal_chart(datetime_="1985-07-13T14:05:00", place=lyon.id)
        sun = next(position for position in chart.data.positions if position.body == "sun")
        moment = chart.meta.moment
        read = moment["datetime"] if isinstance(moment, MetaMoment) else None
        print(
            json.dumps(
                {
                    "sign": sun.sign,
                    "credits_used": chart.meta.credits_used,
                    "moment": {"tz": read.tz, "abbreviation": read.abbreviation, "utc": read.utc} if read else None,
                }
            )
        )
        try:
            api.natal_chart(datetime_="1985-07-13T14:05:00", place=lyon.id, system="placidius")
        except InvalidParameter as error:
            print(json.dumps({"code": error.code, "param": error.param, "suggestion": error.suggestion}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
