"""An error crosses gRPC as a rich status and comes back as the same class (status.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from google.rpc import status_pb2
from grpc_status import rpc_status

from kernel.errors import BodyNotFound
from shared.errors import CelestialError, InsufficientCredits
from shared.runtime.status import error_from_status, to_status

ROOT = Path(__file__).resolve().parents[3]


def _carried(error: CelestialError) -> CelestialError | None:
    trailer = dict(to_status(error).trailing_metadata)[rpc_status.GRPC_DETAILS_METADATA_KEY]
    return error_from_status(status_pb2.Status.FromString(trailer))


def test_a_catalogue_error_comes_back_as_its_class():
    carried = _carried(InsufficientCredits("The balance is 0.", param="credits"))
    assert type(carried) is InsufficientCredits
    assert (carried.message, carried.param) == ("The balance is 0.", "credits")


def test_a_kernel_domain_error_comes_back_as_its_class():
    carried = _carried(BodyNotFound("Unknown body: vulcan.", param="bodies"))
    assert type(carried) is BodyNotFound
    assert (carried.code, carried.http_status) == ("body_not_found", 400)


def test_a_reader_of_statuses_knows_the_kernel_domain_errors_without_importing_them(processes):
    # A fresh interpreter: in this one the test's own import already defines BodyNotFound.
    reader = (
        "from google.protobuf import any_pb2\n"
        "from google.rpc import error_details_pb2, status_pb2\n"
        "from shared.runtime.status import ERROR_DOMAIN, error_from_status\n"
        "detail = any_pb2.Any()\n"
        "detail.Pack(error_details_pb2.ErrorInfo(reason='BODY_NOT_FOUND', domain=ERROR_DOMAIN))\n"
        "print(error_from_status(status_pb2.Status(code=3, message='m', details=[detail])).code)\n"
    )
    answer = subprocess.run([sys.executable, "-c", reader], capture_output=True, text=True, check=True, cwd=ROOT)
    assert answer.stdout.strip() == "body_not_found"
