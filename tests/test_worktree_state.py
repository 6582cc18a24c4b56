"""The working tree against the index and HEAD (issue 32, point 2): ``is_dirty`` and ``--since``'s comparison.

What an attestation records as ``"dirty"`` and what ``--since`` counts as
changed, in real repositories of every shape: staged-only edits, ``git rm``,
committed symlinks, submodules, sparse checkouts, CRLF files, SHA-256
repositories and conflicts. Each case is asserted both ways (clean, then
changed) so that a comparison that always or never answers "changed" fails.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mechlint.provenance.git import open_history
from mechlint.provenance.worktree import Changes
from mechlint.run.changed import changed_paths

from .gitrepo import _ENV, commit, git, init, write

ARTICLE = "".join(f"Line {n}.\n" for n in range(10))


def dirty(repo: Path) -> bool:
    history = open_history(repo)
    try:
        return history.is_dirty()
    finally:
        history.close()


@pytest.fixture
def since_head() -> Iterator[list[Changes]]:
    """The comparisons a test made, closed at its end (each holds a ``cat-file``)."""
    opened: list[Changes] = []
    yield opened
    for changes in opened:
        changes.close()


def changed(repo: Path, revision: str, opened: list[Changes]) -> Changes:
    top, changes = changed_paths(repo, revision)
    assert top == repo.resolve()
    opened.append(changes)
    return changes


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init(tmp_path / "blog")
    commit(folder, "first", {"a.md": ARTICLE, "b.md": "b\n"})
    return folder


def test_a_clean_tree_is_clean(repo: Path, since_head: list[Changes]) -> None:
    assert not dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "a.md" not in changes and "b.md" not in changes


def test_an_unstaged_edit(repo: Path, since_head: list[Changes]) -> None:
    write(repo, "a.md", ARTICLE + "more\n")
    assert dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "a.md" in changes and "b.md" not in changes


def test_a_staged_only_edit(repo: Path, since_head: list[Changes]) -> None:
    """The working tree equals the index, the index differs from HEAD: only the index-vs-HEAD check sees it."""
    write(repo, "a.md", ARTICLE + "staged\n")
    git(repo, "add", "a.md")
    assert dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "a.md" in changes and "b.md" not in changes


def test_git_rm(repo: Path, since_head: list[Changes]) -> None:
    git(repo, "rm", "-q", "b.md")
    assert dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "b.md" in changes and "a.md" not in changes


def test_a_file_deleted_but_not_staged(repo: Path, since_head: list[Changes]) -> None:
    (repo / "b.md").unlink()
    assert dirty(repo)
    assert "b.md" in changed(repo, "HEAD", since_head)


def test_a_path_absent_everywhere_is_unchanged_and_a_new_file_is_changed(repo: Path, since_head: list[Changes]) -> None:
    changes = changed(repo, "HEAD", since_head)
    assert "never/there.md" not in changes
    write(repo, "new.md", "new\n")
    assert not dirty(repo)  # untracked files are not what HEAD vouches for
    assert "new.md" in changed(repo, "HEAD", since_head)


def test_a_committed_symlink(repo: Path, since_head: list[Changes]) -> None:
    os.symlink("a.md", repo / "link.md")
    git(repo, "add", "link.md")
    commit(repo, "link")
    assert not dirty(repo)
    assert "link.md" not in changed(repo, "HEAD", since_head)
    (repo / "link.md").unlink()
    os.symlink("b.md", repo / "link.md")
    assert dirty(repo)
    assert "link.md" in changed(repo, "HEAD", since_head)


def test_a_symlink_replaced_by_a_file_with_its_target_as_bytes(repo: Path, since_head: list[Changes]) -> None:
    """A regular file whose bytes are the link's target is not the link: git would record a new mode."""
    os.symlink("a.md", repo / "link.md")
    git(repo, "add", "link.md")
    commit(repo, "link")
    (repo / "link.md").unlink()
    write(repo, "link.md", "a.md")
    assert dirty(repo)
    assert "link.md" in changed(repo, "HEAD", since_head)


def test_a_submodule_is_its_own_repository(repo: Path, tmp_path: Path, since_head: list[Changes]) -> None:
    inner = init(tmp_path / "inner")
    commit(inner, "inner", {"x.md": "x\n"})
    subprocess.run(
        ["git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", os.fspath(inner), "sub"],
        cwd=repo,
        env=_ENV,
        check=True,
        capture_output=True,
    )
    commit(repo, "submodule")
    assert not dirty(repo)
    assert "sub" not in changed(repo, "HEAD", since_head)
    write(repo, "a.md", "edited\n")
    assert dirty(repo)


def test_a_sparse_checkout_leaves_paths_out_without_changing_them(repo: Path, since_head: list[Changes]) -> None:
    commit(repo, "folders", {"kept/k.md": "k\n", "out/o.md": "o\n"})
    git(repo, "sparse-checkout", "set", "kept")
    assert not (repo / "out").exists()
    assert not dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "out/o.md" not in changes and "kept/k.md" not in changes
    write(repo, "kept/k.md", "edited\n")
    assert dirty(repo)
    assert "kept/k.md" in changed(repo, "HEAD", since_head)


def test_a_sparse_path_changed_in_a_later_commit_is_changed_since_the_earlier(
    repo: Path, since_head: list[Changes]
) -> None:
    commit(repo, "folders", {"kept/k.md": "k\n", "out/o.md": "o\n"})
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "edit", {"out/o.md": "o2\n"})
    git(repo, "sparse-checkout", "set", "kept")
    changes = changed(repo, base, since_head)
    assert "out/o.md" in changes and "kept/k.md" not in changes


def test_crlf_files_of_an_autocrlf_checkout_are_clean(tmp_path: Path, since_head: list[Changes]) -> None:
    origin = init(tmp_path / "origin")
    commit(origin, "first", {"a.md": ARTICLE})
    clone = tmp_path / "windows"
    subprocess.run(
        ["git", "clone", "-q", "-c", "core.autocrlf=true", os.fspath(origin), os.fspath(clone)],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    assert b"\r\n" in (clone / "a.md").read_bytes()
    assert not dirty(clone)
    assert "a.md" not in changed(clone, "HEAD", since_head)
    (clone / "a.md").write_bytes(ARTICLE.replace("\n", "\r\n").encode() + b"more\r\n")
    assert dirty(clone)
    assert "a.md" in changed(clone, "HEAD", since_head)


def test_crlf_bytes_git_would_store_as_they_are_are_a_change(repo: Path, since_head: list[Changes]) -> None:
    """Without autocrlf or attributes git stores CRLF as it is: an LF file turned CRLF is an edit."""
    (repo / "a.md").write_bytes(ARTICLE.replace("\n", "\r\n").encode())
    assert dirty(repo)
    assert "a.md" in changed(repo, "HEAD", since_head)


def test_a_sha256_repository(tmp_path: Path, since_head: list[Changes]) -> None:
    repo = tmp_path / "sha256"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main", "--object-format=sha256")
    commit(repo, "first", {"a.md": ARTICLE})
    assert len(git(repo, "rev-parse", "HEAD")) == 64
    assert not dirty(repo)
    assert "a.md" not in changed(repo, "HEAD", since_head)
    write(repo, "a.md", "edited\n")
    assert dirty(repo)
    assert "a.md" in changed(repo, "HEAD", since_head)


def test_a_conflict_is_dirty_and_changed(repo: Path, since_head: list[Changes]) -> None:
    git(repo, "checkout", "-q", "-b", "other")
    commit(repo, "theirs", {"a.md": "theirs\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "ours", {"a.md": "ours\n"})
    done = subprocess.run(["git", "merge", "-q", "other"], cwd=repo, env=_ENV, capture_output=True, check=False)
    assert done.returncode != 0
    assert "U" in git(repo, "status", "--porcelain").split("\n")[0][:2]
    assert dirty(repo)
    changes = changed(repo, "HEAD", since_head)
    assert "a.md" in changes and "b.md" not in changes
