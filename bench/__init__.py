"""Benchmarks: each prints its figure beside a reference measured in the same run, as a ratio."""
