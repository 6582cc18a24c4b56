"""Partial clones, and a complete clone that lost an object: what history cannot say is never a verdict.

A ``--filter=blob:none`` clone has every commit but only the blobs it
checked out; mechlint never fetches (``GIT_NO_LAZY_FETCH``), so git's
``cat-file`` stops at a blob the clone left out. That is "not in this clone"
(a warning whose advice fetches the objects, not ``--unshallow``), never
"git stopped unexpectedly" and never a digest-mismatch. In a complete clone
a blob of a path's history that git has no object for is an error: the
repository is broken, and the version it lost may hold the pinned bytes; so
is a path whose history git fails to list (never "nothing ever was there").
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mechlint.provenance.git import CatFile, Git

from .gitrepo import _ENV, commit, git, init

V1 = "".join(f"Line {n} of the first version.\n" for n in range(12))
V2 = V1 + "A paragraph added later.\n"
POST = "sources/post.md"
PARTIAL_FIX = (
    "fetch the objects the clone left out (git fetch --refetch --no-filter; in GitHub Actions, actions/checkout "
    "without a filter)"
)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def mechlint(folder: Path, *args: str) -> tuple[int, str, str]:
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "mechlint", *args], cwd=folder, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def provenance(folder: Path) -> tuple[int, list[dict[str, Any]]]:
    """The exit code the ``provenance/`` results alone would give, and those results (JSON report)."""
    code, out, err = mechlint(folder, "check", "--no-cache", "--format", "json", "content")
    assert code in (0, 1), err
    results = [r for r in json.loads(out)["results"] if r["rule"].startswith("provenance/")]
    return (1 if any(r["level"] == "error" for r in results) else 0), results


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A blog whose source changed after it was pinned (v1 pinned, v2 in HEAD), served with filters allowed."""
    repo = init(tmp_path / "origin")
    commit(repo, "v1", {POST: V1})
    commit(repo, "v2", {POST: V2})
    mechanism = json.dumps({"sources": [{"path": POST, "sha256": sha(V1)}]}, indent=2) + "\n"
    commit(repo, "mechanism", {"content/mechanisms/m.json": mechanism})
    git(repo, "config", "uploadpack.allowFilter", "true")
    return repo


def clone(origin: Path, target: Path, *options: str) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "--no-local", *options, origin.as_uri(), str(target)],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    return target


def lacks(repo: Path, oid: str) -> bool:
    """Whether the clone has no object ``oid`` (asked without letting git fetch it)."""
    env = {**_ENV, "GIT_NO_LAZY_FETCH": "1"}
    done = subprocess.run(["git", "cat-file", "-e", oid], cwd=repo, env=env, capture_output=True, check=False)
    return done.returncode != 0


def test_a_stale_pin_in_a_partial_clone_is_history_unavailable_with_the_partial_clones_fix(
    origin: Path, tmp_path: Path
) -> None:
    repo = clone(origin, tmp_path / "partial", "--filter=blob:none")
    assert lacks(repo, git(repo, "rev-parse", f"HEAD~2:{POST}"))  # the test means something: v1 is left out
    code, results = provenance(repo)
    assert code == 0
    assert [(r["rule"], r["level"], r["message"]) for r in results] == [
        (
            "provenance/history-unavailable",
            "warning",
            f'the pinned bytes of "{POST}" are not in the history this clone has, but this is a partial clone, '
            "which leaves objects out until they are needed; mechlint could not judge provenance/stale-source or "
            f"provenance/digest-mismatch; {PARTIAL_FIX}",
        )
    ]
    code, out, err = mechlint(repo, "diff", "content")
    assert code == 1, err  # a source differs from its pin
    assert (
        "pinned bytes not shown: the pinned bytes are not in the history this clone has, as this is a partial "
        f"clone, which leaves objects out until they are needed: {PARTIAL_FIX}\n"
    ) in out
    assert "stopped unexpectedly" not in out + err


def test_the_partial_clones_fix_works_and_the_verdict_follows(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "partial", "--filter=blob:none")
    git(repo, "fetch", "-q", "--refetch", "--no-filter")
    code, results = provenance(repo)
    assert [(r["rule"], r["level"]) for r in results] == [("provenance/stale-source", "error")]
    assert code == 1


def test_a_shallow_partial_clone_names_both_and_fetches_both(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "both", "--filter=blob:none", "--depth", "1")
    code, results = provenance(repo)
    assert code == 0
    assert [(r["rule"], r["level"]) for r in results] == [("provenance/history-unavailable", "warning")]
    assert results[0]["message"].endswith(
        "but this is a shallow and partial clone; mechlint could not judge provenance/stale-source or "
        "provenance/digest-mismatch; fetch the full history and the objects the clone left out (git fetch "
        "--unshallow --refetch --no-filter; in GitHub Actions, actions/checkout with fetch-depth: 0 and without a "
        "filter)"
    )
    git(repo, "fetch", "-q", "--unshallow", "--refetch", "--no-filter")
    assert [r["rule"] for r in provenance(repo)[1]] == ["provenance/stale-source"]


def test_a_source_outside_a_sparse_partial_checkout_is_unknown_not_gone(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "sparse", "--filter=blob:none", "--no-checkout")
    git(repo, "sparse-checkout", "set", "--no-cone", "/content/")
    git(repo, "checkout", "-q", "main")
    assert not (repo / "sources").exists()
    assert lacks(repo, git(repo, "rev-parse", f"HEAD:{POST}"))
    code, results = provenance(repo)
    assert code == 0
    assert [(r["rule"], r["level"], r["message"]) for r in results] == [
        (
            "provenance/history-unavailable",
            "warning",
            f'"{POST}" is outside the sparse checkout, and neither its bytes in HEAD nor the pinned ones are in '
            "this clone, but this is a partial clone, which leaves objects out until they are needed; mechlint "
            f"could not judge provenance/stale-source or provenance/digest-mismatch; {PARTIAL_FIX}",
        )
    ]
    code, out, err = mechlint(repo, "diff", "content")
    assert code == 0, err
    assert out == ""
    assert err == (
        "1 source cannot be compared with a pin (mechlint check reports it):\n"
        f'  "{POST}": it is outside the sparse checkout, and its bytes are not in the clone '
        "(provenance/history-unavailable)\n"
    )


def _loose(repo: Path) -> None:
    """Every object of ``repo`` loose (one file each), so that one can be removed."""
    packs = repo / ".git" / "objects" / "pack"
    kept = repo.parent / "packs"
    kept.mkdir()
    for pack in packs.iterdir():
        shutil.move(pack, kept / pack.name)
    for pack in kept.glob("*.pack"):
        with pack.open("rb") as stream:
            subprocess.run(["git", "unpack-objects", "-q"], cwd=repo, stdin=stream, env=_ENV, check=True)


def test_a_complete_clone_that_lost_a_version_is_an_error_not_a_digest_mismatch(origin: Path, tmp_path: Path) -> None:
    repo = clone(origin, tmp_path / "full")
    _loose(repo)
    lost = git(repo, "rev-parse", f"HEAD~2:{POST}")
    holder = git(repo, "rev-parse", "HEAD~2")
    (repo / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
    assert lacks(repo, lost)
    code, results = provenance(repo)
    assert code == 1
    assert [(r["rule"], r["level"], r["message"]) for r in results] == [
        (
            "provenance/history-unavailable",
            "error",
            f'looking up "{POST}" failed (git has no object {lost[:12]}, the file\'s bytes in commit '
            f"{holder[:12]}), but git could not read all of the history; this could not be checked, so it is an "
            "error: repair the repository (git fsck) or make a fresh clone",
        )
    ]


def test_a_lost_version_that_cannot_hold_the_pin_changes_nothing(origin: Path, tmp_path: Path) -> None:
    """The pinned bytes are found in a version git has: an older version it lost does not matter."""
    repo = clone(origin, tmp_path / "full")
    commit(repo, "v3", {POST: V2 + "More.\n"})
    mechanism = json.dumps({"sources": [{"path": POST, "sha256": sha(V2)}]}, indent=2) + "\n"
    commit(repo, "pin v2", {"content/mechanisms/m.json": mechanism})
    _loose(repo)
    lost = git(repo, "rev-parse", f"HEAD~4:{POST}")  # v1
    (repo / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
    assert [r["rule"] for r in provenance(repo)[1]] == ["provenance/stale-source"]


def test_cat_file_in_a_partial_clone_answers_missing_for_each_left_out_object_and_goes_on(
    origin: Path, tmp_path: Path
) -> None:
    repo = clone(origin, tmp_path / "partial", "--filter=blob:none")
    v1, v2 = git(repo, "rev-parse", f"HEAD~2:{POST}"), git(repo, "rev-parse", f"HEAD:{POST}")
    reader = CatFile(Git(repo))
    try:
        answers = [(oid, kind, content) for oid, kind, content in reader.read_many([v1, v2, v1, v2])]
    finally:
        reader.close()
    assert answers == [
        (v1, "missing", None),
        (v2, "blob", V2.encode()),
        (v1, "missing", None),
        (v2, "blob", V2.encode()),
    ]


def _levels(repo: Path) -> list[tuple[str, str, str]]:
    from mechlint import lint
    from mechlint.config import Config

    report = lint([repo / "content"], Config(root=repo), root=repo)
    found = [
        (r.rule_id, r.level.name.lower(), r.message) for r in report.results if r.rule_id.startswith("provenance/")
    ]
    return sorted(found)


@pytest.mark.parametrize("pin", [None, "not a digest"])
def test_a_path_whose_history_git_cannot_list_is_never_said_to_have_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pin: str | None
) -> None:
    """A complete clone; nothing at the path, unpinned or pinned with a malformed sha256, and ``git log`` fails:
    "nothing ever was" would be a guess, so history-unavailable says it is unknown, as an error."""
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.git import History

    repo = init(tmp_path / "blog")
    source = {"path": "sources/gone.md"} if pin is None else {"path": "sources/gone.md", "sha256": pin}
    commit(repo, "mechanism", {"content/mechanisms/m.json": json.dumps({"sources": [source]})})

    def failing(self: History, path: str) -> list[object]:
        raise GitError("git log failed: a test")

    monkeypatch.setattr(History, "path_history", failing)
    assert _levels(repo) == [
        (
            "provenance/history-unavailable",
            "error",
            'nothing is at "sources/gone.md" in the working tree, and looking up its history failed (git log '
            "failed: a test), but git could not read all of the history; this could not be checked, so it is an "
            "error: repair the repository (git fsck) or make a fresh clone",
        ),
        *([("provenance/unpinned-source", "warning", _UNPINNED)] if pin is None else []),
    ]


_UNPINNED = 'the source "sources/gone.md" has no sha256; run mechlint pin to add it'


def test_a_path_whose_history_git_lists_as_empty_is_missing(tmp_path: Path) -> None:
    """The same source when git answers: missing-source, since nothing ever was there."""
    repo = init(tmp_path / "blog")
    commit(repo, "mechanism", {"content/mechanisms/m.json": json.dumps({"sources": [{"path": "sources/gone.md"}]})})
    assert [(rule, level) for rule, level, _ in _levels(repo)] == [
        ("provenance/missing-source", "error"),
        ("provenance/unpinned-source", "warning"),
    ]


def test_a_complete_clone_where_git_fails_without_a_broken_repository_is_never_told_to_fetch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is missing from a complete clone: when git fails for a reason that is no broken repository, the
    warning says to run again once git can read it (or the error's own fix), never to fetch history."""
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.git import History

    repo = init(tmp_path / "blog")
    commit(repo, "v1", {POST: V1})
    commit(repo, "v2", {POST: V2})
    mechanism = json.dumps({"sources": [{"path": POST, "sha256": sha(V1)}]})
    commit(repo, "mechanism", {"content/mechanisms/m.json": mechanism})

    def failing(self: History, path: str) -> list[object]:
        raise GitError("git is not installed", broken=False)

    monkeypatch.setattr(History, "path_history", failing)
    assert _levels(repo) == [
        (
            "provenance/history-unavailable",
            "warning",
            f'looking up "{POST}" failed (git is not installed), but git could not read all of the history; '
            "mechlint could not judge provenance/stale-source or provenance/digest-mismatch; run mechlint again "
            "once git can read the repository (git status says what stops it)",
        )
    ]

    def refused(self: History, path: str) -> list[object]:
        raise GitError("git refuses to read this repository", broken=False, fix="allow it (a test)")

    monkeypatch.setattr(History, "path_history", refused)
    assert _levels(repo)[0][2].endswith("; allow it (a test)")


def test_pin_in_a_sparse_partial_clone_says_why_it_cannot_and_how_to_fetch(origin: Path, tmp_path: Path) -> None:
    """``pin`` (through ``Provenance.locate``) cannot read a source whose bytes neither the checkout nor the
    clone has: it says so, and how to fetch them, never that no commit held the bytes."""
    repo = clone(origin, tmp_path / "sparse", "--filter=blob:none", "--no-checkout")
    git(repo, "sparse-checkout", "set", "--no-cone", "/content/")
    git(repo, "checkout", "-q", "main")
    code, out, err = mechlint(repo, "pin", "--check", "content/mechanisms/m.json")
    assert (
        f'/sources/0: not pinned: "{POST}" is outside the sparse checkout, and neither its bytes in HEAD nor the '
        "pinned ones are in this clone: this is a partial clone, which leaves objects out until they are needed; "
        f"{PARTIAL_FIX}"
    ) in err, (code, out, err)


def _cat_file_answering(monkeypatch: pytest.MonkeyPatch, answer: bytes) -> None:
    """``git cat-file --batch`` replaced by a process that reads its questions, prints ``answer`` and ends."""
    import sys

    from mechlint.provenance import invoke

    real = invoke.start
    script = f"import sys; sys.stdin.readline(); sys.stdout.buffer.write({answer!r}); sys.stdout.flush()"

    def start(command: list[str], cwd: str, env: dict[str, str], *, interactive: bool) -> subprocess.Popen[bytes]:
        if "cat-file" in command:
            return real([sys.executable, "-c", script], cwd, env, interactive=interactive)
        return real(command, cwd, env, interactive=interactive)

    monkeypatch.setattr(invoke, "start", start)


@pytest.mark.parametrize(
    "answer",
    [b"", b"%s blob 10\nabc"],
    ids=["stopped before the header", "stopped inside the content"],
)
def test_cat_file_stopping_in_a_complete_clone_is_an_error(
    origin: Path, monkeypatch: pytest.MonkeyPatch, answer: bytes
) -> None:
    """Outside a partial clone nothing may be left out: a cat-file that stops is a corrupt object, an error."""
    from mechlint.provenance.errors import GitError

    oid = git(origin, "rev-parse", f"HEAD:{POST}")
    _cat_file_answering(monkeypatch, answer.replace(b"%s", oid.encode()))
    reader = CatFile(Git(origin))
    try:
        with pytest.raises(GitError) as raised:
            list(reader.read_many([oid]))
    finally:
        reader.close()
    assert str(raised.value) == "git cat-file stopped unexpectedly (a corrupt object?)"
    assert raised.value.broken is True
