"""Reader of the bodies a void-of-course Moon is measured against: the Moon must be among
them. Validation runs it in the gateway before any charge (the rule of
ComputeVoidOfCourseRequest, `shared/runtime/request_readers.py`); the ephemeris service calls
it to read the request."""

from __future__ import annotations

from google.protobuf.message import Message

from kernel.positions import CalcFlags
from kernel.void_of_course import MOON
from shared.errors import InvalidParameter
from shared.runtime.wire import bodies_from


def void_of_course_bodies(request: Message) -> tuple[str, ...]:
    """Return the resolved bodies of a void-of-course request, the Moon among them
    (InvalidParameter naming bodies when it is not)."""
    bodies = bodies_from(request, CalcFlags())
    if MOON not in bodies:
        raise InvalidParameter(
            "A void-of-course Moon needs the Moon among the bodies.",
            suggestion=f"Add moon to bodies (bodies=moon,{','.join(bodies)}), or leave bodies at its default.",
            param="bodies",
        )
    return bodies
