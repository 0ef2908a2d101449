"""``make sdk`` (deploy/generate_sdks.py): what it prints is its own."""

from __future__ import annotations

import json
import subprocess
import sys

from shared.runtime.config import REPO_ROOT


def test_reading_the_document_in_process_prints_no_gateway_log_line(processes):
    # Issue 36: make sdk printed the gateway's request_finished line among its own output.
    # In a process of its own: the reading configures logging, which a test process keeps.
    code = "import sys; from deploy.generate_sdks import served_document; sys.stdout.write(served_document().decode())"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(done.stdout)["openapi"] == "3.1.0"  # the document alone on stdout
    assert "request_finished" not in done.stderr and done.stderr == ""
