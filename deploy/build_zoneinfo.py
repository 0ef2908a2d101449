"""Compile the shipped tz database (data/tz) into the zone files every process reads.

``data/tz/tzdata.zi`` is the tz database's own one-file zic source as Debian's ``tzdata``
package builds it: with the ``backzone`` file (``PACKRATDATA=backzone PACKRATLIST=zone.tab``),
so each zone of ``zone.tab`` keeps its own history before 1970 (data/tz/SOURCE.md). The
standard library's ``zoneinfo`` reads compiled (TZif) files, so ``make setup`` runs the tz
database's compiler, ``zic`` (Debian's libc-bin), over it once.

Run: ``python -m deploy.build_zoneinfo SOURCE [OUTPUT]``: the folder holding tzdata.zi and
backzone.txt, and the folder to write (default: SOURCE) with those two files beside the
compiled zones in ``zoneinfo/`` (replaced atomically).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from kernel.civil_time import BACKZONE_LIST, ZONE_SOURCE

#: The compiled zones' folder inside the output, where kernel.civil_time reads them.
COMPILED = "zoneinfo"


def build(source: Path, output: Path) -> int:
    """Compile ``source``/tzdata.zi into ``output``/zoneinfo (copying the source and the backzone
    list beside it when ``output`` is another folder); return the number of zone files written."""
    output.mkdir(parents=True, exist_ok=True)
    if source.resolve() != output.resolve():
        for name in (ZONE_SOURCE, BACKZONE_LIST):
            shutil.copyfile(source / name, output / name)
    zic = shutil.which("zic") or shutil.which("zic", path="/usr/sbin:/sbin")
    if zic is None:
        raise SystemExit(
            "zic, the tz database's compiler, is missing: install Debian's libc-bin (apt-get install libc-bin)."
        )
    with tempfile.TemporaryDirectory(dir=output) as scratch:
        compiled = Path(scratch) / COMPILED
        subprocess.run([zic, "-d", str(compiled), str(output / ZONE_SOURCE)], check=True)
        final = output / COMPILED
        if final.exists():
            shutil.rmtree(final)
        compiled.rename(final)
    return sum(1 for path in final.rglob("*") if path.is_file())


def main(argv: list[str]) -> None:
    source = Path(argv[1])
    output = Path(argv[2]) if len(argv) > 2 else source
    count = build(source, output)
    print(f"{output / COMPILED}: {count} zones compiled by zic from {ZONE_SOURCE}")


if __name__ == "__main__":
    main(sys.argv)
