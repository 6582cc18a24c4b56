"""Git history behind a small interface: one implementation on git, one for "no history".

Everything runs through git's plumbing with fixed arguments: nothing read
from a mechanism file ever becomes an option (paths come after ``--`` with
``--literal-pathspecs``; object ids go on standard input, or are checked to
be hexadecimal first). git runs in a clean environment (no inherited
``GIT_*`` variables, no prompts, no optional locks, no lazy fetches of a
partial clone, no replace objects) and with configuration that turns off
fsmonitor, hooks, external diff and textconv, so a hostile repository
configuration cannot make mechlint run anything. gitpython finds the
repository; nothing here writes to it except mechlint's own cache.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from mechlint.provenance.errors import GitError

if TYPE_CHECKING:
    from mechlint.provenance.cache import BlobCache

_HEX = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
#: Every ref but the stash: stashed work was never committed, so it is not the history a pin may rest on.
ALL_REFS = ("--exclude=refs/stash", "--all")
_SAFE_CONFIG = (
    "-c", "core.fsmonitor=false",
    "-c", "core.hooksPath=/dev/null",
    "-c", "core.untrackedCache=false",
    "-c", "diff.external=",
    "-c", "protocol.allow=never",
    "-c", "core.pager=cat",
)  # fmt: skip


def clean_environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_LAZY_FETCH="1",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_ASKPASS="",
        SSH_ASKPASS="",
        LC_ALL="C",
        LANGUAGE="C",
    )
    return env


@dataclass(frozen=True, slots=True)
class Revision:
    """One commit in a path's history: the blob the path held after it (``None`` when deleted)."""

    commit: str
    time: int
    path: str
    blob: str | None
    previous: str | None
    #: The name the path had before this commit, when the commit renamed (or copied) it.
    origin: str | None = None


def _is_hex(value: str) -> bool:
    return bool(_HEX.fullmatch(value))


class Git:
    """Runs fixed git commands in one repository."""

    def __init__(self, worktree: Path) -> None:
        executable = shutil.which("git")
        if executable is None:
            raise GitError("git is not installed")
        self.executable = executable
        self.worktree = worktree
        self.env = clean_environment()

    def command(self, *args: str) -> list[str]:
        return [self.executable, "--no-pager", "--literal-pathspecs", "--no-replace-objects", *_SAFE_CONFIG, *args]

    def run(self, *args: str, check: bool = True) -> bytes:
        try:
            done = subprocess.run(
                self.command(*args),
                cwd=self.worktree,
                env=self.env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=300,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise GitError(f"git could not run ({error})") from None
        if check and done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(explain(message[-1] if message else f"git exited with {done.returncode}"))
        return done.stdout


def explain(message: str) -> str:
    if "dubious ownership" in message or "safe.directory" in message:
        return "git refuses to read this repository because another user owns it (safe.directory)"
    if "not a git repository" in message:
        return "this is not a git repository"
    return f"git failed: {message}"


#: Writes to a pipe up to this size are atomic and never wait for the reader (POSIX PIPE_BUF).
_ATOMIC_WRITE = 4096


class CatFile:
    """One long-lived ``git cat-file --batch``; object ids go on its standard input."""

    def __init__(self, git: Git) -> None:
        self.git = git
        self.process: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen[bytes]:
        if self.process is None or self.process.poll() is not None:
            try:
                self.process = subprocess.Popen(
                    self.git.command("cat-file", "--batch"),
                    cwd=self.git.worktree,
                    env=self.git.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            except OSError as error:
                raise GitError(f"git could not run ({error})") from None
        return self.process

    def read_many(self, oids: Iterable[str]) -> Iterator[tuple[str, str, bytes | None]]:
        """``(oid, type, content)`` for each id, in order; content is ``None`` when missing."""
        wanted = [oid for oid in oids if _is_hex(oid)]
        if not wanted:
            return
        with self.lock:
            process = self._start()
            assert process.stdin is not None and process.stdout is not None
            writer = None
            if len(wanted) * 41 <= _ATOMIC_WRITE:  # fits the pipe at once: git cannot block us while we write
                _feed(process.stdin, wanted)
            else:  # git may fill its output pipe before it has read all of ours: write from another thread
                writer = threading.Thread(target=_feed, args=(process.stdin, wanted), daemon=True)
                writer.start()
            stream = process.stdout
            for oid in wanted:
                header = stream.readline()
                if not header:
                    raise GitError("git cat-file stopped unexpectedly (a corrupt object?)")
                parts = header.split()
                if len(parts) < 3 or parts[1] == b"missing":
                    yield oid, "missing", None
                    continue
                size = int(parts[2])
                content = stream.read(size)
                stream.read(1)
                yield oid, parts[1].decode("ascii", "replace"), content
            if writer is not None:
                writer.join()

    def close(self) -> None:
        if self.process is not None:
            if self.process.stdin:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
            if self.process.stdout:
                self.process.stdout.close()
            self.process = None


def _feed(stdin: IO[bytes], oids: list[str]) -> None:
    try:
        stdin.write(b"".join(oid.encode() + b"\n" for oid in oids))
        stdin.flush()
    except (BrokenPipeError, OSError):
        pass


def parse_log(output: bytes) -> list[Revision]:
    """Parse ``git log --raw -z --format=%x01%H %ct`` output, newest first."""
    revisions: list[Revision] = []
    for record in output.split(b"\x01")[1:]:
        header, _, rest = record.partition(b"\0")
        fields = header.decode("ascii", "replace").split()
        if len(fields) != 2 or not _is_hex(fields[0]):
            continue
        commit, time = fields[0], int(fields[1]) if fields[1].isdigit() else 0
        parts = rest.lstrip(b"\n").split(b"\0")
        index = 0
        while index < len(parts) and parts[index].startswith(b":"):
            meta = parts[index][1:].decode("ascii", "replace").split()
            if len(meta) < 5:
                break
            old_blob, new_blob, status = meta[2], meta[3], meta[4]
            count = 2 if status[:1] in ("R", "C") else 1
            names = [p.decode("utf-8", "surrogateescape") for p in parts[index + 1 : index + 1 + count]]
            index += 1 + count
            if not names:
                break
            path = names[-1]
            blob = None if set(new_blob) == {"0"} or meta[1] == "160000" else new_blob
            previous = None if set(old_blob) == {"0"} else old_blob
            origin = names[0] if count == 2 and len(names) == 2 else None
            revisions.append(Revision(commit, time, path, blob, previous, origin))
    return revisions


@dataclass(frozen=True, slots=True)
class RepositoryState:
    shallow: bool
    partial: bool
    head: str | None


class History:
    """Read-only history of one repository; ``NoHistory`` answers that there is none."""

    available = True
    reason = ""

    def __init__(self, worktree: Path, git_dir: Path, common_dir: Path) -> None:
        self.worktree = worktree
        self.git_dir = git_dir
        self.common_dir = common_dir
        self.git = Git(worktree)
        self.cat = CatFile(self.git)
        self._state: RepositoryState | None = None
        #: Where git's answers are kept between runs (the blob cache); attached by the caller, optional.
        self.answers: BlobCache | None = None
        self._asked: dict[str, bytes] = {}
        self._trees: dict[str, dict[str, str]] = {}
        self._refs: str | None = None

    def _ask(self, question: str, args: tuple[str, ...], *, per_refs: bool = True, check: bool = True) -> bytes:
        """The output of ``git ARGS``, asked once a run, and kept between runs while the refs stay the same.

        ``per_refs=False`` for answers that cannot change (about one commit).
        """
        if question in self._asked:
            return self._asked[question]
        refs = self.refs_key() if per_refs else ""
        answer = self.answers.answer(refs, question) if self.answers is not None else None
        if answer is None:
            answer = self.git.run(*args, check=check)
            if self.answers is not None:
                self.answers.remember(refs, question, answer)
        self._asked[question] = answer
        return answer

    def refs_key(self) -> str:
        """The refs, HEAD and shallowness: what history answers depend on. Computed once a run."""
        if self._refs is None:
            self._refs = f"{self.refs_fingerprint()}:{'shallow' if self.state().shallow else 'full'}"
            if self.answers is not None:
                self.answers.keep_answers_for(self._refs)
        return self._refs

    def state(self) -> RepositoryState:
        if self._state is None:
            # what `git rev-parse --is-shallow-repository` reads, without a process of its own
            shallow = (self.common_dir / "shallow").is_file()
            config = self.git.run(
                "config", "--null", "--get-regexp", r"^(extensions\.partialclone|remote\..*\.promisor)$", check=False
            )
            partial = bool(config.strip())
            head_out = self.git.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).strip()
            head = head_out.decode() if _is_hex(head_out.decode("ascii", "replace")) else None
            self._state = RepositoryState(shallow, partial, head)
        return self._state

    @property
    def complete(self) -> bool:
        state = self.state()
        return not state.shallow and not state.partial

    def path_history(self, path: str) -> list[Revision]:
        """Every commit that changed ``path`` on any ref but the stash, renames followed, newest first."""
        output = self._ask(
            "log-no-stash\0" + path,
            (
                "log", *ALL_REFS, "--full-history", "--diff-merges=first-parent", "--raw", "--no-abbrev", "-z",
                "--follow", "-M", "--no-textconv", "--no-ext-diff", "--no-color", "--format=%x01%H %ct",
                "--end-of-options", "--", path,
            ),
        )  # fmt: skip
        return parse_log(output)

    def blob_holders(self, blob: str) -> list[Revision]:
        """Every commit on any ref after which some path holds ``blob`` (checked to be hexadecimal), newest first.

        For each, ``git show <commit>:<path>`` gives the blob. Renames are not
        detected, so a moved copy counts as the path it moved to.
        """
        if not _is_hex(blob):
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
        if not _is_hex(commit):
            return {}
        if commit not in self._trees:
            output = self._ask("tree\0" + commit, ("ls-tree", "-r", "-z", "--full-tree", commit), per_refs=False)
            files: dict[str, str] = {}
            for entry in output.split(b"\0"):
                meta, tab, name = entry.partition(b"\t")
                fields = meta.decode("ascii", "replace").split()
                if tab and len(fields) == 3 and fields[1] == "blob" and _is_hex(fields[2]):
                    files[name.decode("utf-8", "surrogateescape")] = fields[2]
            self._trees[commit] = files
        return self._trees[commit]

    def is_ancestor(self, commit: str, descendant: str) -> bool:
        """Whether ``commit`` is ``descendant`` or one of its ancestors (both checked to be hexadecimal)."""
        if not (_is_hex(commit) and _is_hex(descendant)):
            return False
        output = self._ask(
            f"base\0{commit}\0{descendant}", ("merge-base", commit, descendant), per_refs=False, check=False
        )
        return output.decode("ascii", "replace").strip() == commit

    def reachable_objects(self) -> list[str]:
        output = self.git.run("rev-list", "--objects", *ALL_REFS, "--no-object-names", "--filter=object:type=blob")
        return [line for line in output.decode("ascii", "replace").split() if _is_hex(line)]

    def refs_fingerprint(self) -> str:
        output = self.git.run("for-each-ref", "--format=%(objectname) %(refname)")
        head = (self.state().head or "").encode()
        return hashlib.sha256(output + b"\0" + head).hexdigest()

    def describe(self, commit: str) -> str:
        """``abc123def456 (2026-06-11, "subject")`` for messages."""
        if not _is_hex(commit):
            return commit
        output = self._ask(
            "show\0" + commit,
            ("show", "-s", "--no-show-signature", "--format=%cs%x00%s", commit, "--"),
            per_refs=False,
            check=False,
        )
        date, _, subject = output.decode("utf-8", "replace").strip().partition("\0")
        subject = subject if len(subject) <= 50 else subject[:49] + "…"
        return f'{commit[:12]} ({date}, "{subject}")' if date else commit[:12]

    def is_dirty(self) -> bool:
        output = self.git.run("status", "--porcelain", "--untracked-files=no", "--ignore-submodules", check=False)
        return bool(output.strip())

    def close(self) -> None:
        self.cat.close()


def _plain_git_dir(worktree: Path) -> Path | None:
    """``worktree/.git`` when it is an ordinary repository folder (a real folder with HEAD and objects)."""
    folder = worktree / ".git"
    if folder.is_symlink() or not folder.is_dir():
        return None
    if not (folder / "HEAD").is_file() or not (folder / "objects").is_dir() or (folder / "commondir").exists():
        return None
    return folder


def open_history(worktree: Path) -> History:
    """The history of the repository whose top folder is ``worktree``; raises :class:`GitError`.

    An ordinary ``.git`` folder is recognised directly; anything else (a
    ``.git`` file of a linked worktree or a submodule, a link) is left to
    gitpython, whose import alone costs more than a one-file check.
    """
    plain = _plain_git_dir(worktree)
    if plain is not None:
        git_dir = common_dir = plain
    else:
        import git as gitpython

        try:
            repo = gitpython.Repo(worktree, search_parent_directories=False)
            git_dir = Path(repo.git_dir)
            common_dir = Path(repo.common_dir)
        except (gitpython.exc.InvalidGitRepositoryError, gitpython.exc.NoSuchPathError):
            raise GitError("this is not a git repository") from None
        except Exception as error:  # gitpython reports a broken repository in many ways
            raise GitError(f"git cannot read this repository ({type(error).__name__})") from None
    history = History(worktree, git_dir, common_dir)
    history.state()
    return history
