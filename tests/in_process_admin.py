"""``celestial-admin`` run in the test process: its exit status and what it printed."""

from __future__ import annotations

import contextlib
import io
import subprocess
from collections.abc import Sequence

from gateway.admin import cli as admin_cli
from shared.runtime.config import Settings


def run_admin(args: Sequence[str], settings: Settings) -> subprocess.CompletedProcess[str]:
    """Return what running ``celestial-admin args`` against the store of ``settings`` did, as
    ``subprocess.run`` would report it (a usage error is exit status 2, as argparse exits)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = admin_cli.main(list(args), settings)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(["celestial-admin", *args], status, out.getvalue(), err.getvalue())
