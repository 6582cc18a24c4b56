"""Hostile git repositories: nothing runs, nothing hangs, and missing history never passes.

Each repository is built here. A program the repository names is a script
that leaves a marker file; the marker must never appear. Every case that
could hang runs in a thread with a time bound (the bound is generous: it
only tells a hang from an answer; speed is measured in ``benchmarks/``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from mechlint import lint
from mechlint.cli import main
from mechlint.config import Config
from mechlint.model import Level

from .gitrepo import commit, git, init, write

T = TypeVar("T")
BOUND = 120  # seconds: a hang, not a slow answer


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def bounded(call: Callable[[], T], hung: Callable[[], None] | None = None) -> T:
    """``call()`` in a thread; fails (instead of hanging the suite) when it does not return in time, after
    ``hung()`` (when given) made it return."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as error:  # handed to the test below
            box["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(BOUND)
    if thread.is_alive():
        if hung is not None:
            hung()  # makes it return, so that no thread outlives the test
            thread.join(BOUND)
        raise AssertionError(f"still running after {BOUND} s: it hangs")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def mechanism(repo: Path, sources: list[dict[str, str]]) -> Path:
    base = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "clean" / "mechanisms" / "prefix-cache.json").read_text()
    )
    base["sources"] = [{"description": "A source.", **source} for source in sources]
    return write(repo, "content/mechanisms/m.json", json.dumps(base, indent=2, ensure_ascii=False))


def findings(repo: Path) -> list[tuple[str, str, Level, str]]:
    report = lint([repo / "content"], Config(root=repo), root=repo)
    return [(r.rule_id, r.pointer, r.level, r.message) for r in report.results if r.rule_id.startswith("provenance/")]


def script(folder: Path, marker: Path, name: str = "evil") -> Path:
    """A program that leaves ``marker`` (and passes its input through, as a filter would)."""
    path = folder / name
    path.write_text(f"#!/bin/sh\ntouch '{marker}'\ncat\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "a-program-ran"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """post.md as v1 then v2, and a mechanism pinning v1: answering needs the history (stale-source)."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"post.md": "v1\n"})
    commit(repo, "second", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    return repo


STALE = [("provenance/stale-source", "/sources/0/sha256")]


def rules(found: list[tuple[str, str, Level, str]]) -> list[tuple[str, str]]:
    return [(rule, pointer) for rule, pointer, _, _ in found]


# -- nothing runs ----------------------------------------------------------------


def _sign_history(repo: Path) -> None:
    """Rewrite both commits with a (fake) signature, OpenPGP then SSH: git log --show-signature checks each."""
    parent = None
    for commit_id, kind in zip(git(repo, "rev-list", "--reverse", "HEAD").split(), ("PGP", "SSH"), strict=True):
        lines = git(repo, "cat-file", "commit", commit_id).split("\n")
        header_end = lines.index("")
        headers = [line for line in lines[:header_end] if not line.startswith("parent ")]
        if parent:
            headers.insert(1, f"parent {parent}")
        signature = f"gpgsig -----BEGIN {kind} SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END {kind} SIGNATURE-----"
        body = "\n".join([*headers, signature, *lines[header_end:]]) + "\n"
        done = subprocess.run(
            ["git", "hash-object", "-t", "commit", "-w", "--stdin"], cwd=repo, input=body.encode(), capture_output=True
        )
        parent = done.stdout.decode().strip()
    assert parent
    git(repo, "update-ref", "refs/heads/main", parent)


def test_signature_checks_never_run_gpg(repo: Path, marker: Path, tmp_path: Path) -> None:
    _sign_history(repo)
    evil = script(tmp_path, marker)
    for key in ("gpg.program", "gpg.openpgp.program", "gpg.ssh.program", "gpg.x509.program"):
        git(repo, "config", key, str(evil))
    git(repo, "config", "log.showSignature", "true")
    git(repo, "config", "gpg.format", "ssh")
    git(repo, "config", "gpg.ssh.allowedSignersFile", str(tmp_path / "signers"))
    (tmp_path / "signers").write_text("t@e ssh-ed25519 AAAA\n")
    subprocess.run(["git", "log", "-1"], cwd=repo, capture_output=True)  # the setup itself runs it
    assert marker.exists(), "the hostile setup must really run the program"
    marker.unlink()
    assert rules(findings(repo)) == STALE
    assert not marker.exists()


def _filtered(repo: Path, marker: Path, tmp_path: Path) -> None:
    """``*.md`` goes through a clean/smudge/process filter and a textconv diff driver that each run a program."""
    evil = script(tmp_path, marker)
    commit(repo, "attributes", {".gitattributes": "*.md filter=evil diff=evil merge=evil\n"})
    for key in (
        "filter.evil.clean",
        "filter.evil.smudge",
        "filter.evil.process",
        "diff.evil.textconv",
        "diff.evil.command",
        "merge.evil.driver",
        "diff.external",
        "core.fsmonitor",
        "core.pager",
        "pager.log",
        "pager.diff",
        "pager.status",
        "core.sshCommand",
        "core.askPass",
        "core.editor",
        "sequence.editor",
        "credential.helper",
        "core.alternateRefsCommand",
    ):
        git(repo, "config", key, str(evil))
    git(repo, "config", "filter.evil.required", "true")
    git(repo, "config", "core.hooksPath", str(tmp_path / "hooks"))
    (tmp_path / "hooks").mkdir()
    for hook in ("post-checkout", "pre-commit", "reference-transaction", "post-index-change", "fsmonitor-watchman"):
        script(tmp_path / "hooks", marker, hook)
    os.utime(repo / "post.md", (1, 1))  # a stat change: git diff and git status would run the clean filter
    write(repo, "post.md", "v3\n")
    subprocess.run(["git", "status", "--short"], cwd=repo, capture_output=True)  # the setup itself runs it
    assert marker.exists(), "the hostile setup must really run the program"
    marker.unlink()


def test_filters_textconv_pagers_hooks_and_fsmonitor_never_run_during_check(
    repo: Path, marker: Path, tmp_path: Path
) -> None:
    _filtered(repo, marker, tmp_path)
    assert rules(findings(repo)) == STALE
    assert not marker.exists()


def test_check_since_never_runs_a_clean_filter(
    repo: Path, marker: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = git(repo, "rev-parse", "HEAD")
    commit(repo, "mechanism", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    _filtered(repo, marker, tmp_path)
    monkeypatch.chdir(repo)
    assert main(["check", "--since", base, "--select", "provenance", "content"]) == 1
    assert not marker.exists()


def test_since_selects_by_bytes_committed_staged_unstaged_and_new(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mechlint.run.changed import changed_paths

    monkeypatch.chdir(repo)
    write(repo, "kept.md", "k\n")
    write(repo, "staged.md", "s\n")
    write(repo, "edited.md", "e\n")
    base = commit(repo, "base", {name: (repo / name).read_bytes() for name in ("kept.md", "staged.md", "edited.md")})
    commit(repo, "later", {"post.md": "v9\n"})
    write(repo, "staged.md", "s2\n")
    git(repo, "add", "staged.md")
    write(repo, "edited.md", "e2\n")
    write(repo, "new.md", "n\n")
    os.utime(repo / "kept.md", (1, 1))  # touched, same bytes: not a change
    _, changed = changed_paths(repo, base)
    assert [name in changed for name in ("post.md", "staged.md", "edited.md", "new.md", "kept.md")] == [
        True,
        True,
        True,
        True,
        False,
    ]


def test_attest_never_runs_a_clean_filter(
    repo: Path, marker: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    target = repo / "content/mechanisms/m.json"
    mechanism(repo, [{"path": "post.md", "sha256": sha("v2\n")}])
    assert main(["keygen", str(tmp_path / "me")]) == 0
    _filtered(repo, marker, tmp_path)
    write(repo, "post.md", "v2\n")
    assert main(["attest", str(target), "--key", str(tmp_path / "me.key")]) == 0
    assert not marker.exists()
    envelope = json.loads((repo / "content/mechanisms/m.json.intoto.jsonl").read_text())
    facts = json.loads(base64.b64decode(envelope["payload"]))["predicate"]["git"]
    assert facts["dirty"] is False  # the bytes are those committed (the filter would pass them through)


def _dirty(repo: Path) -> bool:
    from mechlint.provenance.git import open_history

    history = open_history(repo)
    try:
        return history.is_dirty()
    finally:
        history.close()


def test_dirty_is_decided_by_bytes(repo: Path) -> None:
    commit(repo, "all", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    assert not _dirty(repo)
    os.utime(repo / "post.md", (1, 1))
    assert not _dirty(repo)  # touched, same bytes
    write(repo, "post.md", "v3\n")
    assert _dirty(repo)
    write(repo, "post.md", "v2\n")
    write(repo, "new.md", "untracked files do not count\n")
    assert not _dirty(repo)
    write(repo, "post.md", "staged\n")
    git(repo, "add", "post.md")
    write(repo, "post.md", "v2\n")
    assert _dirty(repo)  # staged, even though the working tree is back
    git(repo, "reset", "-q")
    (repo / "post.md").unlink()
    assert _dirty(repo)


def test_dirty_allows_line_ending_conversion_and_lfs(repo: Path) -> None:
    pointer = f"version https://git-lfs.github.com/spec/v1\noid sha256:{sha('big')}\nsize 3\n"
    commit(repo, "eol", {".gitattributes": "*.txt text eol=crlf\n", "a.txt": "a\nb\n", "big.bin": pointer})
    (repo / "a.txt").unlink()
    git(repo, "checkout", "--", "a.txt")
    assert (repo / "a.txt").read_bytes() == b"a\r\nb\r\n"
    write(repo, "big.bin", "big")  # what git-lfs's smudge filter leaves in the working tree
    commit(repo, "all", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    write(repo, "big.bin", "big")
    assert not _dirty(repo)
    write(repo, "big.bin", "other")
    assert _dirty(repo)


def _partial_clone(tmp_path: Path) -> Path:
    source = init(tmp_path / "source")
    commit(source, "first", {"post.md": "v1\n"})
    commit(source, "second", {"post.md": "v2\n"})
    mechanism(source, [{"path": "post.md", "sha256": sha("v1\n")}])
    commit(source, "mechanism", {"content/mechanisms/m.json": (source / "content/mechanisms/m.json").read_bytes()})
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    done = subprocess.run(
        ["git", "clone", "-q", "--filter=blob:none", source.as_uri(), str(clone)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("this git cannot make a partial clone")
    return clone


@pytest.mark.parametrize(
    "settings",
    [
        {"remote.origin.uploadpack": "{evil}", "protocol.file.allow": "always", "protocol.allow": "always"},
        {"remote.origin.url": "ext::{evil} %S", "protocol.ext.allow": "always", "protocol.allow": "always"},
        {"remote.origin.url": "ssh://example.invalid/x", "core.sshCommand": "{evil}", "protocol.allow": "always"},
        {"remote.origin.url": "evil::x", "protocol.evil.allow": "always", "protocol.allow": "always"},
    ],
    ids=["upload-pack", "ext", "ssh", "remote-helper"],
)
def test_a_partial_clone_never_fetches_or_runs_a_transport(
    tmp_path: Path, marker: Path, settings: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clone = _partial_clone(tmp_path)
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    evil = script(bin_folder, marker)
    script(bin_folder, marker, "git-remote-evil")  # a remote helper that would be found on PATH
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    for key, value in settings.items():
        git(clone, "config", key, value.format(evil=evil))
    found = bounded(lambda: findings(clone))
    assert not marker.exists()
    assert rules(found) in (STALE, [("provenance/history-unavailable", "/sources/0/path")])


# -- configuration git cannot be kept from: refused, named, an error ------------------------------


def _refused(repo: Path, *words: str) -> None:
    found = bounded(lambda: findings(repo))
    assert rules(found) == [("provenance/history-unavailable", "/sources/0/path")]
    [(_, _, level, message)] = found
    assert level is Level.ERROR  # the answer was needed: not a pass
    for word in words:
        assert word in message


def test_an_include_is_refused_and_never_read(repo: Path, marker: Path, tmp_path: Path) -> None:
    included = tmp_path / "included"
    included.write_text(f"[core]\n\tfsmonitor = {script(tmp_path, marker)}\n")
    with (repo / ".git" / "config").open("a") as stream:
        stream.write(f"[INCLUDE]\n\tpath = {included}\n")
    _refused(repo, "include")
    assert not marker.exists()


def test_an_include_if_is_refused(repo: Path, tmp_path: Path) -> None:
    with (repo / ".git" / "config").open("a") as stream:
        stream.write(f'[includeIf "gitdir:/"]\n\tpath = {tmp_path / "nothing"}\n')
    _refused(repo, "include")


def test_a_worktree_elsewhere_is_refused(repo: Path, tmp_path: Path) -> None:
    elsewhere = init(tmp_path / "elsewhere")
    commit(elsewhere, "x", {"post.md": "v1\n"})
    git(repo, "config", "core.worktree", str(elsewhere))
    _refused(repo, "core.worktree")


# -- nothing hangs ---------------------------------------------------------------------


def _fifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    os.mkfifo(path)


@pytest.mark.parametrize(
    "relative",
    [
        "HEAD",
        "config",
        "packed-refs",
        "refs/heads/main",
        "refs/tags/v1",
        "index",
        "shallow",
        "info/attributes",
        "info/grafts",
        "objects/info/alternates",
        "objects/info/commit-graph",
        "objects/info/packs",
    ],
)
def test_a_fifo_in_the_git_folder_is_reported_quickly(repo: Path, relative: str) -> None:
    _fifo(repo / ".git" / relative)
    _refused(repo, "FIFO")


def test_an_include_of_a_fifo_is_reported_quickly(repo: Path, tmp_path: Path) -> None:
    _fifo(tmp_path / "fifo")
    with (repo / ".git" / "config").open("a") as stream:
        stream.write(f"[include]\n\tpath = {tmp_path / 'fifo'}\n")
    _refused(repo, "include")


def test_a_link_to_a_device_in_the_git_folder_is_refused(repo: Path) -> None:
    git(repo, "pack-refs", "--all")
    (repo / ".git" / "packed-refs").unlink()
    (repo / ".git" / "packed-refs").symlink_to("/dev/zero")
    _refused(repo, "device")


@pytest.mark.needs_root
def test_a_device_node_in_the_git_folder_is_refused(repo: Path) -> None:
    os.mknod(repo / ".git" / "packed-refs", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero
    _refused(repo, "device")


def test_an_alternate_folder_with_a_fifo_is_reported_quickly(repo: Path, tmp_path: Path) -> None:
    borrowed = tmp_path / "borrowed" / "objects"
    _fifo(borrowed / "info" / "alternates")
    (repo / ".git" / "objects" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "objects" / "info" / "alternates").write_text(f"{borrowed}\n")
    _refused(repo, "FIFO")


def test_a_dot_git_file_naming_a_fifo_is_reported_quickly(tmp_path: Path) -> None:
    repo = tmp_path / "blog"
    repo.mkdir()
    _fifo(repo / ".git")
    write(repo, "post.md", "v2\n")
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    found = bounded(lambda: findings(repo))
    assert rules(found) == [("provenance/history-unavailable", "/sources/0/path")]


@pytest.mark.parametrize("relative", [".mailmap", ".gitattributes", "content/.gitattributes"])
def test_fifos_git_would_read_in_the_working_tree_do_not_hang(repo: Path, relative: str) -> None:
    _fifo(repo / relative)
    found = bounded(lambda: findings(repo))
    assert rules(found) in (STALE, [("provenance/history-unavailable", "/sources/0/path")])


def test_a_stalled_git_is_stopped_and_named(tmp_path: Path) -> None:
    """The watchdog itself: git blocked opening a FIFO uses no CPU, and is stopped within seconds."""
    import shutil

    from mechlint.provenance import invoke
    from mechlint.provenance.errors import GitError

    _fifo(tmp_path / "fifo")
    executable = shutil.which("git")
    assert executable
    command = [executable, "hash-object", str(tmp_path / "fifo")]
    with pytest.raises(GitError, match="no progress"):
        bounded(lambda: invoke.run(command, str(tmp_path), invoke.clean_environment(), "hash-object"))


# -- honest results under faults --------------------------------------------------------


def _drop_object(repo: Path, oid: str) -> None:
    loose = repo / ".git" / "objects" / oid[:2] / oid[2:]
    assert loose.is_file()
    loose.chmod(0o644)
    loose.unlink()


@pytest.mark.parametrize("what", ["old blob", "old commit", "new blob"])
def test_a_missing_object_is_an_error_never_a_pass(repo: Path, what: str, monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = {
        "old blob": "HEAD~1:post.md",
        "old commit": "HEAD~1",
        "new blob": "HEAD:post.md",
    }[what]
    _drop_object(repo, git(repo, "rev-parse", wanted))
    found = bounded(lambda: findings(repo))
    assert found
    assert max(level for _, _, level, _ in found) is Level.ERROR
    monkeypatch.chdir(repo)
    assert main(["check", "--select", "provenance", "content"]) == 1


def test_a_shallow_clone_stays_a_warning(repo: Path, tmp_path: Path) -> None:
    from .gitrepo import shallow_clone

    commit(repo, "mechanism", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    clone = shallow_clone(repo, tmp_path / "clone")
    found = findings(clone)
    assert [(rule, level) for rule, _, level, _ in found] == [("provenance/history-unavailable", Level.WARNING)]


def test_linked_folders_are_followed_only_where_git_reads_them(repo: Path, tmp_path: Path) -> None:
    unrelated = tmp_path / "unrelated"
    _fifo(unrelated / "pipe")
    (repo / ".git" / "unrelated").symlink_to(unrelated)  # git never reads it: not a reason to refuse
    assert rules(bounded(lambda: findings(repo))) == STALE
    refs = tmp_path / "refs"
    (repo / ".git" / "refs").rename(refs)
    (repo / ".git" / "refs").symlink_to(refs)  # as git-new-workdir links it
    assert rules(bounded(lambda: findings(repo))) == STALE
    _fifo(refs / "heads" / "side")
    _refused(repo, "FIFO")


def test_a_lower_configured_level_does_not_turn_broken_history_into_a_pass(repo: Path) -> None:
    from types import MappingProxyType

    _drop_object(repo, git(repo, "rev-parse", "HEAD~1"))
    config = Config(root=repo, levels=MappingProxyType({"provenance/history-unavailable": Level.NOTE}))
    report = bounded(lambda: lint([repo / "content"], config, root=repo))
    levels = [r.level for r in report.results if r.rule_id == "provenance/history-unavailable"]
    assert levels == [Level.ERROR]


def test_a_corrupt_index_counts_as_dirty(repo: Path) -> None:
    (repo / ".git" / "index").write_bytes(b"DIRC garbage")
    assert bounded(lambda: _dirty(repo)) is True


def test_a_large_configuration_is_read(repo: Path) -> None:
    with (repo / ".git" / "config").open("a") as stream:
        for number in range(3000):
            stream.write(f'[branch "topic-{number}"]\n\tremote = origin\n\tmerge = refs/heads/topic-{number}\n')
    assert (repo / ".git" / "config").stat().st_size > 64 * 1024
    assert rules(bounded(lambda: findings(repo))) == STALE


def test_a_linked_worktree_whose_configuration_includes_a_fifo_is_reported_quickly(repo: Path, tmp_path: Path) -> None:
    """A ``.git`` file (linked worktree): once found by gitpython, whose config reader follows includes in-process."""
    commit(repo, "mechanism", {"content/mechanisms/m.json": (repo / "content/mechanisms/m.json").read_bytes()})
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked))
    _fifo(tmp_path / "fifo")
    with (repo / ".git" / "config").open("a") as stream:
        stream.write(f"[include]\n\tpath = {tmp_path / 'fifo'}\n")
    _refused(linked, "include")


@pytest.mark.parametrize("relative", ["packed-refs", "objects/{blob}"])
def test_the_watchdog_stops_git_where_the_check_beforehand_would_not_see_a_fifo(
    repo: Path, relative: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the check of the git folder, git (and the long-lived cat-file) blocks on the FIFO and is stopped."""
    from mechlint.provenance import gitdir

    monkeypatch.setattr(gitdir, "special_file", lambda dirs: None)
    git(repo, "pack-refs", "--all")
    blob = git(repo, "rev-parse", "HEAD~1:post.md")
    path = repo / ".git" / relative.format(blob=f"{blob[:2]}/{blob[2:]}")
    path.chmod(0o644)
    _fifo(path)
    found = bounded(lambda: findings(repo))
    assert [(rule, level) for rule, _, level, _ in found] == [("provenance/history-unavailable", Level.ERROR)]
    assert "no progress" in found[0][3]


def test_a_git_program_the_repository_carries_is_never_run(
    repo: Path, marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Relative ``PATH`` entries (empty, ``.``, ``bin``) name folders of the working folder: they are skipped."""
    real = os.environ.get("PATH", os.defpath)
    for folder in (repo, repo / "bin"):
        folder.mkdir(exist_ok=True)
        script(folder, marker, name="git")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", os.pathsep.join(["", ".", "bin", real]))
    assert rules(bounded(lambda: findings(repo))) == STALE  # the real git, later on PATH, answered
    assert not marker.exists()
    monkeypatch.setenv("PATH", os.pathsep.join(["", ".", "bin"]))  # only relative entries: no git at all
    found = bounded(lambda: findings(repo))
    assert not marker.exists()
    assert "git is not installed" in " ".join(message for *_, message in found)
