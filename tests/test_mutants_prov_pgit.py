"""The edges of ``mechlint/provenance/git.py`` (the git plumbing) that ``scripts/mutate.py`` found unchecked (issue 32).

Each test builds its own repository in ``tmp_path`` and asks
:class:`~mechlint.provenance.git.History`, :class:`~mechlint.provenance.git.Git`
or :class:`~mechlint.provenance.git.CatFile` for the exact answer: the whole
list, the whole message, every field. Which git commands ran is seen through
a spy on ``invoke.run`` (run to the end) and ``Git.start`` (started early).
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mechlint.provenance import git as gitmodule
from mechlint.provenance import invoke, onepass
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.errors import GitError
from mechlint.provenance.git import ALL_REFS, CatFile, Git, History, explain, open_history
from mechlint.provenance.log import Revision, parse_log
from mechlint.provenance.nohistory import RepositoryState, Unavailable
from mechlint.provenance.pinned import FETCH_BOTH, FETCH_HISTORY, FETCH_OBJECTS

from .gitrepo import commit, git, init, shallow_clone, write
from .test_hostile_git import bounded


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


@pytest.fixture
def opened() -> Iterator[list[History]]:
    """Histories a test opens, closed at its end (their cat-file and early commands stopped)."""
    histories: list[History] = []
    yield histories
    for history in histories:
        history.close()


def _open(opened: list[History], repo: Path, **options: Any) -> History:
    history = open_history(repo, **options)
    opened.append(history)
    return history


def _label(args: tuple[str, ...] | list[str]) -> str:
    """A git command in short: ``log PATH`` for one path's log, ``one pass`` for all of history, else its name."""
    if tuple(args) == ("log", *ALL_REFS, *onepass.ARGS):
        return "one pass"
    if args[0] == "log" and "--follow" in args:
        return f"log {args[-1]}"
    return args[0]


def _ran(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The git commands run to the end from now on (:func:`_label`), in order."""
    ran: list[str] = []
    real = invoke.run
    skip = 1 + len(invoke.pinned_options())

    def spy(command: list[str], cwd: str, env: dict[str, str], what: str) -> tuple[int, bytes, bytes]:
        ran.append(_label(command[skip:]))
        return real(command, cwd, env, what)

    monkeypatch.setattr(invoke, "run", spy)
    return ran


def _started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The git commands started early (:meth:`Git.start`) from now on (:func:`_label`), in order."""
    started: list[str] = []
    real = Git.start

    def spy(self: Git, *args: str) -> subprocess.Popen[bytes]:
        started.append(_label(args))
        return real(self, *args)

    monkeypatch.setattr(Git, "start", spy)
    return started


def _time(repo: Path, commit_id: str) -> int:
    return int(git(repo, "show", "-s", "--format=%ct", commit_id))


# -- Git: how a command is run and checked --------------------------------------------------------------


def test_without_git_installed_history_is_unavailable_not_broken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(invoke, "find_git", lambda: None)
    with pytest.raises(GitError) as raised:
        Git(tmp_path)
    assert (str(raised.value), raised.value.broken, raised.value.fix) == ("git is not installed", False, "")


def test_a_failing_command_is_an_error_when_checked_and_its_output_when_not(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    history = _open(opened, repo)
    with pytest.raises(GitError) as raised:
        history.git.run("rev-parse", "--verify", "nope")
    assert (str(raised.value), raised.value.broken) == ("git failed: fatal: Needed a single revision", True)
    assert history.git.run("rev-parse", "--verify", "nope", check=False) == b""
    assert history.git.run("rev-parse", "--verify", "HEAD") == git(repo, "rev-parse", "HEAD").encode() + b"\n"
    started = history.git.start("rev-parse", "--verify", "nope")
    with pytest.raises(GitError) as raised:
        history.git.finish(started, ("rev-parse", "--verify", "nope"))
    assert str(raised.value) == "git failed: fatal: Needed a single revision"
    started = history.git.start("rev-parse", "--verify", "nope")
    assert history.git.finish(started, ("rev-parse", "--verify", "nope"), check=False) == b""


DUBIOUS = """\
warning: see 'safe.directory' in git help config
fatal: detected dubious ownership in repository at '/srv/blog'
To add an exception for this directory, call:
git config --global core.editor vi
\tgit config --global --add safe.directory /srv/blog
"""
ALLOW = "if you trust the repository, allow it (as the user running mechlint): "
REFUSES = "git refuses to read this repository because another user owns it (git said: {!r})"


@pytest.mark.parametrize(
    ("code", "out", "err", "check", "expected"),
    [
        (0, "out", "", True, b"out"),
        (0, "out", "hint: see safe.directory", True, b"out"),  # a success that mentions it is a success
        (1, "out", "fatal: no", False, b"out"),
        (128, "out", "fatal: no", True, "git failed: fatal: no"),
        (3, "", "   ", True, "git failed: git exited with 3"),  # nothing said: the exit code
        (3, "", "error: said", True, "git failed: error: said"),
        # a refusal is never an answer, checked or not
        (128, "", "fatal: see safe.directory", False, REFUSES.format("see safe.directory")),
    ],
)
def test_a_command_s_result_is_checked(
    repo: Path, tmp_path: Path, opened: list[History], code: int, out: str, err: str, check: bool, expected: object
) -> None:
    """What a git that prints ``out`` and ``err`` and exits with ``code`` gives ``run``: its output or an error."""
    commit(repo, "first", {"a.md": "a\n"})
    history = _open(opened, repo)  # vetted with the real git
    program = tmp_path / "said-git"
    program.write_text(f"#!/bin/sh\nprintf '%s' '{out}'\nprintf '%s' '{err}' >&2\nexit {code}\n")
    program.chmod(0o755)
    history.git.executable = str(program)
    if isinstance(expected, bytes):
        assert history.git.run("status", check=check) == expected
    else:
        with pytest.raises(GitError) as raised:
            history.git.run("status", check=check)
        assert (str(raised.value), raised.value.broken) == (expected, "safe.directory" not in err)


@pytest.fixture
def stalling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A "git" that sleeps, and a time limit of 0 s: the first wait for it gives the watchdog's verdict."""
    program = tmp_path / "stalling-git"
    program.write_text("#!/bin/sh\nexec sleep 30\n")
    program.chmod(0o755)
    monkeypatch.setattr(invoke, "TIME_LIMIT", 0.0)
    monkeypatch.setattr(invoke, "POLL", 0.05)
    return str(program)


def test_a_stopped_command_is_named_by_its_git_command(repo: Path, opened: list[History], stalling: str) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    history = _open(opened, repo)  # vetted with the real git
    history.git.executable = stalling
    with pytest.raises(GitError) as raised:
        history.git.run("rev-parse", "HEAD")
    assert str(raised.value) == "git rev-parse ran for more than 0 s and was stopped"
    started = history.git.start("for-each-ref", "--format=%(refname)")
    with pytest.raises(GitError) as raised:
        history.git.finish(started, ("for-each-ref", "--format=%(refname)"))
    assert str(raised.value) == "git for-each-ref ran for more than 0 s and was stopped"


# -- explain: git's error output in a person's words ---------------------------------------------------


@pytest.mark.parametrize(
    ("output", "message", "broken", "fix"),
    [
        (
            DUBIOUS,
            REFUSES.format("detected dubious ownership in repository at '/srv/blog'"),
            False,
            ALLOW + "git config --global --add safe.directory /srv/blog",
        ),
        (  # only the dubious line: the advice names the command to run
            "fatal: detected dubious ownership in repository at '/srv/blog'\n",
            REFUSES.format("detected dubious ownership in repository at '/srv/blog'"),
            False,
            ALLOW + "git config --global --add safe.directory <the repository's folder>",
        ),
        (  # only safe.directory named: git's first line quoted
            "error: unsafe repository\nhint: set safe.directory\n",
            REFUSES.format("error: unsafe repository"),
            False,
            ALLOW + "git config --global --add safe.directory <the repository's folder>",
        ),
        (
            "fatal: not a git repository (or any of the parent directories): .git\n",
            "this is not a git repository",
            False,
            "",
        ),
        ("error: first\nfatal: last\n\n", "git failed: fatal: last", True, ""),
        ("", "git failed: ", True, ""),
    ],
)
def test_git_s_error_output_is_explained(output: str, message: str, broken: bool, fix: str) -> None:
    error = explain(output)
    assert (str(error), error.broken, error.fix) == (message, broken, fix)


# -- vet: the repository's git folders and configuration ----------------------------------------------


def test_a_fifo_in_the_git_folder_is_refused_with_its_path(repo: Path) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    os.mkfifo(repo / ".git" / "stuck")
    for _ in (1, 2):  # refused again, the same way, when asked again
        with pytest.raises(GitError) as raised:
            open_history(repo)
        assert (str(raised.value), raised.value.broken) == (
            f"{repo / '.git' / 'stuck'} is a FIFO; git would wait on it forever, so it is not run",
            True,
        )


def test_a_configuration_git_cannot_read_is_refused(repo: Path) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    config = repo / ".git" / "config"
    config.write_text(config.read_text() + "[core\n")
    lines = len(config.read_text().splitlines())
    with pytest.raises(GitError) as raised:
        open_history(repo)
    assert str(raised.value) == f"git failed: fatal: bad config line {lines} in file .git/config"


def _state(history: History) -> tuple[RepositoryState, bool]:
    return history.state(), history.complete


def test_the_shape_of_a_full_clone(repo: Path, opened: list[History]) -> None:
    head = commit(repo, "first", {"a.md": "a\n"})
    assert _state(_open(opened, repo)) == (RepositoryState(False, False, head), True)


def test_the_shape_of_a_repository_without_commits(repo: Path, opened: list[History]) -> None:
    assert _state(_open(opened, repo)) == (RepositoryState(False, False, None), True)
    assert _state(_open(opened, repo, wait=False)) == (RepositoryState(False, False, None), True)


def test_the_shape_of_a_shallow_clone(repo: Path, tmp_path: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    head = commit(repo, "second", {"a.md": "b\n"})
    clone = shallow_clone(repo, tmp_path / "shallow")
    assert _state(_open(opened, clone)) == (RepositoryState(True, False, head), False)


@pytest.mark.parametrize("where", ["config", "config.worktree"])
def test_the_shape_of_a_partial_clone(repo: Path, opened: list[History], where: str) -> None:
    """A promisor remote in either configuration file the repository has makes it partial."""
    head = commit(repo, "first", {"a.md": "a\n"})
    git(repo, "config", "extensions.worktreeConfig", "true")
    git(repo, "config", "core.repositoryformatversion", "1")
    git(repo, "config", "--file", str(repo / ".git" / where), "remote.origin.promisor", "true")
    assert _state(_open(opened, repo)) == (RepositoryState(False, True, head), False)


@pytest.mark.parametrize(
    ("shape", "broken_error", "expected"),
    [
        ("full", None, Unavailable("git could not read all of the history", False)),
        ("full", False, Unavailable("git could not read all of the history", False)),
        ("full", True, Unavailable("git could not read all of the history", True)),
        ("shallow", True, Unavailable("this is a shallow clone", False, FETCH_HISTORY)),
        (
            "partial",
            True,
            Unavailable(
                "this is a partial clone, which leaves objects out until they are needed", False, FETCH_OBJECTS
            ),
        ),
        ("both", True, Unavailable("this is a shallow and partial clone", False, FETCH_BOTH)),
    ],
)
def test_why_history_did_not_answer(
    repo: Path, tmp_path: Path, opened: list[History], shape: str, broken_error: bool | None, expected: Unavailable
) -> None:
    """A broken repository is an error only in a full clone: a shallow or partial one may simply lack the objects."""
    commit(repo, "first", {"a.md": "a\n"})
    commit(repo, "second", {"a.md": "b\n"})
    if shape == "shallow":
        repo = shallow_clone(repo, tmp_path / "shallow")
    elif shape == "partial":
        git(repo, "config", "remote.origin.promisor", "true")
    elif shape == "both":
        repo = shallow_clone(repo, tmp_path / "shallow")
        git(repo, "config", "remote.origin.promisor", "true")
    history = _open(opened, repo)
    error = None if broken_error is None else GitError("x", broken=broken_error)
    assert history.unavailable(error) == expected


def test_a_full_clone_passes_on_the_fix_of_the_error_git_gave(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    history = _open(opened, repo)
    error = GitError("git refuses", broken=False, fix="allow it")
    assert history.unavailable(error) == Unavailable("git could not read all of the history", False, "allow it")


def test_history_is_a_repository_s_and_opens_its_own_git_when_given_none(repo: Path, opened: list[History]) -> None:
    head = commit(repo, "first", {"a.md": "a\n"})
    assert History.exists is True
    history = History(repo, repo / ".git", repo / ".git")
    opened.append(history)
    assert history.state() == RepositoryState(False, False, head)
    given = Git(repo)
    with_git = History(repo, repo / ".git", repo / ".git", given)
    opened.append(with_git)
    assert with_git.git is given


# -- the questions history answers ----------------------------------------------------------------------


def test_a_path_s_history_is_asked_once_a_run(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = commit(repo, "first", {"a.md": "a\n"})
    blob = git(repo, "rev-parse", "HEAD:a.md")
    history = _open(opened, repo)
    ran = _ran(monkeypatch)
    expected = [Revision(first, _time(repo, first), "a.md", blob, None)]
    assert history.path_history("a.md") == expected
    assert history.path_history("a.md") == expected
    assert ran == ["for-each-ref", "log a.md"]


@pytest.mark.parametrize(("many", "alone"), [(False, 7), (True, 2)])
def test_the_one_pass_answers_once_enough_paths_were_asked_one_by_one(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch, many: bool, alone: int
) -> None:
    """Seven paths (two in a run of many files) are asked of git one by one; the next one reads all of history
    once, which answers it and every later path the same as git would."""
    paths = [f"p{n}.md" for n in range(10)]  # added in the root commit: the one pass can answer each exactly
    commit(repo, "first", {path: f"{path}\n" for path in paths})
    commit(repo, "second", {path: f"{path} again\n" for path in paths[3:]})
    expected = {}
    for path in paths:
        alone_history = _open(opened, repo)
        expected[path] = alone_history.path_history(path)
    history = _open(opened, repo)
    history.many_files = many
    ran = _ran(monkeypatch)
    assert {path: history.path_history(path) for path in paths} == expected
    assert ran == ["for-each-ref", *(f"log {path}" for path in paths[:alone]), "one pass"]


def test_a_history_is_asked_about_paths_one_by_one_by_default(repo: Path, opened: list[History]) -> None:
    history = _open(opened, repo)
    assert history.many_files is False


def _filled(repo: Path, cache: BlobCache, paths: list[str], opened: list[History]) -> None:
    """``cache`` holding each path's own answer (a few paths a history, so that none reads all of history)."""
    for start in range(0, len(paths), 4):
        history = _open(opened, repo)
        history.answers = cache
        for path in paths[start : start + 4]:
            history.path_history(path)


def test_paths_whose_answers_are_kept_do_not_count_towards_the_one_pass(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = [f"p{n}.md" for n in range(12)]
    commit(repo, "first", {path: f"{path}\n" for path in paths})
    cache = BlobCache(None)
    _filled(repo, cache, paths[:10], opened)
    history = _open(opened, repo)
    history.answers = cache
    ran = _ran(monkeypatch)
    for path in paths:
        history.path_history(path)
    assert ran == ["for-each-ref", "log p10.md", "log p11.md"]


def test_answers_about_one_commit_are_kept_across_refs_and_the_others_are_not(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a full clone a tree, an ancestry, a commit's changes and its description never change; a path's
    history and the refs do, and are asked again once the refs changed."""
    first = commit(repo, "first", {"a.md": "a\n"})
    second = commit(repo, "second", {"a.md": "b\n"})
    cache = BlobCache(None)
    history = _open(opened, repo)
    history.answers = cache

    def ask(history: History) -> tuple[tuple[object, ...], list[Revision]]:
        kept = (history.tree(second), history.is_ancestor(first, second), history.changes(second))
        return (*kept, history.describe(second)), history.path_history("a.md")

    before = ask(history)
    third = commit(repo, "third", {"a.md": "c\n"})
    again = _open(opened, repo)
    again.answers = cache
    ran = _ran(monkeypatch)
    after = ask(again)
    assert after[0] == before[0]
    now = git(repo, "rev-parse", "HEAD:a.md")
    assert after[1] == [Revision(third, _time(repo, third), "a.md", now, before[1][0].blob), *before[1]]
    assert ran == ["for-each-ref", "log a.md"]
    assert again.cat.process is None  # the description was kept too: no commit read again


def test_the_commands_started_early_are_head_the_refs_and_each_path_once(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    head = commit(repo, "first", {"a.md": "a\n", "b.md": "b\n"})
    started = _started(monkeypatch)
    history = _open(opened, repo, wait=False)
    assert started == ["rev-parse", "for-each-ref"]
    history.prefetch(["a.md", "b.md", "a.md"])
    history.prefetch(["a.md"])
    assert started[2:] == ["log a.md", "log b.md"]
    ran = _ran(monkeypatch)
    assert history.state() == RepositoryState(False, False, head)
    assert history.path_history("a.md") == [
        Revision(head, _time(repo, head), "a.md", git(repo, "rev-parse", "HEAD:a.md"), None)
    ]
    history.refs_key()
    history.prefetch(["a.md", "b.md"])  # a.md asked already, b.md started already; HEAD known
    assert started[4:] == ["for-each-ref"]
    assert ran == []


def test_history_waits_for_head_when_opened_by_default(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    head = commit(repo, "first", {"a.md": "a\n"})
    started = _started(monkeypatch)
    ran = _ran(monkeypatch)
    history = _open(opened, repo)
    assert (started, ran) == ([], ["config", "rev-parse"])
    assert history.state().head == head


def _broken_packed_refs(repo: Path) -> None:
    git(repo, "pack-refs", "--all")
    with (repo / ".git" / "packed-refs").open("a") as stream:
        stream.write("garbage\n")


@pytest.mark.parametrize("wait", [True, False])
def test_refs_git_cannot_list_are_an_error(repo: Path, opened: list[History], wait: bool) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    _broken_packed_refs(repo)
    history = _open(opened, repo, wait=wait)
    with pytest.raises(GitError) as raised:
        history.refs_key()
    assert str(raised.value) == "git failed: fatal: unexpected line in .git/packed-refs: garbage"


@pytest.mark.parametrize("early", [True, False])
def test_a_log_git_cannot_finish_is_an_error(repo: Path, opened: list[History], early: bool) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    commit(repo, "second", {"a.md": "b\n"})
    tree = git(repo, "rev-parse", "HEAD~1^{tree}")
    (repo / ".git" / "objects" / tree[:2] / tree[2:]).unlink()
    history = _open(opened, repo)
    if early:
        history.prefetch(["a.md"])
    with pytest.raises(GitError) as raised:
        history.path_history("a.md")
    assert str(raised.value) == f"git failed: fatal: unable to read tree {tree}"


def test_the_refs_key_follows_every_ref_and_head(repo: Path, opened: list[History]) -> None:
    """A commit on a branch HEAD is not on, or HEAD alone moved, changes the key; asking again does not."""
    unborn = [_open(opened, repo).refs_key(), _open(opened, repo).refs_key()]  # no commit yet: HEAD unborn
    commit(repo, "first", {"a.md": "a\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "second", {"b.md": "b\n"})
    git(repo, "checkout", "-q", "main")
    keys = [_open(opened, repo).refs_key(), _open(opened, repo).refs_key()]
    git(repo, "checkout", "-q", "--detach", "side")  # the same refs, HEAD elsewhere
    keys.append(_open(opened, repo).refs_key())
    git(repo, "checkout", "-q", "main")
    third = commit(repo, "third", {"c.md": "c\n"})
    git(repo, "update-ref", "refs/heads/side", third)
    git(repo, "reset", "-q", "--hard", "main~1")  # main back where it was: only side moved
    keys.append(_open(opened, repo).refs_key())
    assert unborn[0] == unborn[1]
    assert keys[0] == keys[1]
    assert len({unborn[0], *keys[1:]}) == 4


def _side(repo: Path) -> tuple[str, str]:
    """``main`` at a base commit, ``side`` one commit past it, a tag on the base and a stash; HEAD on main."""
    base = commit(repo, "base", {"a.md": "a\n"})
    git(repo, "tag", "kept")
    git(repo, "checkout", "-q", "-b", "side")
    side = commit(repo, "side", {"b.md": "b\n"})
    git(repo, "checkout", "-q", "main")
    write(repo, "a.md", "stashed\n")
    git(repo, "stash", "-q")
    return base, side


def test_which_refs_head_lacks_and_which_hold_a_commit(repo: Path, opened: list[History]) -> None:
    base, side = _side(repo)
    stash = git(repo, "rev-parse", "refs/stash")
    history = _open(opened, repo)
    assert history.unmerged_refs() == ["refs/heads/side"]
    assert history.refs_containing(base) == ["refs/heads/main", "refs/heads/side", "refs/tags/kept"]
    assert history.refs_containing(side) == ["refs/heads/side"]
    assert history.refs_containing(stash) == []
    assert history.refs_containing("0" * 40) == []  # git says "no such commit"
    assert history.refs_containing("main") == []


def test_without_head_every_ref_is_unmerged(repo: Path, opened: list[History]) -> None:
    _side(repo)
    git(repo, "checkout", "-q", "--orphan", "new")
    history = _open(opened, repo)
    assert history.state().head is None
    assert history.unmerged_refs() == ["refs/heads/main", "refs/heads/side", "refs/tags/kept"]


def test_ancestry(repo: Path, opened: list[History]) -> None:
    base, side = _side(repo)
    git(repo, "checkout", "-q", "--orphan", "other")
    other = commit(repo, "unrelated root", {"c.md": "c\n"})
    git(repo, "checkout", "-q", "main")
    history = _open(opened, repo)
    asked = [
        (base, side), (side, base), (base, base), (base, other),  # unrelated: git's merge-base exits 1
        (base, "HEAD"), ("HEAD", base), (base, "0" * 39),
    ]  # fmt: skip
    assert [history.is_ancestor(a, b) for a, b in asked] == [True, False, True, False, False, False, False]


def test_the_reachable_blobs_leave_the_stash_out(repo: Path, opened: list[History]) -> None:
    """Every blob of every ref but the stash (git lists the commits too: the index reads them as no blob)."""
    _side(repo)
    blobs = {git(repo, "rev-parse", name) for name in ("main:a.md", "side:a.md", "side:b.md")}
    history = _open(opened, repo)
    reachable = history.reachable_objects()
    listed = subprocess.run(
        ["git", "cat-file", "--batch-check=%(objectname) %(objecttype)"],
        cwd=repo, input="\n".join(reachable).encode(), capture_output=True, check=True,
    ).stdout.decode().split("\n")  # fmt: skip
    assert sorted(line.split()[0] for line in listed if line.endswith(" blob")) == sorted(blobs)
    assert len(reachable) == len(set(reachable))


def test_which_commits_leave_a_blob_at_some_path(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The holders, newest first; git is asked only about the commits that touch the blob (``--find-object``),
    not made to print every commit's changes for Python to filter (the same answer, and a log of all history
    kept in the cache for each blob asked about)."""
    first = commit(repo, "first", {"a.md": "x\n"})
    blob = git(repo, "rev-parse", "HEAD:a.md")
    second = commit(repo, "second", {"a.md": "y\n"})  # the blob leaves a.md: not a holder
    commit(repo, "unrelated", {"c.md": "c\n"})
    third = commit(repo, "third", {"b.md": "x\n"})
    history = _open(opened, repo)
    printed: list[bytes] = []
    real = invoke.run

    def spy(command: list[str], cwd: str, env: dict[str, str], what: str) -> tuple[int, bytes, bytes]:
        done = real(command, cwd, env, what)
        printed.append(done[1])
        return done

    monkeypatch.setattr(invoke, "run", spy)
    assert history.blob_holders(blob) == [
        Revision(third, _time(repo, third), "b.md", blob, None),
        Revision(first, _time(repo, first), "a.md", blob, None),
    ]
    assert [r.commit for r in parse_log(printed[-1])] == [third, second, first]
    assert history.blob_holders("HEAD") == []
    assert history.blob_holders(blob[:39]) == []


def test_a_commit_s_tree_leaves_submodules_out(repo: Path, opened: list[History]) -> None:
    os.symlink("a.md", repo / "link")
    git(repo, "add", "link")
    sub = commit(repo, "a commit for the submodule to name", {})
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sub},vendor/sub")
    head = commit(repo, "files", {"a.md": "a\n", "dir/b c.md": "b\n", "caf\xe9.md": "c\n"})
    expected = {name: git(repo, "rev-parse", f"HEAD:{name}") for name in ("a.md", "dir/b c.md", "caf\xe9.md", "link")}
    history = _open(opened, repo)
    assert history.tree(head) == expected
    assert history.tree(head) == expected  # kept
    assert history.tree("HEAD") == {}
    with pytest.raises(GitError) as raised:
        history.tree("0" * 40)
    assert str(raised.value) == "git failed: fatal: not a tree object"


def test_a_commit_s_changes_follow_a_rename(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"old.md": "a long enough line for rename detection\n"})
    blob = git(repo, "rev-parse", "HEAD:old.md")
    git(repo, "mv", "old.md", "new.md")
    moved = commit(repo, "moved", {})
    history = _open(opened, repo)
    assert history.changes(moved) == [Revision(moved, _time(repo, moved), "new.md", blob, blob, "old.md")]
    assert history.changes("HEAD") == []


# -- describe: a commit named in a message --------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "shown"),
    [
        ("s" * 50, "s" * 50),
        ("t" * 51, "t" * 49 + "…"),
        ("Fix the cache key", "Fix the cache key"),
    ],
)
def test_a_commit_is_described_by_its_short_id_date_and_subject(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch, subject: str, shown: str
) -> None:
    head = commit(repo, subject, {"a.md": "a\n"})
    date = git(repo, "show", "-s", "--format=%cs", head)
    history = _open(opened, repo)
    ran = _ran(monkeypatch)
    assert history.describe(head) == f'{head[:12]} ({date}, "{shown}")'
    assert ran == []  # a usual commit is read through cat-file: no git show


def test_what_is_no_commit_is_described_as_git_shows_it(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    looks = "tree x\ncommitter A <a@b> 1700000000 +0000\n\nLooks like a commit\n"
    write(repo, "looks.txt", looks)  # never added: a blob only the object store holds
    blob = git(repo, "hash-object", "-w", "looks.txt")
    history = _open(opened, repo)
    assert history.describe("HEAD") == "HEAD"
    assert history.describe("0" * 40) == "0" * 12  # no such object: git show fails, the id alone
    assert history.describe(blob) == f'{blob[:12]} ({looks.strip()}, "")'  # a blob is never read as a commit


# -- is_dirty: what an attestation records ----------------------------------------------------------------


def test_dirty_is_a_boolean_and_a_corrupt_index_counts_as_dirty(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    assert _open(opened, repo).is_dirty() is False
    write(repo, "a.md", "changed\n")
    assert _open(opened, repo).is_dirty() is True
    git(repo, "checkout", "-q", "--", "a.md")
    (repo / ".git" / "index").write_bytes(b"DIRC garbage")
    assert _open(opened, repo).is_dirty() is True


# -- CatFile: the long-lived cat-file --batch ------------------------------------------------------------


def test_cat_file_reads_each_object_in_order(repo: Path, opened: list[History]) -> None:
    head = commit(repo, "first", {"a.md": "a\n", "b.md": "bb\n"})
    a, b = git(repo, "rev-parse", "HEAD:a.md"), git(repo, "rev-parse", "HEAD:b.md")
    raw = subprocess.run(["git", "cat-file", "commit", head], cwd=repo, capture_output=True, check=True).stdout
    history = _open(opened, repo)
    wanted = [a, "HEAD", b, "0" * 40, head, a[:39], a]
    assert list(history.cat.read_many(wanted)) == [
        (a, "blob", b"a\n"),
        (b, "blob", b"bb\n"),
        ("0" * 40, "missing", None),
        (head, "commit", raw),
        (a, "blob", b"a\n"),
    ]
    assert list(history.cat.read_many(["HEAD"])) == []


def _threads_made(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each thread ``git.py`` makes from now on (the writer of a long list of ids): whether it is a daemon."""
    made: list[bool] = []

    class Recorded(threading.Thread):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.daemon)

    monkeypatch.setattr(gitmodule, "threading", SimpleNamespace(Thread=Recorded))
    return made


def test_ids_up_to_an_atomic_write_are_written_at_once_and_more_from_a_thread(
    repo: Path, opened: list[History], monkeypatch: pytest.MonkeyPatch
) -> None:
    """POSIX writes up to 4,096 bytes to a pipe at once; more may wait for git, which may wait for us: those
    ids are written from a thread. An id is 41 bytes with its line feed (SHA-1), 65 (SHA-256)."""
    commit(repo, "first", {"a.md": "a\n"})
    sha1, sha256 = git(repo, "rev-parse", "HEAD:a.md"), "f" * 64
    history = _open(opened, repo)
    made = _threads_made(monkeypatch)
    where = []
    batches = [
        [sha1] * 99,  # 4,059 bytes
        [sha1] * 100,  # 4,100 bytes
        [sha1] * 46 + [sha256] * 34,  # 4,096 bytes
        [sha1] * 92 + [sha256] * 5,  # 4,097 bytes
        [sha256] * 62,  # 4,030 bytes
        [sha256] * 63,  # 4,095 bytes
        [sha256] * 64,  # 4,160 bytes: 64 SHA-1 ids would be 2,624
    ]
    for batch in batches:
        before = len(made)
        assert [kind for _, kind, _ in history.cat.read_many(batch)] == [
            "blob" if oid == sha1 else "missing" for oid in batch
        ]
        where.append(len(made) > before)
    assert where == [False, True, False, True, False, False, True]
    assert made == [True, True, True]  # a reader stopped early (Ctrl-C) never keeps mechlint from exiting


def test_cat_file_reads_more_than_a_pipe_holds_both_ways(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a line of the article\n" * 10})
    blob = git(repo, "rev-parse", "HEAD:a.md")
    history = _open(opened, repo)

    def hung() -> None:  # git killed: the blocked write and the read end, and so does the test
        assert history.cat.process is not None
        invoke.kill_group(history.cat.process)

    answers = bounded(lambda: list(history.cat.read_many([blob] * 5000)), hung)
    assert answers == [(blob, "blob", b"a line of the article\n" * 10)] * 5000


def test_cat_file_is_started_only_when_asked_about_an_id(repo: Path, opened: list[History]) -> None:
    commit(repo, "first", {"a.md": "a\n"})
    cat = CatFile(_open(opened, repo).git)
    try:
        assert list(cat.read_many(["HEAD", "a.md"])) == []
        assert cat.process is None
    finally:
        cat.close()
