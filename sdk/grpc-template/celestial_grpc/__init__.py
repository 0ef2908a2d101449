"""Helpers beside the generated stubs of ``celestial.v1``: the channel a pool wants and the
error a refused call carries (the package's README and the server's docs/grpc.md say more)."""

from .channel import channel_options, service_config
from .error_codes import ERROR_STATUS
from .errors import ERROR_DOMAIN, ErrorDetails, error_details

__all__ = ["ERROR_DOMAIN", "ERROR_STATUS", "ErrorDetails", "channel_options", "error_details", "service_config"]
