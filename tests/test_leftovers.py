"""Issue 30, point 11: no temporary file outlives a run, and a write reaches the disk before its rename.

Real processes and real signals: ``tests/paused_run.py`` holds the run just
before the rename of its temporary file, where a signal would leave it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mechlint.safety import safeio
from mechlint.safety.safeio import write_atomically

from .conftest import CLEAN

PAUSED_RUN = Path(__file__).resolve().parent / "paused_run.py"
MECHLINT = Path(sys.executable).parent / "mechlint"
#: mechlint's temporary files: ``.NAME.XXXXXXXX.tmp``.
TEMPORARY_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "content" / "mechanisms").mkdir(parents=True)
    (tmp_path / "content" / "mechanisms" / "m.json").write_bytes(CLEAN.read_bytes())
    (tmp_path / "r.sarif").write_text("the previous report\n")
    return tmp_path


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMPORARY_NAME.fullmatch(p.name))


def paused_write(tree: Path, signals: Path) -> subprocess.Popen[str]:
    """``check -o sarif:r.sarif``, held just before the report's temporary file is renamed."""
    signals.mkdir()
    run = subprocess.Popen(
        [
            sys.executable,
            str(PAUSED_RUN),
            "--pause",
            "os:replace",
            "--folder",
            str(signals),
            "--",
            "check",
            "--no-cache",
            "-o",
            "sarif:r.sarif",
            "content",
        ],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not list(signals.glob("paused-*")) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(signals.glob("paused-*")), run.communicate()
    assert len(temporaries(tree)) == 1  # the report, written, waits for its rename
    return run


def finish(run: subprocess.Popen[str], signals: Path) -> tuple[int, str]:
    (signals / "go").touch()
    try:
        _, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    return run.returncode, stderr


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [(signal.SIGTERM, 143, "mechlint: stopped by SIGTERM\n"), (signal.SIGINT, 130, "mechlint: interrupted\n")],
)
def test_a_signal_during_a_write_leaves_no_temporary_file(tree: Path, signum: int, code: int, line: str) -> None:
    run = paused_write(tree, tree / "signals")
    os.kill(run.pid, signum)
    returncode, stderr = finish(run, tree / "signals")
    assert (returncode, stderr) == (code, line)
    assert temporaries(tree) == []
    assert (tree / "r.sarif").read_text() == "the previous report\n"


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_what_a_killed_run_left_is_removed_by_the_next_write_there(tree: Path) -> None:
    run = paused_write(tree, tree / "signals")
    os.kill(run.pid, signal.SIGKILL)
    finish(run, tree / "signals")
    (left,) = temporaries(tree)
    young = tree / ".r.sarif.0123abcd.tmp"  # as if another run had just made it: it may be writing it
    young.write_text("{")
    foreign = tree / ".notes.tmp"  # not mechlint's naming
    foreign.write_text("x")
    _age(foreign, 3600)
    _age(tree / left, 600)
    done = subprocess.run(
        [str(MECHLINT), "check", "--no-cache", "-o", "sarif:r.sarif", "content"], cwd=tree, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    assert temporaries(tree) == [young.name]
    assert foreign.exists()
    assert (tree / "r.sarif").read_text().startswith("{")


def test_another_runs_temporary_file_is_never_removed_while_it_writes(tree: Path) -> None:
    """Two runs write the same folder: the one paused mid-write holds its file's lock, however old it looks."""
    run = paused_write(tree, tree / "signals")
    try:
        (live,) = temporaries(tree)
        _age(tree / live, 600)
        done = subprocess.run(
            [str(MECHLINT), "check", "--no-cache", "-o", "sarif:other.sarif", "content"], cwd=tree, capture_output=True
        )
        assert done.returncode == 0, done.stderr
        assert temporaries(tree) == [live]
    finally:
        returncode, stderr = finish(run, tree / "signals")
    assert (returncode, stderr) == (0, "")
    assert temporaries(tree) == []
    assert (tree / "r.sarif").read_text().startswith("{")


def test_the_file_reaches_the_disk_before_its_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync file")
        real_fsync(fd)

    def replace(source: str, target: str) -> None:
        events.append("rename")
        real_replace(source, target)

    monkeypatch.setattr(safeio.os, "fsync", fsync)
    monkeypatch.setattr(safeio.os, "replace", replace)
    write_atomically(tmp_path / "m.json", b"{}\n")
    assert events == ["fsync file", "rename", "fsync folder"]
    assert (tmp_path / "m.json").read_bytes() == b"{}\n"
