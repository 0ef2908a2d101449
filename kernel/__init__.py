"""The kernel: pure astronomy and astrology (engine, time, bodies, zodiac, houses, aspects).

It imports no grpc, no protobuf and reads no environment: whoever computes with it (a
service process, a test) configures the engine with :func:`kernel.engine.use_ephemeris_files`
and hands it typed values. An import-linter contract (``.importlinter``) keeps it so. Reading
moments and names (what validation does, in the gateway too) needs no ephemeris files.
"""
