"""The gateway's version: the API's and the build's, in every answer's ``meta`` and in the OpenAPI document."""

API_VERSION = "v1"
BUILD_VERSION = "0.1.0"
VERSION = {"api": API_VERSION, "build": BUILD_VERSION}
