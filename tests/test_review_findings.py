"""What a review of issue 16 and 19's changes found: odd source paths, long report names, a git that leaves
a program holding its pipes, and a blob cache that SQLite's quick check finds damaged."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config
from mechlint.provenance import invoke
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.errors import GitError
from mechlint.safety.safeio import write_atomically

from .gitrepo import commit, init, write

CLEAN = Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json"


def test_a_lone_surrogate_in_a_source_path_is_an_unsafe_path_and_the_other_sources_are_still_judged(
    tmp_path: Path,
) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["sources"] = [
        {"path": "\ud800x.md", "description": "A source."},
        {"path": "../../etc/passwd", "description": "Another."},
    ]
    write(repo, "content/mechanisms/m.json", json.dumps(data, indent=2))  # "\ud800" stays an escape
    report = lint([repo / "content"], Config(root=repo), root=repo)
    found = [(r.rule_id, r.pointer, r.message) for r in report.results]
    assert not [f for f in found if f[0] == "mechlint/internal-error"], found
    unsafe = [f for f in found if f[0] == "provenance/unsafe-path"]
    assert [f[1] for f in unsafe] == ["/sources/0/path", "/sources/1/path"]
    assert "U+D800, a lone surrogate" in unsafe[0][2]


def test_a_report_name_as_long_as_the_file_system_allows_is_written(tmp_path: Path) -> None:
    """The temporary file beside it is ``.NAME.XXXXXXXX.tmp``: 14 more bytes, as with ``tempfile.mkstemp``."""
    target = tmp_path / ("r" * 240)
    write_atomically(target, b"report")
    assert target.read_bytes() == b"report"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.skipif(shutil.which("setsid") is None, reason="needs setsid")
def test_a_command_whose_program_keeps_its_pipes_open_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command ends, but a program it started in a session of its own holds its output open."""
    monkeypatch.setattr(invoke, "STALL_SECONDS", 0.5)
    started = time.monotonic()
    with pytest.raises(GitError, match="no progress"):
        invoke.run(["sh", "-c", "setsid sleep 6 & echo started"], "/", invoke.clean_environment(), "test")
    assert time.monotonic() - started < 4


def test_a_blob_cache_that_fails_the_quick_check_is_made_again(tmp_path: Path) -> None:
    common = tmp_path / ".git"
    common.mkdir()
    first = BlobCache(common)
    path = Path(first.location)
    first.add([("a" * 40, "blob", "b" * 64, None)])
    first.connection.close()
    # a row that breaks a NOT NULL constraint: SQLite's quick check reports it as a row, it does not raise
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'kind TEXT NOT NULL', 'kind TEXT') WHERE name = 'blobs'"
    )
    connection.close()
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("INSERT INTO blobs VALUES (?, NULL, NULL, NULL)", ("c" * 40,))
    connection.execute("PRAGMA writable_schema = ON")
    connection.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'kind TEXT,', 'kind TEXT NOT NULL,') WHERE name = 'blobs'"
    )
    connection.close()
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    connection.close()
    again = BlobCache(common)
    assert again.location == str(path)
    assert again.known(["a" * 40, "c" * 40]) == set()  # made again: nothing of the damaged file is believed


def test_git_run_still_returns_everything_a_command_writes() -> None:
    code, out, err = invoke.run(
        ["sh", "-c", "head -c 3000000 /dev/zero; sleep 0.5; echo tail >&2"], "/", invoke.clean_environment(), "test"
    )
    assert (code, len(out), err) == (0, 3_000_000, b"tail\n")
