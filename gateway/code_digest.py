"""The digest of the code a picture is drawn by: the files of the kernel, the services and
the shared runtime (``kernel/``, ``services/``, ``shared/``: the positions, the layouts, the
drawing, the words and themes, the fonts), so that a release which draws any picture
differently gives it a new ``ETag`` (gateway/picture_caching.py) although ``meta.version``'s
build number is unchanged. The gateway reads these files as bytes; it imports none of
``services/``."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import kernel

#: The folders, beside ``kernel/``, whose files a picture depends on.
PICTURE_TREES = ("kernel", "services", "shared")
#: The folder holding them: the repository in a checkout, site-packages or /app in an image.
ROOT = Path(kernel.__file__).resolve().parent.parent


def picture_files(root: Path) -> list[Path]:
    """Return the files under ``root``'s PICTURE_TREES, in path order, compiled
    ``__pycache__`` files left out."""
    return [
        path
        for tree in PICTURE_TREES
        for path in sorted((root / tree).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]


@functools.cache
def code_digest(root: Path = ROOT) -> str:
    """Return 16 hexadecimal digits of the SHA-256 of ``root``'s picture files (each one's
    path relative to ``root``, then its bytes), read once per process."""
    digest = hashlib.sha256()
    for path in picture_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
