"""The unit tests that need a nats-server, mirroring ``tests/unit`` package by package
(``store/nats_store.py`` is tested in ``tests/nats/store/test_nats_store.py``).

They live apart from ``tests/unit`` because they run somewhere else: against a real
nats-server, a process of its own, so they belong to ``make test-all`` and not to the
in-process tier that ``make test`` runs. Every test here that talks to NATS takes the
``nats_server`` fixture (``tests/nats/conftest.py``), which takes ``processes``, so the
collection hook of ``tests/conftest.py`` marks it; the pure tests of the NATS modules (subject
tokens, prefixes) stay in the fast tier wherever they live. Keeping the folder per backend
rather than a marker per file is what makes "a unit test never starts NATS" visible at a
glance, and ``tests/module_coverage.py`` looks for a module's test file here as well.
"""
