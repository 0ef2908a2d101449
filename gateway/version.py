"""The versions an answer was made with: the API's and the build's (also in the OpenAPI
document), the engine's and the tz database's, in every answer's ``meta.version``."""

from kernel import civil_time, engine

API_VERSION = "v1"
BUILD_VERSION = "0.1.0"


def answer_version() -> dict[str, str]:
    """Return ``meta.version``: ``api``, ``build``, ``engine`` (Swiss Ephemeris' release) and
    ``tz`` (the shipped tz database's release, such as ``2026f``)."""
    return {"api": API_VERSION, "build": BUILD_VERSION, "engine": engine.ENGINE_VERSION, "tz": civil_time.tz_version()}
