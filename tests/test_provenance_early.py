"""History asked early (``mechlint/provenance/early.py``): the same answers, nothing left running, nothing read outside.

Every case runs ``mechlint check`` on a few named files twice, with the early
start and with it switched off (``early.FEW = 0``), and the reports must be
the same byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from mechlint.cli import main
from mechlint.provenance import early

from .gitrepo import commit, git, init, write

CLEAN = Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json"


def sha(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


def mechanism(repo: Path, relative: str, sources: list[dict[str, str]]) -> Path:
    data = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["sources"] = [{"description": "A source.", **source} for source in sources]
    return write(repo, relative, json.dumps(data, indent=2))


def _children() -> set[int]:
    """This process's child processes (Linux), to see that nothing git started is left."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            children = (task / "children").read_text()
        except OSError:  # the thread ended between the listing and the read: it has no children left
            continue
        found |= {int(pid) for pid in children.split()}
    return found


def _check(repo: Path, files: list[str], capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["check", "--format", "json", "--fail-on", "never", *extra, *files])
    return code, capsys.readouterr().out


def _both(
    repo: Path, files: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *extra: str
) -> str:
    monkeypatch.chdir(repo)
    before = _children()
    asked = _check(repo, files, capsys, *extra)
    assert _children() <= before  # nothing started early is left running
    monkeypatch.setattr(early, "FEW", 0)
    assert _check(repo, files, capsys, *extra) == asked
    monkeypatch.setattr(early, "FEW", 8)
    return asked[1]


@pytest.fixture
def blog(tmp_path: Path) -> Path:
    """A source edited after pinning (stale), one deleted (history), one renamed, one intact, one never there."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"a.md": "a1\n", "gone.md": "g\n", "old.md": "o\n", "same.md": "s\n"})
    commit(repo, "second", {"a.md": "a2\n", "gone.md": None})
    git(repo, "mv", "old.md", "new.md")
    commit(repo, "rename")
    sources = [
        {"path": "a.md", "sha256": sha("a1\n")},
        {"path": "gone.md", "sha256": sha("g\n")},
        {"path": "old.md", "sha256": sha("o\n")},
        {"path": "same.md", "sha256": sha("s\n")},
        {"path": "never.md", "sha256": sha("n\n")},
        {"path": "../outside.md", "sha256": sha("x\n")},
    ]
    mechanism(repo, "content/one/mechanisms/m.json", sources)
    mechanism(repo, "content/two/mechanisms/m.json", sources[:2])
    return repo


def test_the_same_report_with_and_without_the_early_start(
    blog: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _both(blog, ["content/one/mechanisms/m.json", "content/two/mechanisms/m.json"], capsys, monkeypatch)
    rules = {result["rule"] for result in json.loads(report)["results"]}
    assert {"provenance/stale-source", "provenance/missing-source"} <= rules  # history was asked and answered
    assert (blog / ".git" / "mechlint" / "blobs.sqlite3").exists()  # now a used clone: only HEAD and refs early
    assert (
        _both(blog, ["content/one/mechanisms/m.json", "content/two/mechanisms/m.json"], capsys, monkeypatch) == report
    )


def test_a_wrong_guess_costs_nothing_but_a_command(
    blog: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sources relative to a --root the early start does not know, provenance switched off, a broken configuration."""
    write(blog, "content/a.md", "a1\n")
    report = _both(blog, ["content/one/mechanisms/m.json"], capsys, monkeypatch, "--root", "content")
    assert '"provenance/stale-source"' not in report  # content/a.md holds the pinned bytes
    _both(blog, ["content/one/mechanisms/m.json"], capsys, monkeypatch, "--ignore", "provenance")
    write(blog, "mechlint.toml", "select = 3\n")
    _both(blog, ["content/one/mechanisms/m.json"], capsys, monkeypatch)


def test_a_repository_git_refuses_is_refused_the_same_way(
    blog: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(blog / ".git" / "config.worktree")  # vetting refuses a special file where git reads one
    report = _both(blog, ["content/one/mechanisms/m.json"], capsys, monkeypatch)
    assert "provenance/history-unavailable" in report


def test_a_broken_head_is_reported_the_same_way(
    blog: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (blog / ".git" / "refs" / "heads" / "main").write_text("0" * 40 + "\n")  # HEAD names a missing commit
    _both(blog, ["content/one/mechanisms/m.json"], capsys, monkeypatch)


def test_what_nobody_asked_is_stopped(blog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(blog)
    before = _children()
    early.begin(["content/one/mechanisms/m.json"])
    assert _children() - before  # git is at work already
    early.discard()
    assert _children() <= before
    assert early.take(blog.resolve()) is None  # discarded: the run opens history itself


def test_files_outside_the_repository_are_not_read_early(
    tmp_path: Path, blog: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = mechanism(tmp_path, "elsewhere/m.json", [{"path": "a.md", "sha256": sha("zzz\n")}])
    (blog / "content" / "link.json").symlink_to(outside)
    read: list[str] = []
    import mechlint.safety.safeio

    real_read = mechlint.safety.safeio.read_regular
    monkeypatch.setattr(
        mechlint.safety.safeio, "read_regular", lambda path, limit: read.append(str(path)) or real_read(path, limit)
    )
    monkeypatch.chdir(blog)
    early.begin(["content/link.json", "content/one/mechanisms/m.json"])
    try:
        assert read == [str((blog / "content/one/mechanisms/m.json").resolve())]
    finally:
        early.discard()


@pytest.mark.parametrize(
    "files",
    [
        ["content"],  # a folder: many files, the usual way
        [f"content/one/mechanisms/m{i}.json" for i in range(9)],  # more than FEW
        ["-"],
    ],
)
def test_only_a_few_named_files_start_early(blog: Path, monkeypatch: pytest.MonkeyPatch, files: list[str]) -> None:
    monkeypatch.chdir(blog)
    for name in files:
        if name.endswith(".json"):
            mechanism(blog, name, [])
    before = _children()
    early.begin(files)
    assert _children() <= before
    assert early.take(blog.resolve()) is None
