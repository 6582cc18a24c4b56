"""Issue 30, points 5 and 12: a lock taken on a cache in the middle of a run, and a cache with a damaged page.

Real processes: ``tests/paused_run.py`` holds a run just before its first
query of the blob cache while this test's own connection takes an exclusive
lock, and counts the statements that met the lock (each waited the busy
timeout).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from .conftest import CLEAN
from .gitrepo import commit, init, write

MECHLINT = Path(sys.executable).parent / "mechlint"
PAUSED_RUN = Path(__file__).resolve().parent / "paused_run.py"
FIRST_QUERY = "mechlint.provenance.cache:BlobCache._rows_of"
CHECK = ("check", "--no-cache", "content")


def _sha(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


def pinned_repository(folder: Path) -> Path:
    """Two mechanisms: one pins its source as it is, one pins bytes the source held a commit ago."""
    repo = init(folder)
    commit(repo, "first", {"a.md": "a v1\n", "b.md": "b v1\n"})
    commit(repo, "second", {"a.md": "a v2\n"})
    base = json.loads(CLEAN.read_text(encoding="utf-8"))
    for name, path, text in (("fresh", "b.md", "b v1\n"), ("stale", "a.md", "a v1\n")):
        data = {**base, "sources": [{"path": path, "description": "A source.", "sha256": _sha(text)}]}
        write(repo, f"content/mechanisms/{name}.json", json.dumps(data, indent=2))
    return repo


def check(repo: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MECHLINT), "check", "--no-cache", *extra, "content"], cwd=repo, capture_output=True, text=True
    )


def test_a_lock_taken_during_a_run_costs_one_wait_and_changes_no_verdict(tmp_path: Path) -> None:
    repo = pinned_repository(tmp_path / "blog")
    expected = check(repo)
    assert expected.returncode == 1 and "provenance/" in expected.stdout, expected.stdout
    blobs = repo / ".git" / "mechlint" / "blobs.sqlite3"
    assert blobs.is_file()
    signals, count = tmp_path / "signals", tmp_path / "busy"
    signals.mkdir()
    hooks = ("--count-busy", str(count), "--")
    run = subprocess.Popen(
        [sys.executable, str(PAUSED_RUN), "--pause", FIRST_QUERY, "--folder", str(signals), *hooks, *CHECK],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lock = sqlite3.connect(blobs, isolation_level=None)
    try:
        deadline = time.monotonic() + 60
        while not list(signals.glob("paused-*")) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert list(signals.glob("paused-*")), run.communicate()
        lock.execute("BEGIN EXCLUSIVE")  # another process's lock, taken while the run has the cache open
        (signals / "go").touch()
        stdout, stderr = run.communicate(timeout=300)
    finally:
        (signals / "go").touch()
        if run.poll() is None:
            run.kill()
            run.wait()
        lock.close()
    assert (run.returncode, stdout) == (expected.returncode, expected.stdout), stderr
    assert count.read_text() == "1"  # one statement waited for the lock; the run went on without the file
    assert check(repo).stdout == expected.stdout


def _damage(database: Path) -> None:
    """Overwrite every page but the first three (the schema and the roots): each lookup meets a damaged page."""
    with sqlite3.connect(database) as connection:
        page_size, pages = (connection.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_size", "page_count"))
    connection.close()
    assert pages > 6, pages
    with open(database, "r+b") as stream:
        stream.seek(3 * page_size)
        stream.write(b"\xff" * (pages - 3) * page_size)


def _entries(database: Path) -> int:
    connection = sqlite3.connect(database)
    try:
        assert connection.execute("PRAGMA quick_check").fetchone() == ("ok",)
        return int(connection.execute("SELECT count(*) FROM entries").fetchone()[0])
    finally:
        connection.close()


def test_a_result_cache_with_a_damaged_page_is_made_again(tmp_path: Path) -> None:
    content = tmp_path / "blog" / "content" / "mechanisms"
    content.mkdir(parents=True)
    text = CLEAN.read_text(encoding="utf-8")
    for index in range(150):
        (content / f"m{index}.json").write_text(text.replace('"title": "', f'"title": "Case {index}: ', 1))
    cached = [str(MECHLINT), "check", "--cache", "content"]
    first = subprocess.run(cached, cwd=tmp_path / "blog", capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    (database,) = Path(os.environ["XDG_CACHE_HOME"]).glob("mechlint/results/*/results.sqlite3")
    assert not Path(f"{database}-wal").exists()
    assert _entries(database) == 150
    _damage(database)
    second = subprocess.run(cached, cwd=tmp_path / "blog", capture_output=True, text=True)
    assert (second.returncode, second.stdout) == (0, first.stdout)
    assert _entries(database) == 150  # made again, and filled by the run that found the damage
    third = subprocess.run(cached, cwd=tmp_path / "blog", capture_output=True, text=True)
    assert third.stdout == first.stdout
