"""Issue 30, points 9 and 14: command lines that name nothing to read or write are usage errors.

Through the installed command, in real processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CLEAN

MECHLINT = Path(sys.executable).parent / "mechlint"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "content" / "mechanisms").mkdir(parents=True)
    (tmp_path / "content" / "mechanisms" / "m.json").write_bytes(CLEAN.read_bytes())
    return tmp_path


def test_standard_input_closed_is_a_usage_error(tree: Path) -> None:
    """``--stdin-filename x -`` with file descriptor 0 closed (``<&-``): Python's ``sys.stdin`` is ``None``."""
    done = subprocess.run(
        [str(MECHLINT), "check", "--stdin-filename", "content/mechanisms/m.json", "-"],
        cwd=tree,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "mechlint: standard input is closed: there is no buffer to check (pipe one in, or name the files to check)\n"
    )
    assert "internal error" not in done.stderr


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("sarif:", "gives no file name (an unset variable?); write FORMAT:FILE"),
        ("", "gives no file name (an unset variable?); write FORMAT:FILE"),
        ("sarif:out/new/", "names a folder, not a file; give the report's file name (FORMAT:FOLDER/FILE)"),
        ("junit:out/.", "names a folder, not a file; give the report's file name (FORMAT:FOLDER/FILE)"),
        ("out/new/", "names a folder, not a file; give the report's file name (FORMAT:FOLDER/FILE)"),
    ],
)
def test_an_output_without_a_file_name_is_a_usage_error(tree: Path, output: str, reason: str) -> None:
    done = subprocess.run([str(MECHLINT), "check", "-o", output, "content"], cwd=tree, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f"mechlint: -o {output!r} {reason}\n"
    assert sorted(p.name for p in tree.iterdir()) == ["content"]  # no file "sarif:", "new" or "out"


def test_an_output_in_a_new_folder_is_still_written(tree: Path) -> None:
    """The guard: FORMAT:FOLDER/FILE makes the folder, as before."""
    done = subprocess.run(
        [str(MECHLINT), "check", "-o", "sarif:out/new/r.sarif", "content"], cwd=tree, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert (tree / "out" / "new" / "r.sarif").read_text(encoding="utf-8").startswith("{")
