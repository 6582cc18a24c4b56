"""Caches never outlive the repository's answers (issue 30, point 2): real clones, real transitions, the real CLI.

After each transition that changes which objects a clone has and no ref (a
partial clone's missing blobs fetched, a shallow clone deepened), a run with
every cache on gives what a fresh run gives (no ``.git/mechlint``, an empty
result cache). ``--cache`` turns the result cache on as a run of 50 files or
more does by default.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .gitrepo import _ENV, commit, git, init

SOURCES = 4
MECHANISM = "content/mechanisms/m.json"


def sha(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """Sources pinned at v1, changed to v2, then a few commits, then the mechanism: depth 1 lacks v1."""
    repo = init(tmp_path / "origin")
    git(repo, "config", "uploadpack.allowFilter", "true")
    commit(repo, "root")
    v1 = {f"sources/s{n}.md": f"version 1 of source {n}\n" for n in range(SOURCES)}
    commit(repo, "v1", dict(v1))
    commit(repo, "v2", {path: data.replace("version 1", "version 2") for path, data in v1.items()})
    for n in range(5):
        commit(repo, f"later {n}")
    pins = [{"path": path, "sha256": sha(data)} for path, data in v1.items()]
    commit(repo, "mechanism", {MECHANISM: json.dumps({"sources": pins}, indent=2) + "\n"})
    return repo


def clone(origin: Path, target: Path, *options: str) -> Path:
    subprocess.run(
        ["git", "clone", "-q", *options, origin.as_uri(), os.fspath(target)],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    return target


def fetching(repo: Path, *args: str) -> None:
    """A git command that may fetch from the origin (a ``file://`` transport, allowed for the test)."""
    git(repo, "-c", "protocol.file.allow=always", *args)


def verdicts(repo: Path, *options: str, cache_home: Path | None = None) -> list[tuple[str, str, str]]:
    env = dict(os.environ)
    if cache_home is not None:
        env["XDG_CACHE_HOME"] = os.fspath(cache_home)
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--format", "json", "--select", "provenance", *options, MECHANISM],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    return sorted((r["rule"], r["level"], r["pointer"]) for r in json.loads(done.stdout)["results"])


def fresh(repo: Path, tmp_path: Path) -> list[tuple[str, str, str]]:
    """A run with no cache at all: the blob cache set aside, a new result cache folder."""
    kept = repo / ".git" / "mechlint"
    aside = tmp_path / "aside"
    if kept.exists():
        shutil.move(kept, aside)
    try:
        return verdicts(repo, cache_home=tmp_path / "fresh-cache")
    finally:
        if aside.exists():
            shutil.rmtree(kept, ignore_errors=True)
            shutil.move(aside, kept)


def stale_everywhere(found: list[tuple[str, str, str]]) -> bool:
    return found == [("provenance/stale-source", "error", f"/sources/{n}/sha256") for n in range(SOURCES)]


def unavailable_everywhere(found: list[tuple[str, str, str]]) -> bool:
    return found == [("provenance/history-unavailable", "warning", f"/sources/{n}/path") for n in range(SOURCES)]


def test_a_partial_clone_whose_missing_blobs_are_fetched(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "partial", "--filter=blob:none")
    assert unavailable_everywhere(verdicts(repo, "--cache"))
    missing = [
        line[1:] for line in git(repo, "rev-list", "--objects", "--all", "--missing=print").split() if "?" in line
    ]
    assert len(missing) == SOURCES
    refs = git(repo, "for-each-ref")
    for blob in missing:
        fetching(repo, "cat-file", "-e", blob)  # a lazy fetch: a new promisor pack, no ref changed
    assert git(repo, "for-each-ref") == refs
    assert git(repo, "rev-list", "--objects", "--all", "--missing=print").count("?") == 0
    after = verdicts(repo, "--cache")
    assert after == fresh(repo, tmp_path)
    assert stale_everywhere(after)


def test_a_shallow_clone_deepened(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "shallow", "--depth", "1")
    assert unavailable_everywhere(verdicts(repo, "--cache"))
    refs = git(repo, "for-each-ref")
    fetching(repo, "fetch", "-q", "--deepen=7")  # down to v1; still shallow (the root is not fetched)
    assert git(repo, "for-each-ref") == refs
    assert git(repo, "rev-parse", "--is-shallow-repository") == "true"
    assert verdicts(repo, "--no-cache") == fresh(repo, tmp_path)  # the blob cache alone
    after = verdicts(repo, "--cache")
    assert after == fresh(repo, tmp_path)
    assert stale_everywhere(after)


def test_a_shallow_clone_made_complete(origin: Path, tmp_path: Path) -> None:
    """``--unshallow`` removes the shallow file (a regression guard: the old key saw that, as this one does)."""
    repo = clone(origin, tmp_path / "shallow", "--depth", "1")
    assert unavailable_everywhere(verdicts(repo, "--cache"))
    fetching(repo, "fetch", "-q", "--unshallow")
    after = verdicts(repo, "--cache")
    assert after == fresh(repo, tmp_path)
    assert stale_everywhere(after)


def test_a_sparse_checkout_set_after_a_run(origin: Path, tmp_path: Path) -> None:
    """Leaving the sources out changes no ref and no file the mechanism names: the verdict must not change."""
    repo = clone(origin, tmp_path / "sparse")
    assert stale_everywhere(verdicts(repo, "--cache"))
    git(repo, "sparse-checkout", "set", "content")
    assert not (repo / "sources").exists()
    after = verdicts(repo, "--cache")
    assert after == fresh(repo, tmp_path)
    assert stale_everywhere(after)


def test_line_ending_attributes_changed_after_a_run(tmp_path: Path) -> None:
    """A ``.gitattributes`` that makes the CRLF file text changes its bytes as git stores them, and the verdict."""
    repo = init(tmp_path / "blog")
    crlf = "first line\r\nsecond line\r\n"
    pins = [{"path": "sources/s.md", "sha256": sha(crlf.replace("\r\n", "\n"))}]
    commit(repo, "crlf", {"sources/s.md": crlf, MECHANISM: json.dumps({"sources": pins}) + "\n"})
    before = verdicts(repo, "--cache")
    assert [rule for rule, _, _ in before] == ["provenance/digest-mismatch"]
    (repo / ".gitattributes").write_text("*.md text eol=crlf\n")
    after = verdicts(repo, "--cache")
    assert after == fresh(repo, tmp_path) == []
