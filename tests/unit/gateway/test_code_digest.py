"""The digest of the code a picture is drawn by (gateway/code_digest.py), which the pictures'
ETag holds (its use there: tests/unit/gateway/test_picture_caching.py)."""

from __future__ import annotations

from gateway import code_digest


def test_the_code_digest_changes_with_any_byte_of_the_drawing_code(tmp_path):
    for tree in code_digest.PICTURE_TREES:
        (tmp_path / tree).mkdir()
        (tmp_path / tree / "module.py").write_text("A = 1\n")
    before = code_digest.code_digest(tmp_path)
    (tmp_path / "services" / "module.py").write_text("A = 2\n")
    code_digest.code_digest.cache_clear()
    assert code_digest.code_digest(tmp_path) != before


def test_the_code_digest_reads_the_wheel_its_words_and_fonts_and_the_kernel():
    files = {path.relative_to(code_digest.ROOT).as_posix() for path in code_digest.picture_files(code_digest.ROOT)}
    assert {
        "services/ephemeris/wheel/layout.py",
        "services/timelords/indian_charts/drawing.py",
        "shared/pictures/words.json",
        "shared/pictures/NotoSans-Regular.ttf",
        "kernel/positions.py",
    } <= files
    assert not any("__pycache__" in name for name in files)
