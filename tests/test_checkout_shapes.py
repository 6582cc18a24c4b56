"""The checkouts users really have (issue 30, points 1, 3, 13 and 16): real git repositories, the real CLI.

A sparse checkout judges a left-out source by its bytes in HEAD; a
``core.autocrlf`` checkout pins what git stores, so ``check``, ``pin`` and
``--since`` agree with an LF checkout; a path absent at the revision, in the
index and in the working tree is not "changed"; a repository git refuses for
its owner says what git said and how to allow it, and gets no file of
mechlint's.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .gitrepo import _ENV, commit, git, init, write

V1 = "".join(f"Line {n} of the first version.\n" for n in range(12))
V2 = V1 + "A paragraph added later.\n"
MECHANISM = "content/mechanisms/m.json"


def sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def mechanism_json(sources: list[dict[str, str]]) -> str:
    return json.dumps({"sources": sources}, indent=2) + "\n"


def mechlint(folder: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    return done.returncode, done.stdout, done.stderr


def provenance(folder: Path, *files: str, env: dict[str, str] | None = None) -> tuple[int, list[dict[str, Any]]]:
    """The exit code and the ``provenance/`` results of ``mechlint check`` (JSON report) of ``files``."""
    code, out, err = mechlint(folder, "check", "--format", "json", *files, env=env)
    assert code in (0, 1), err
    results = [r for r in json.loads(out)["results"] if r["rule"].startswith("provenance/")]
    return (1 if any(r["level"] == "error" for r in results) else 0), results


# -- point 1: a sparse checkout judges a left-out source by its HEAD bytes ---------------------------------


@pytest.fixture
def sparse_repo(tmp_path: Path) -> Path:
    """Sources under ``sources/`` (v2 in HEAD), mechanisms under ``content/``; one pins v1, one pins v2."""
    repo = init(tmp_path / "blog")
    commit(repo, "v1", {"sources/post.md": V1, "sources/kept.md": V1})
    commit(repo, "v2", {"sources/post.md": V2})
    commit(
        repo,
        "mechanisms",
        {
            "content/mechanisms/stale.json": mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}]),
            "content/mechanisms/fresh.json": mechanism_json([{"path": "sources/post.md", "sha256": sha(V2)}]),
        },
    )
    return repo


def test_a_source_outside_the_sparse_checkout_is_judged_by_its_head_bytes(sparse_repo: Path) -> None:
    git(sparse_repo, "sparse-checkout", "set", "content")
    assert not (sparse_repo / "sources").exists()
    assert "S sources/post.md" in git(sparse_repo, "ls-files", "-t")
    code, results = provenance(sparse_repo, "content/mechanisms/stale.json")
    assert code == 1
    assert [(r["rule"], r["pointer"]) for r in results] == [("provenance/stale-source", "/sources/0/sha256")]
    assert "the file is outside the sparse checkout, so its bytes in HEAD were checked" in results[0]["message"]
    assert "gone from the working tree" not in results[0]["message"]
    code, results = provenance(sparse_repo, "content/mechanisms/fresh.json")
    assert (code, results) == (0, [])


def test_a_sparse_checkout_gives_the_verdicts_of_a_full_one(sparse_repo: Path) -> None:
    files = ["content/mechanisms/stale.json", "content/mechanisms/fresh.json"]
    full = provenance(sparse_repo, "--no-cache", *files)
    git(sparse_repo, "sparse-checkout", "set", "content")
    sparse = provenance(sparse_repo, "--no-cache", *files)
    assert full[0] == sparse[0] == 1
    assert [(r["path"], r["rule"]) for r in full[1]] == [(r["path"], r["rule"]) for r in sparse[1]]


def test_pin_in_a_sparse_checkout_pins_the_head_bytes(sparse_repo: Path) -> None:
    git(sparse_repo, "sparse-checkout", "set", "content")
    code, _, err = mechlint(sparse_repo, "pin", "content/mechanisms/stale.json")
    assert code == 0, err
    data = json.loads((sparse_repo / "content/mechanisms/stale.json").read_text())
    assert data["sources"][0]["sha256"] == sha(V2)


def test_a_path_deleted_in_head_is_gone_in_a_sparse_checkout_too(sparse_repo: Path) -> None:
    """A file deleted in HEAD is not in the index: outside or not, it is gone (regression guard)."""
    commit(sparse_repo, "delete", {"sources/post.md": None})
    git(sparse_repo, "sparse-checkout", "set", "content")
    _, results = provenance(sparse_repo, "content/mechanisms/stale.json")
    assert [r["rule"] for r in results] in (["provenance/gone-source"], ["provenance/frozen-resolved"])
    assert "outside the sparse checkout" not in results[0]["message"]


# -- point 3: line endings as git stores them ----------------------------------------------------------------


@pytest.fixture
def lf_origin(tmp_path: Path) -> Path:
    """A repository with LF files, a mechanism pinning the LF bytes of its source."""
    repo = init(tmp_path / "origin")
    commit(repo, "post", {"sources/post.md": V1})
    commit(
        repo,
        "mechanism",
        {"content/mechanisms/m.json": mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}])},
    )
    return repo


def autocrlf_clone(origin: Path, target: Path) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "-c", "core.autocrlf=true", os.fspath(origin), os.fspath(target)],
        env=_ENV,
        check=True,
        capture_output=True,
    )
    assert b"\r\n" in (target / "sources/post.md").read_bytes()
    return target


def test_check_pin_and_since_agree_in_an_autocrlf_checkout(lf_origin: Path, tmp_path: Path) -> None:
    clone = autocrlf_clone(lf_origin, tmp_path / "windows")
    assert provenance(clone, "content/mechanisms/m.json") == (0, [])
    code, out, err = mechlint(clone, "pin", "--check", "content/mechanisms/m.json")
    assert (code, out) == (0, ""), err
    code, out, err = mechlint(clone, "check", "--since", "HEAD", ".")
    assert code == 0
    assert "No mechanism file changed since HEAD" in out + err


def test_a_pin_made_in_an_autocrlf_checkout_holds_in_an_lf_checkout(lf_origin: Path, tmp_path: Path) -> None:
    clone = autocrlf_clone(lf_origin, tmp_path / "windows")
    edited = V2.replace("\n", "\r\n")
    (clone / "sources/post.md").write_bytes(edited.encode())
    code, _, err = mechlint(clone, "pin", "content/mechanisms/m.json")
    assert code == 0, err
    pinned = json.loads((clone / "content/mechanisms/m.json").read_text())["sources"][0]["sha256"]
    assert pinned == sha(V2)  # the bytes git stores: LF
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "edit on Windows")
    git(lf_origin, "pull", "-q", os.fspath(clone), "main")
    assert (lf_origin / "sources/post.md").read_bytes() == V2.encode()
    assert provenance(lf_origin, "content/mechanisms/m.json") == (0, [])
    assert provenance(clone, "content/mechanisms/m.json") == (0, [])


def stored_as_committed(repo: Path, path: str) -> bool:
    """Whether ``git add`` stores the working-tree file as HEAD has it (``hash-object`` reads no index: not it)."""
    os.utime(repo / path)
    git(repo, "add", "--", path)
    return git(repo, "diff", "--cached", "--name-only", "--", path) == ""


def test_a_file_committed_with_crlf_keeps_its_crlf_bytes(tmp_path: Path) -> None:
    """``text=auto`` stores a file committed with CRLF as it is (git's safer autocrlf): so does mechlint.

    A regression guard (passes before the change too): the conversion must not convert what git keeps.
    """
    repo = init(tmp_path / "blog")
    crlf = V1.replace("\n", "\r\n")
    commit(repo, "crlf", {"sources/post.md": crlf})
    write(repo, ".gitattributes", "* text=auto\n")
    write(repo, "content/mechanisms/m.json", mechanism_json([{"path": "sources/post.md", "sha256": sha(crlf)}]))
    commit(repo, "attributes", {".gitattributes": "* text=auto\n"})
    assert stored_as_committed(repo, "sources/post.md")
    assert provenance(repo, "content/mechanisms/m.json") == (0, [])


def test_an_eol_attribute_converts_a_crlf_file_back(tmp_path: Path) -> None:
    """``eol=crlf`` makes a path text: the working tree's CRLF bytes are stored, and pinned, as LF."""
    repo = init(tmp_path / "blog")
    commit(repo, "attributes", {".gitattributes": "*.md eol=crlf\n", "sources/post.md": V1})
    git(repo, "rm", "-q", "--cached", "sources/post.md")
    git(repo, "reset", "-q", "--hard")
    assert (repo / "sources/post.md").read_bytes() == V1.replace("\n", "\r\n").encode()
    write(repo, "content/mechanisms/m.json", mechanism_json([{"path": "sources/post.md"}]))
    code, _, err = mechlint(repo, "pin", "content/mechanisms/m.json")
    assert code == 0, err
    assert json.loads((repo / "content/mechanisms/m.json").read_text())["sources"][0]["sha256"] == sha(V1)


def test_a_binary_file_keeps_its_bytes_under_autocrlf(tmp_path: Path) -> None:
    """git guesses a file with a NUL is binary and stores it as it is: its CRLF pairs stay (a regression guard)."""
    repo = init(tmp_path / "blog")
    git(repo, "config", "core.autocrlf", "true")
    data = b"\x00\x01binary\r\nrecord\r\n"
    commit(repo, "binary", {"sources/data.bin": data})
    assert stored_as_committed(repo, "sources/data.bin")
    write(repo, "content/mechanisms/m.json", mechanism_json([{"path": "sources/data.bin", "sha256": sha(data)}]))
    assert provenance(repo, "content/mechanisms/m.json") == (0, [])


# -- point 16: absent on both sides is unchanged --------------------------------------------------------------


def test_since_does_not_select_a_mechanism_whose_source_is_absent_everywhere(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "post", {"sources/post.md": V1})
    commit(
        repo,
        "mechanisms",
        {
            "content/mechanisms/gone.json": mechanism_json([{"path": "sources/deleted.md", "sha256": sha(V1)}]),
            "content/mechanisms/kept.json": mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}]),
        },
    )
    git(repo, "branch", "base")
    commit(repo, "unrelated", {"README.md": "hello\n"})
    code, out, err = mechlint(repo, "check", "--since", "base", "--format", "json", ".")
    assert "No mechanism file changed since base" in out + err
    write(repo, "sources/deleted.md", "now here\n")  # new in the working tree: changed
    code, out, err = mechlint(repo, "check", "--since", "base", "--format", "json", "--select", "provenance", ".")
    assert code == 1, err  # the new file's bytes are not the pinned ones
    assert sorted(r["path"] for r in json.loads(out)["results"]) == ["content/mechanisms/gone.json"]


# -- point 13: a repository another user owns ------------------------------------------------------------------


def _give_away(folder: Path, uid: int) -> None:
    for parent, folders, files in os.walk(folder):
        os.chown(parent, uid, uid)
        for name in folders + files:
            os.chown(os.path.join(parent, name), uid, uid, follow_symlinks=False)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files away")
def test_a_repository_another_user_owns_is_explained_and_left_alone(tmp_path: Path) -> None:
    repo = init(tmp_path / "blog")
    commit(repo, "v1", {"sources/post.md": V1})
    commit(repo, "v2", {"sources/post.md": V2})
    write(repo, "content/mechanisms/m.json", mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}]))
    _give_away(repo, 65534)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": os.fspath(home)}
    code, results = provenance(repo, "content/mechanisms/m.json", env=env)
    assert code == 0  # a warning: the documented refusal
    assert [r["rule"] for r in results] == ["provenance/history-unavailable"]
    message = results[0]["message"]
    assert "detected dubious ownership in repository" in message  # what git said
    assert f"git config --global --add safe.directory {repo}" in message  # how to allow it
    assert "fetch the full history" not in message
    owners = {os.lstat(os.path.join(p, n)).st_uid for p, ds, fs in os.walk(repo / ".git") for n in ds + fs}
    assert owners == {65534}, "mechlint left a file of its own in another user's .git"
    assert not (repo / ".git" / "mechlint").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give files away")
def test_an_allowed_repository_of_another_user_gets_no_root_owned_cache(tmp_path: Path) -> None:
    """With ``safe.directory`` allowing it, git reads the repository; mechlint keeps its cache in its own home."""
    repo = init(tmp_path / "blog")
    commit(repo, "v1", {"sources/post.md": V1})
    commit(repo, "v2", {"sources/post.md": V2})
    write(repo, "content/mechanisms/m.json", mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}]))
    _give_away(repo, 65534)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[safe]\n\tdirectory = {repo}\n")
    env = {**os.environ, "HOME": os.fspath(home)}
    code, results = provenance(repo, "content/mechanisms/m.json", env=env)
    assert (code, [r["rule"] for r in results]) == (1, ["provenance/stale-source"])
    owners = {os.lstat(os.path.join(p, n)).st_uid for p, ds, fs in os.walk(repo / ".git") for n in ds + fs}
    assert owners == {65534}, "mechlint left a file of its own in another user's .git"


def test_line_endings_git_would_store_are_a_change_for_check_and_pin_alike(tmp_path: Path) -> None:
    """Without autocrlf or attributes git stores CRLF as it is: ``check`` and ``pin --check`` both see the edit."""
    repo = init(tmp_path / "blog")
    commit(
        repo,
        "post",
        {"sources/post.md": V1, MECHANISM: mechanism_json([{"path": "sources/post.md", "sha256": sha(V1)}])},
    )
    (repo / "sources/post.md").write_bytes(V1.replace("\n", "\r\n").encode())
    assert git(repo, "status", "--porcelain") == "M sources/post.md"
    code, results = provenance(repo, MECHANISM)
    assert (code, [r["rule"] for r in results]) == (1, ["provenance/stale-source"])
    assert results[0]["message"] == (
        'the pinned bytes of "sources/post.md" are from commit '
        f'{git(repo, "rev-parse", "--short=12", "HEAD")} ({git(repo, "show", "-s", "--format=%cs")}, "post"), '
        "and they were changed in the "
        "working tree and not committed (the pinned sha256 is that of this file with LF line endings: only its "
        "line endings differ, and git would store them as they are here; restore them, or pin after review); "
        "review the mechanism against the new version, then run mechlint pin"
    )
    code, out, _ = mechlint(repo, "pin", "--check", MECHANISM)
    assert code == 1 and '"sources/post.md" changed' in out
