"""What ``--since`` and ``--changed-files`` decide (``mechlint/run/changed.py``): the edges ``scripts/mutate.py``
found unchecked (issue 32).

Which revisions are refused and with which message, which mechanism files a set of changed paths selects (the
file itself, or one of its sources, relative to the source root), and the size past which a mechanism file's
sources are not read.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterator
from pathlib import Path

import pytest

from mechlint.provenance.worktree import Changes
from mechlint.run.changed import changed_paths, select_changed
from mechlint.run.discovery import Candidate, UsageError

from .gitrepo import commit, git, init, write

LIMIT = 10 * 1024 * 1024  # a mechanism file larger than this is not read for its sources


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init(tmp_path / "blog")
    commit(folder, "first", {"post.md": "v1\n"})
    return folder


@pytest.fixture
def opened() -> Iterator[list[Changes]]:
    """The comparisons a test made, closed at its end (each holds a ``cat-file``)."""
    changes: list[Changes] = []
    yield changes
    for one in changes:
        one.close()


def _refused(folder: Path, revision: str) -> str:
    with pytest.raises(UsageError) as raised:
        _, changes = changed_paths(folder, revision)
        changes.close()
    return str(raised.value)


# -- the revision ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("revision", "message"),
    [
        ("", "--since '': not a revision"),
        ("-x", "--since '-x': not a revision"),
        ("a" * 257, f"--since {'a' * 257!r}: not a revision"),
        ("a" * 256, f"--since {'a' * 256!r}: no such commit in this repository"),
        ("HEAD\u200b", "--since: the revision contains control characters"),
        ("HEAD\n", "--since: the revision contains control characters"),
        ("nosuch", "--since 'nosuch': no such commit in this repository"),
        ("HEAD^{tree}", "--since 'HEAD^{tree}': no such commit in this repository"),
        ("HEAD:post.md", "--since 'HEAD:post.md': no such commit in this repository"),
    ],
    ids=["empty", "option", "257", "256", "invisible", "newline", "unknown", "tree", "blob"],
)
def test_since_refuses_what_is_not_a_commit_and_says_why(repo: Path, revision: str, message: str) -> None:
    assert _refused(repo, revision) == message


def test_since_needs_a_git_repository(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    assert _refused(folder, "HEAD") == "--since needs a git repository"


def test_since_takes_a_commit_of_a_sha256_repository(tmp_path: Path, opened: list[Changes]) -> None:
    repo = tmp_path / "sha256"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", "--object-format=sha256")
    commit(repo, "first", {"post.md": "v1\n"})
    write(repo, "post.md", "v2\n")
    top, changes = changed_paths(repo, "HEAD")
    opened.append(changes)
    assert (top, "post.md" in changes, "other.md" in changes) == (repo.resolve(), True, False)


def test_since_takes_a_short_revision_and_compares_against_it(repo: Path, opened: list[Changes]) -> None:
    first = git(repo, "rev-parse", "HEAD")
    commit(repo, "second", {"new.md": "n\n"})
    top, changes = changed_paths(repo, first[:7])
    opened.append(changes)
    assert (top, "new.md" in changes, "post.md" in changes) == (repo.resolve(), True, False)


# -- which mechanism files a change selects -------------------------------------------------------------------


def _mechanism(folder: Path, name: str, data: object) -> Path:
    return write(folder, name, json.dumps(data) if not isinstance(data, str) else data)


def _selected(top: Path, files: list[Path], changed: Container[str], source_root: Path | None = None) -> list[str]:
    candidates = [Candidate(path=path, explicit=False) for path in files]
    return [path.relative_to(top).as_posix() for path in select_changed(candidates, top, changed, source_root)]


def test_select_changed_by_the_file_or_by_one_of_its_sources(tmp_path: Path) -> None:
    top = tmp_path.resolve()
    files = [
        _mechanism(top, "m/a.json", {"sources": [{"path": "post.md"}, {"path": "fig.svg"}]}),
        _mechanism(top, "m/b.json", {"sources": [{"path": "other.md"}]}),
        _mechanism(top, "m/c.json", {"sources": []}),
    ]
    assert _selected(top, files, {"fig.svg"}) == ["m/a.json"]
    assert _selected(top, files, {"m/c.json", "other.md"}) == ["m/b.json", "m/c.json"]
    assert _selected(top, files, {"nothing.md"}) == []


def test_select_changed_reads_sources_relative_to_the_source_root(tmp_path: Path) -> None:
    top = tmp_path.resolve()
    files = [_mechanism(top, "site/m/a.json", {"sources": [{"path": "content/post.md"}]})]
    assert _selected(top, files, {"site/content/post.md"}, top / "site") == ["site/m/a.json"]
    assert _selected(top, files, {"content/post.md"}, top / "site") == []
    assert _selected(top, files, {"content/post.md"}, top) == ["site/m/a.json"]
    assert _selected(top, files, {"content/post.md"}) == ["site/m/a.json"]


def test_select_changed_ignores_sources_when_the_source_root_is_outside_the_repository(tmp_path: Path) -> None:
    top = (tmp_path / "repo").resolve()
    files = [_mechanism(top, "m/a.json", {"sources": [{"path": "post.md"}]})]
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert _selected(top, files, {"post.md"}, outside) == []
    assert _selected(top, files, {"m/a.json"}, outside) == ["m/a.json"]


def test_select_changed_skips_a_candidate_outside_the_repository(tmp_path: Path) -> None:
    top = (tmp_path / "repo").resolve()
    inside = _mechanism(top, "m/a.json", {"sources": [{"path": "post.md"}]})
    outside = _mechanism(tmp_path, "m/b.json", {"sources": [{"path": "post.md"}]})
    assert _selected(top, [outside, inside], {"post.md"}) == ["m/a.json"]


@pytest.mark.parametrize(
    "data",
    [
        "{not json",
        {"sources": {"path": "post.md"}},
        {"sources": ["post.md", {"path": 7}, {"title": "post.md"}]},
        ["sources"],
    ],
    ids=["not-json", "sources-an-object", "no-source-has-a-path", "not-an-object"],
)
def test_select_changed_reads_no_sources_from_a_file_that_has_none_well_formed(tmp_path: Path, data: object) -> None:
    top = tmp_path.resolve()
    files = [_mechanism(top, "m/a.json", data), _mechanism(top, "m/b.json", {"sources": [{"path": "post.md"}]})]
    assert _selected(top, files, {"post.md"}) == ["m/b.json"]
    assert _selected(top, files, {"m/a.json"}) == ["m/a.json"]


@pytest.mark.parametrize(("size", "read"), [(LIMIT, True), (LIMIT + 1, False)], ids=["at-the-limit", "past-it"])
def test_select_changed_reads_the_sources_of_a_file_up_to_10_mib(tmp_path: Path, size: int, read: bool) -> None:
    top = tmp_path.resolve()
    text = json.dumps({"sources": [{"path": "post.md"}]})
    path = _mechanism(top, "m/a.json", text + " " * (size - len(text)))
    assert path.stat().st_size == size
    assert _selected(top, [path], {"post.md"}) == (["m/a.json"] if read else [])
    assert _selected(top, [path], {"m/a.json"}) == ["m/a.json"]


def test_select_changed_asks_a_working_tree_comparison_about_sources(repo: Path, opened: list[Changes]) -> None:
    """``--since``: the comparison is prepared for every path at once, then asked about each."""
    commit(repo, "mechanisms", {"m/a.json": json.dumps({"sources": [{"path": "post.md"}]}), "m/b.json": "{}"})
    write(repo, "post.md", "v2\n")
    top, changes = changed_paths(repo, "HEAD")
    opened.append(changes)
    files = [repo / "m/a.json", repo / "m/b.json"]
    assert _selected(top, files, changes) == ["m/a.json"]


def test_since_names_git_failing_on_the_revision(repo: Path) -> None:
    """The commit is there but its tree is not (a broken repository): git's words, after ``--since:``."""
    commit(repo, "second", {"post.md": "v2\n"})
    tree = git(repo, "rev-parse", "HEAD~1^{tree}")
    loose = repo / ".git" / "objects" / tree[:2] / tree[2:]
    loose.chmod(0o644)
    loose.unlink()
    assert _refused(repo, "HEAD~1") == "--since: git failed: fatal: not a tree object"
