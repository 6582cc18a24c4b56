"""Git history behind a small interface: :class:`History` on git; "no history" is :class:`~.nohistory.NoHistory`.

Everything runs through git's plumbing with fixed arguments: nothing read
from a mechanism file ever becomes an option (paths come after ``--`` with
``--literal-pathspecs``; object ids go on standard input, or are checked to
be hexadecimal first). How git is started (environment, pinned
configuration, time limit) is :mod:`mechlint.provenance.invoke`; the
repository's git folders are found and checked first by
:mod:`mechlint.provenance.gitdir`, so a hostile repository cannot make
mechlint run anything or wait forever. Nothing here writes to the
repository except mechlint's own cache.

Long: the git implementation of the history interface and the ``cat-file`` process it reads blobs
through; they share the safe invocation of git and are changed together.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, ClassVar, Literal

from mechlint.provenance import gitdir, invoke
from mechlint.provenance.errors import GitError
from mechlint.provenance.log import Revision, date_and_subject, is_hex, parse_log
from mechlint.provenance.nohistory import NoHistory as NoHistory  # the other implementation, found beside this one
from mechlint.provenance.nohistory import RepositoryState, Unavailable
from mechlint.provenance.pinned import FETCH_BOTH, FETCH_HISTORY, FETCH_OBJECTS

if TYPE_CHECKING:
    from mechlint.provenance.cache import BlobCache
    from mechlint.provenance.onepass import AllChanges

#: Every ref but the stash: stashed work was never committed, so it is not the history a pin may rest on.
ALL_REFS = ("--exclude=refs/stash", "--all")
#: Paths asked about one by one (answers not kept from an earlier run) before one pass over history answers the rest.
ONE_PASS_AFTER = 8
#: The same in a run of many files (each worker would ask about its first paths one by one): a run that misses
#: the result cache for a file or two still asks about their paths alone.
ONE_PASS_AFTER_MANY = 3


class Git:
    """Runs fixed git commands in one repository, once the repository passed :func:`vet`."""

    def __init__(self, worktree: Path) -> None:
        executable = invoke.find_git()
        if executable is None:
            raise GitError("git is not installed", broken=False)
        self.executable = executable
        self.worktree = worktree
        self.env = invoke.clean_environment()
        self._vetted: gitdir.Configuration | GitError | None = None

    def command(self, *args: str) -> list[str]:
        return [self.executable, *invoke.pinned_options(), *args]

    def vet(self) -> gitdir.Configuration:
        """Check the repository's git folders before git reads them (once); raises :class:`GitError`."""
        if self._vetted is None:
            try:
                self._vetted = vet(self)
            except GitError as error:
                self._vetted = error
        if isinstance(self._vetted, GitError):
            raise GitError(str(self._vetted), broken=self._vetted.broken, fix=self._vetted.fix)
        return self._vetted

    def run(self, *args: str, check: bool = True) -> bytes:
        self.vet()
        return self._run(args, check)

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        """Start ``git ARGS`` and return at once; :meth:`finish` waits for its output."""
        self.vet()
        return invoke.start(self.command(*args), os.fspath(self.worktree), self.env, interactive=False)

    def finish(self, process: subprocess.Popen[bytes], args: tuple[str, ...], check: bool = True) -> bytes:
        """The output of a command :meth:`start` started, checked as :meth:`run` checks it."""
        return self._checked(invoke.finish(process, args[0]), check)

    def _run(self, args: tuple[str, ...], check: bool) -> bytes:
        return self._checked(invoke.run(self.command(*args), os.fspath(self.worktree), self.env, args[0]), check)

    @staticmethod
    def _checked(done: tuple[int, bytes, bytes], check: bool) -> bytes:
        code, out, err = done
        if code != 0 and (check or b"safe.directory" in err):  # a refusal is never an answer, checked or not
            raise explain(err.decode("utf-8", "replace").strip() or f"git exited with {code}")
        return out


def vet(git: Git) -> gitdir.Configuration:
    """Refuse a repository with a special file where git reads one, or a configuration git cannot be kept from."""
    dirs = gitdir.locate(git.worktree)
    problem = gitdir.special_file(dirs)
    if problem:
        raise GitError(f"{problem}; git would wait on it forever, so it is not run")
    partial = False
    files = ((dirs.common_dir / "config", ".git/config"), (dirs.git_dir / "config.worktree", "config.worktree"))
    for path, what in files:
        if not gitdir.is_regular(path, what):
            continue
        listing = git._run(("config", "--file", os.fspath(path), "--no-includes", "--null", "--list"), True)
        partial = gitdir.parse_listing(listing, git.worktree, dirs.git_dir, what).partial or partial
    return gitdir.Configuration(partial)


def explain(output: str) -> GitError:
    """What git's error output means, in a person's words (git's own words quoted where they help)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if "dubious ownership" in output or "safe.directory" in output:
        said = next((line for line in lines if "dubious ownership" in line), lines[0] if lines else "")
        said = said.removeprefix("fatal:").strip()
        allow = next((line for line in lines if line.startswith("git config") and "safe.directory" in line), "")
        return GitError(
            f"git refuses to read this repository because another user owns it (git said: {said!r})",
            broken=False,
            fix="if you trust the repository, allow it (as the user running mechlint): "
            + (allow or "git config --global --add safe.directory <the repository's folder>"),
        )
    if "not a git repository" in output:
        return GitError("this is not a git repository", broken=False)
    return GitError(f"git failed: {lines[-1] if lines else output}")


#: Writes to a pipe up to this size are atomic and never wait for the reader (POSIX PIPE_BUF).
_ATOMIC_WRITE = 4096


class CatFile(invoke.BatchGit):
    """One long-lived ``git cat-file --batch``; object ids go on its standard input."""

    ARGUMENTS = ("cat-file", "--batch")
    NAME = "cat-file"
    git: Git  # whose configuration says whether this is a partial clone

    def read_many(self, oids: Iterable[str]) -> Iterator[tuple[str, str, bytes | None]]:
        """``(oid, type, content)`` for each id, in order; content is ``None`` when missing.

        In a partial clone an object the clone left out is missing too: git
        would fetch it from the promisor remote, and since mechlint never
        fetches, ``cat-file`` stops at it instead. A new one is started for
        the ids after it. Anywhere else a stop is an error.
        """
        wanted = [oid for oid in oids if is_hex(oid)]
        while wanted:
            answered = yield from self._read_until_stop(wanted)
            if answered == len(wanted):
                return
            yield wanted[answered], "missing", None
            wanted = wanted[answered + 1 :]

    def _read_until_stop(self, wanted: list[str]) -> Generator[tuple[str, str, bytes | None], None, int]:
        """Answer ``wanted`` in order; how many were answered before a partial clone's ``cat-file`` stopped."""
        with self.lock:
            process, dog = self._start()
            assert process.stdin is not None and process.stdout is not None
            writer = None
            if sum(len(oid) + 1 for oid in wanted) <= _ATOMIC_WRITE:  # one atomic write: git cannot block it
                _feed(process.stdin, wanted)
            else:  # git may fill its output pipe before it has read all of ours: write from another thread
                writer = threading.Thread(target=_feed, args=(process.stdin, wanted), daemon=True)
                writer.start()
            stream = process.stdout
            for answered, oid in enumerate(wanted):
                with dog.waiting():
                    header = stream.readline()
                if not header:
                    if dog.verdict or not self.git.vet().partial:
                        raise GitError(dog.verdict or "git cat-file stopped unexpectedly (a corrupt object?)")
                    self.close()  # git stopped at an object this partial clone left out (it would fetch it)
                    if writer is not None:
                        writer.join()
                    return answered
                parts = header.split()
                if len(parts) < 3 or parts[1] == b"missing":
                    yield oid, "missing", None
                    continue
                size = int(parts[2])
                with dog.waiting():
                    content = stream.read(size)
                    stream.read(1)
                if len(content) != size:
                    raise GitError(dog.verdict or "git cat-file stopped unexpectedly (a corrupt object?)")
                yield oid, parts[1].decode("ascii", "replace"), content
            if writer is not None:
                writer.join()
            return len(wanted)


def _feed(stdin: IO[bytes], oids: list[str]) -> None:
    try:
        stdin.write(b"".join(oid.encode() + b"\n" for oid in oids))
        stdin.flush()
    except (BrokenPipeError, OSError):
        pass


class History:
    """Read-only history of one repository; :class:`~.nohistory.NoHistory` has the same interface and no commits."""

    #: Whether this is a repository's history (``NoHistory.exists`` is false).
    exists: ClassVar[Literal[True]] = True

    def __init__(self, worktree: Path, git_dir: Path, common_dir: Path, git: Git | None = None) -> None:
        self.worktree = worktree
        self.git_dir = git_dir
        self.common_dir = common_dir
        self.git = git or Git(worktree)
        self.cat = CatFile(self.git)
        self._state: RepositoryState | None = None
        #: Where git's answers are kept between runs (the blob cache); attached by the caller, optional.
        self.answers: BlobCache | None = None
        self._asked: dict[str, bytes] = {}
        self._trees: dict[str, dict[str, str]] = {}
        self._refs: str | None = None
        self._changes: AllChanges | None = None
        self._unanswered = 0
        #: A run of many files (set by the caller): the one pass over history comes after
        #: :data:`ONE_PASS_AFTER_MANY` paths asked one by one instead of :data:`ONE_PASS_AFTER`.
        self.many_files = False
        #: git commands started before the run needed their answers (:meth:`prefetch`), each used once.
        self._early: dict[str, tuple[subprocess.Popen[bytes], tuple[str, ...], bool]] = {}

    def _ask(
        self,
        question: str,
        args: tuple[str, ...],
        *,
        per_refs: bool = True,
        check: bool = True,
        without_git: Callable[[], bytes | None] | None = None,
    ) -> bytes:
        """The output of ``git ARGS``, asked once a run, and kept between runs under :meth:`refs_key`.

        ``per_refs=False`` for answers that cannot change (about one commit) in
        a complete clone; in a shallow or partial one even those depend on
        the objects present (a merge base beyond the boundary), so they are
        kept under :meth:`refs_key` too.
        A new answer comes from the command :meth:`prefetch` started for this
        question, else from ``without_git()`` when it gives one (the same
        bytes git would print), else from git.
        """
        if question in self._asked:
            return self._asked[question]
        refs = self.refs_key() if per_refs or not self.complete else ""
        answer = self.answers.answer(refs, question) if self.answers is not None else None
        if answer is None:
            answer = self._early_answer(question)
            if answer is None and without_git is not None:
                answer = without_git()
            if answer is None:
                answer = self.git.run(*args, check=check)
            if self.answers is not None:
                self.answers.remember(refs, question, answer)
        self._asked[question] = answer
        return answer

    def refs_key(self) -> str:
        """What history's answers depend on: the refs, HEAD and the objects the clone has. Once a run.

        The one history key: git's answers kept in the blob cache, the set of
        reachable blobs and (through :func:`~mechlint.provenance.repository.refs_key`)
        the result cache all use it; :func:`~mechlint.provenance.gitdir.objects_state`
        says why it is complete.
        """
        if self._refs is None:
            dirs = gitdir.GitDirs(self.git_dir, self.common_dir)
            self._refs = f"{self.refs_fingerprint()}:{gitdir.objects_state(dirs, self.state().partial)}"
            if self.answers is not None:
                self.answers.keep_answers_for(self._refs)
        return self._refs

    def state(self) -> RepositoryState:
        if self._state is None:
            # what `git rev-parse --is-shallow-repository` reads, without a process of its own
            shallow = (self.common_dir / "shallow").is_file()
            partial = self.git.vet().partial
            head_out = self._early_answer("head")
            if head_out is None:
                head_out = self.git.run(*_HEAD, check=False)
            head_out = head_out.strip()
            head = head_out.decode() if is_hex(head_out.decode("ascii", "replace")) else None
            self._state = RepositoryState(shallow, partial, head)
        return self._state

    @property
    def complete(self) -> bool:
        state = self.state()
        return not state.shallow and not state.partial

    def unavailable(self, error: GitError | None = None) -> Unavailable:
        """Why a question had no answer: the clone lacks history, or ``error`` (a broken one only in a full clone)."""
        state = self.state()
        if state.shallow and state.partial:
            why, fix = "this is a shallow and partial clone", FETCH_BOTH
        elif state.shallow:
            why, fix = "this is a shallow clone", FETCH_HISTORY
        elif state.partial:
            why, fix = "this is a partial clone, which leaves objects out until they are needed", FETCH_OBJECTS
        else:
            why, fix = "git could not read all of the history", error.fix if error is not None else ""
        return Unavailable(why, error is not None and error.broken and self.complete, fix)

    def path_history(self, path: str) -> list[Revision]:
        """Every commit that changed ``path`` on any ref but the stash, renames followed, newest first.

        Once a run has asked git about :data:`ONE_PASS_AFTER` paths
        (:data:`ONE_PASS_AFTER_MANY` in a run of many files, :attr:`many_files`), one pass
        over all of history (:mod:`mechlint.provenance.onepass`) answers every
        path it can answer exactly; git is asked about the others one by one.
        """
        question = "log-no-stash\0" + path
        if question not in self._asked:
            changes = self._all_changes(question)
            followed = changes.follow(path) if changes is not None else None
            if followed is not None:
                return followed
        return parse_log(self._ask(question, _log_of(path)))

    def prefetch(self, paths: Iterable[str]) -> None:
        """Start now what the run will ask git later (HEAD, the refs, the log of each path), and return at once.

        Called by :mod:`mechlint.provenance.early` before the run has this
        history: git works while mechlint loads its rules. Each command's
        output is read, and checked, when the run asks that very question
        (:meth:`_early_answer`); one never asked is stopped by :meth:`close`.
        """
        commands: list[tuple[str, tuple[str, ...], bool]] = [("refs", _REFS, True)]
        if self._state is None:
            commands.insert(0, ("head", _HEAD, False))
        commands += [("log-no-stash\0" + path, _log_of(path), True) for path in paths]
        for question, args, check in commands:
            if question not in self._early and question not in self._asked:
                self._early[question] = (self.git.start(*args), args, check)

    def _early_answer(self, question: str) -> bytes | None:
        """The output of the command :meth:`prefetch` started for ``question`` (once), or ``None``."""
        started = self._early.pop(question, None)
        if started is None:
            return None
        process, args, check = started
        return self.git.finish(process, args, check)

    def _all_changes(self, question: str) -> AllChanges | None:
        """The one pass over history, once it is cheaper than asking about each path (kept between runs)."""
        from mechlint.provenance import onepass

        if self._changes is None:
            if self.answers is not None and self.answers.answer(self.refs_key(), question) is not None:
                return None  # this path's own answer is kept already
            self._unanswered += 1
            if self._unanswered < (ONE_PASS_AFTER_MANY if self.many_files else ONE_PASS_AFTER):
                return None  # a few paths (one file checked): cheaper to ask about each than to read all history
            self._changes = onepass.AllChanges(self._ask(onepass.QUESTION, ("log", *ALL_REFS, *onepass.ARGS)))
        return self._changes

    def blob_holders(self, blob: str) -> list[Revision]:
        """Every commit on any ref after which some path holds ``blob`` (checked to be hexadecimal), newest first.

        For each, ``git show <commit>:<path>`` gives the blob. Renames are not
        detected, so a moved copy counts as the path it moved to.
        """
        if not is_hex(blob):
            return []
        output = self._ask(
            "holders\0" + blob,
            (
                "log", *ALL_REFS, "--full-history", "--diff-merges=first-parent", "--raw", "--no-abbrev", "-z",
                "--no-renames", "--no-textconv", "--no-ext-diff", "--no-color", "--format=%x01%H %ct",
                f"--find-object={blob}",
            ),
        )  # fmt: skip
        return [r for r in parse_log(output) if r.blob == blob]

    def tree(self, commit: str) -> dict[str, str]:
        """``{path: blob}`` of every file in ``commit`` (checked to be hexadecimal); submodules are left out."""
        if not is_hex(commit):
            return {}
        if commit not in self._trees:
            output = self._ask("tree\0" + commit, ("ls-tree", "-r", "-z", "--full-tree", commit), per_refs=False)
            files: dict[str, str] = {}
            for entry in output.split(b"\0"):
                meta, tab, name = entry.partition(b"\t")
                fields = meta.decode("ascii", "replace").split()
                if tab and len(fields) == 3 and fields[1] == "blob" and is_hex(fields[2]):
                    files[name.decode("utf-8", "surrogateescape")] = fields[2]
            self._trees[commit] = files
        return self._trees[commit]

    def is_ancestor(self, commit: str, descendant: str) -> bool:
        """Whether ``commit`` is ``descendant`` or one of its ancestors (both checked to be hexadecimal)."""
        if not (is_hex(commit) and is_hex(descendant)):
            return False
        output = self._ask(
            f"base\0{commit}\0{descendant}", ("merge-base", commit, descendant), per_refs=False, check=False
        )
        return output.decode("ascii", "replace").strip() == commit

    def changes(self, commit: str) -> list[Revision]:
        """What ``commit`` (checked to be hexadecimal) changed against its first parent, renames detected."""
        if not is_hex(commit):
            return []
        output = self._ask(
            "changes\0" + commit,
            (
                "log", "-1", "--diff-merges=first-parent", "--raw", "--no-abbrev", "-z", "-M", "--no-textconv",
                "--no-ext-diff", "--no-color", "--format=%x01%H %ct", commit, "--",
            ),
            per_refs=False,
        )  # fmt: skip
        return parse_log(output)

    def unmerged_refs(self) -> list[str]:
        """The refs (the stash left out) whose commits HEAD does not contain; every ref without a HEAD."""
        head = self.state().head
        merged = () if head is None else (f"--no-merged={head}",)
        return self._ref_names(("for-each-ref", *merged, "--format=%(refname)"))

    def refs_containing(self, commit: str) -> list[str]:
        """The refs (the stash left out) whose history holds ``commit`` (checked to be hexadecimal)."""
        if not is_hex(commit):
            return []
        return self._ref_names(("for-each-ref", f"--contains={commit}", "--format=%(refname)"))

    def _ref_names(self, args: tuple[str, ...]) -> list[str]:
        output = self._ask("\0".join(("refs-of", *args[1:])), args, check=False)
        names = output.decode("utf-8", "replace").splitlines()
        return [name for name in names if name and name != "refs/stash"]

    def reachable_objects(self) -> list[str]:
        output = self.git.run(
            "rev-list", "--objects", *ALL_REFS, "--no-object-names", "--filter=object:type=blob",
            "--missing=allow-promisor",
        )  # fmt: skip
        return [line for line in output.decode("ascii", "replace").split() if is_hex(line)]

    def refs_fingerprint(self) -> str:
        output = self._early_answer("refs")
        if output is None:
            output = self.git.run(*_REFS)
        head = (self.state().head or "").encode()
        return hashlib.sha256(output + b"\0" + head).hexdigest()

    def describe(self, commit: str) -> str:
        """``abc123def456 (2026-06-11, "subject")`` for messages."""
        if not is_hex(commit):
            return commit
        output = self._ask(
            "show\0" + commit,
            ("show", "-s", "--no-show-signature", "--format=%cs%x00%s", commit, "--"),
            per_refs=False,
            check=False,
            without_git=lambda: self._commit_line(commit),
        )
        date, _, subject = output.decode("utf-8", "replace").strip().partition("\0")
        subject = subject if len(subject) <= 50 else subject[:49] + "…"
        return f'{commit[:12]} ({date}, "{subject}")' if date else commit[:12]

    def _commit_line(self, commit: str) -> bytes | None:
        """What ``git show`` prints for the usual commit, read through the running cat-file (``None`` otherwise)."""
        for _, kind, content in self.cat.read_many([commit]):
            if kind == "commit" and content is not None:
                return date_and_subject(content)
        return None

    def is_dirty(self) -> bool:
        """Whether a tracked file differs from HEAD (staged or not), found without running any filter.

        When git cannot say (a corrupt index), the tree counts as dirty: the claim that vouches for less.
        """
        from mechlint.provenance.worktree import is_dirty

        try:
            return is_dirty(self.git, self.cat, self.state().head)
        except GitError:
            return True

    def close(self) -> None:
        self.cat.close()
        for process, _, _ in self._early.values():  # started early, never asked: not needed after all
            invoke.kill_group(process)
            invoke.close(process)
        self._early.clear()


_HEAD = ("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
_REFS = ("for-each-ref", "--format=%(objectname) %(refname)")


def _log_of(path: str) -> tuple[str, ...]:
    """``git log`` of one path on every ref but the stash, renames followed (see :meth:`History.path_history`)."""
    return (
        "log", *ALL_REFS, "--full-history", "--diff-merges=first-parent", "--raw", "--no-abbrev", "-z",
        "--follow", "-M", "--no-textconv", "--no-ext-diff", "--no-color", "--format=%x01%H %ct",
        "--end-of-options", "--", path,
    )  # fmt: skip


def open_history(worktree: Path, *, wait: bool = True) -> History:
    """The history of the repository whose top folder is ``worktree``; raises :class:`GitError`.

    With ``wait=False`` HEAD and the refs are asked and not waited for
    (:meth:`History.prefetch`); HEAD is then checked by the first
    :meth:`History.state`.
    """
    git = Git(worktree)
    git.vet()
    dirs = gitdir.locate(worktree)
    history = History(worktree, dirs.git_dir, dirs.common_dir, git)
    if wait:
        history.state()
    else:
        history.prefetch(())
    return history
