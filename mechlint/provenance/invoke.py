"""How git is started: a clean environment, pinned configuration, a time limit.

A repository's own configuration (``.git/config``) is written by whoever
made the checkout, so every option that could make git start a program, open
a file, or reach the network is pinned on the command line, where it beats
every configuration file. Values that name a program point at
:data:`NEVER`, a path that cannot exist (``/dev/null`` is not a folder).
``GIT_ALLOW_PROTOCOL`` allows no transport at all, which overrides any
``protocol.*.allow`` a configuration sets, in git and in every git it starts
(a partial clone's lazy fetch). Commands that would run a repository's clean
filters (``git diff`` or ``git status`` against the working tree) are not used
at all: :mod:`mechlint.provenance.worktree` hashes the bytes itself.

git runs in a session of its own (no terminal to open), and a
:class:`Watchdog` kills its process group when it makes no progress for
:data:`STALL_SECONDS` (blocked on a FIFO or a terminal) or runs past
:data:`TIME_LIMIT`. A :class:`BatchGit` is a git that stays up and reads its
questions on standard input (``cat-file --batch``, ``check-attr --stdin``).

Long: starting git, watching it and ending it are one concern: the batch
processes are started and stopped with the same environment, arguments and
watchdog as every other command, and splitting them apart would spread the
guarantees of docs/security.md ("Git") over several modules.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar, Protocol

from mechlint.provenance.errors import GitError

#: A program path that cannot exist: nothing under ``/dev/null`` can.
NEVER = "/dev/null/mechlint-runs-no-program"
#: Seconds without any CPU use, while mechlint waits for git, after which git is stopped.
STALL_SECONDS = 5.0
#: How often a waiting process is looked at, in seconds.
POLL = 0.2
#: Seconds any one git command may run at most.
TIME_LIMIT = 300.0

#: ``(key, value)`` given with ``-c`` to every git command: each could start a program or read a file.
PINNED: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),  # a program git runs to list changed files
    ("core.hooksPath", "/dev/null"),  # hooks would be /dev/null/<name>: never found
    ("core.untrackedCache", "false"),
    ("core.pager", "cat"),  # with --no-pager: no pager, and pager.<command> is not consulted
    ("core.editor", NEVER),
    ("sequence.editor", NEVER),
    ("core.askPass", NEVER),
    ("core.sshCommand", NEVER),
    ("core.gitProxy", NEVER),
    ("core.alternateRefsCommand", NEVER),
    ("core.attributesFile", "/dev/null"),
    ("core.excludesFile", "/dev/null"),
    ("credential.helper", ""),  # an empty value empties the list of helpers
    ("diff.external", ""),
    ("diff.orderFile", "/dev/null"),
    ("log.showSignature", "false"),  # a signature check runs gpg.program
    ("log.mailmap", "false"),  # reads .mailmap and mailmap.file
    ("mailmap.file", "/dev/null"),
    ("mailmap.blob", ""),
    ("gpg.program", NEVER),
    ("gpg.openpgp.program", NEVER),
    ("gpg.x509.program", NEVER),
    ("gpg.ssh.program", NEVER),
    ("gpg.ssh.defaultKeyCommand", NEVER),
    ("gpg.ssh.allowedSignersFile", "/dev/null"),
    ("gpg.ssh.revocationFile", "/dev/null"),
    ("uploadpack.packObjectsHook", NEVER),
    ("protocol.allow", "never"),
    ("submodule.recurse", "false"),
    ("color.ui", "false"),
)


def find_git() -> str | None:
    """The ``git`` program on ``PATH``, looked for only in absolute folders.

    ``shutil.which`` also looks in relative ``PATH`` entries (an empty entry,
    ``.``, ``bin``), which name folders of the working folder: in a
    repository, a ``git`` program the repository carries. Those entries are
    skipped, so a repository can never be the place git is found.
    """
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not os.path.isabs(folder):
            continue
        candidate = os.path.join(folder, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def clean_environment() -> dict[str, str]:
    """The environment git runs in: nothing ``GIT_*`` inherited, no prompts, no transport, no lazy fetch."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",
        GIT_NO_LAZY_FETCH="1",
        GIT_NO_REPLACE_OBJECTS="1",
        GIT_ALLOW_PROTOCOL="/",  # no transport is called "/": none is allowed, whatever the configuration says
        GIT_PROTOCOL_FROM_USER="0",
        GIT_ASKPASS=NEVER,
        SSH_ASKPASS=NEVER,
        GIT_EDITOR=NEVER,
        GIT_PAGER="cat",
        LC_ALL="C",
        LANGUAGE="C",
    )
    return env


def pinned_options() -> list[str]:
    options = ["--no-pager", "--literal-pathspecs", "--no-replace-objects"]
    for key, value in PINNED:
        options += ["-c", f"{key}={value}"]
    return options


def cpu_and_state(pid: int) -> tuple[int, str] | None:
    """The CPU ticks a process has used and its state letter (Linux ``/proc``); ``None`` when unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            text = stream.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    if len(fields) < 13:
        return None
    return int(fields[11]) + int(fields[12]), fields[0]


class Judge:
    """Decides whether one git process is stuck: the rule of :class:`Watchdog`, asked every :data:`POLL` seconds.

    Stuck means no CPU used for :data:`STALL_SECONDS` while mechlint waits
    for it and it sleeps (not while running or waiting for the disk), or
    :data:`TIME_LIMIT` passed. Without ``/proc`` only the time limit applies.
    """

    def __init__(self, process: subprocess.Popen[bytes], what: str) -> None:
        self.process = process
        self.what = what
        self.started = self.quiet_since = time.monotonic()
        self.last: tuple[int, str] | None = None

    def verdict(self, waiting: bool) -> str:
        """Why the process must be stopped now, or ``""``."""
        now = time.monotonic()
        if now - self.started > TIME_LIMIT:
            return f"git {self.what} ran for more than {TIME_LIMIT:.0f} s and was stopped"
        sample = cpu_and_state(self.process.pid)
        moving = sample is None or sample[1] in ("R", "D") or self.last is None or sample[0] != self.last[0]
        self.last = sample
        if not waiting or moving:
            self.quiet_since = now
        elif now - self.quiet_since > STALL_SECONDS:
            return (
                f"git {self.what} made no progress for {STALL_SECONDS:.0f} s and was stopped "
                "(is a file git reads in the repository a FIFO or a device?)"
            )
        return ""


class Watchdog:
    """Stops a long-lived git process (``cat-file --batch``) that is stuck while mechlint waits for it.

    A thread asks the :class:`Judge` every :data:`POLL` seconds. Only time
    spent *waiting* counts: a ``cat-file --batch`` idle between questions is
    not stuck.
    """

    def __init__(self, process: subprocess.Popen[bytes], what: str) -> None:
        self.process = process
        self.verdict = ""
        self._judge = Judge(process, what)
        self._waiting = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        #: The thread that asks the judge (a daemon: it never keeps Python from exiting).
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    @contextmanager
    def waiting(self) -> Iterator[None]:
        with self._lock:
            self._waiting += 1
        try:
            yield
        finally:
            with self._lock:
                self._waiting -= 1

    def _watch(self) -> None:
        while not self._stop.wait(POLL):
            if self.process.returncode is not None:  # reaped: nothing left to watch
                return
            with self._lock:
                waiting = self._waiting > 0
            verdict = self._judge.verdict(waiting)
            if verdict:
                self.verdict = verdict
                kill_group(self.process)
                return

    def stop(self) -> None:
        self._stop.set()


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill git and anything it started (it leads a session of its own)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    except OSError:
        process.kill()


def stop_batch(process: subprocess.Popen[bytes] | None, dog: Watchdog | None) -> None:
    """End a long-lived git (``cat-file --batch``, ``check-attr --stdin``): its watchdog, then its input, then it.

    git ends when its standard input closes; one that does not within 5 s is killed with what it started.
    """
    if dog is not None:
        dog.stop()
    if process is None:
        return
    if process.stdin:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        kill_group(process)
        process.wait()
    if process.stdout:
        process.stdout.close()


def start(command: list[str], cwd: str, env: dict[str, str], *, interactive: bool) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if interactive else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if interactive else subprocess.PIPE,
            start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
        )
    except OSError as error:
        raise GitError(f"git could not run ({error.strerror or error})") from None


def run(command: list[str], cwd: str, env: dict[str, str], what: str) -> tuple[int, bytes, bytes]:
    """Run one git command to the end; raises :class:`GitError` when it was stopped.

    The waiting thread asks the :class:`Judge` between waits of :data:`POLL`
    seconds, so a short command starts no watchdog thread.
    """
    return finish(start(command, cwd, env, interactive=False), what)


def finish(process: subprocess.Popen[bytes], what: str) -> tuple[int, bytes, bytes]:
    """Wait for a git command :func:`start` started (not interactive) to end, as :func:`run` does."""
    judge = Judge(process, what)
    try:
        while True:
            try:
                out, err = process.communicate(timeout=POLL)
                break
            except subprocess.TimeoutExpired:
                verdict = judge.verdict(waiting=True)
                if verdict:
                    kill_group(process)
                    close(process)
                    raise GitError(verdict) from None
    finally:
        if process.poll() is None:  # interrupted (Ctrl-C): leave nothing running
            kill_group(process)
            process.wait()
    return process.returncode, out, err


def close(process: subprocess.Popen[bytes]) -> None:
    """Stop reading a killed process: a program it started in a session of its own may keep its pipes open."""
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    process.wait()


class Runner(Protocol):
    """What a long-lived git needs of the repository it runs in (``mechlint.provenance.git.Git``)."""

    worktree: Path
    env: dict[str, str]

    def command(self, *args: str) -> list[str]: ...

    def vet(self) -> object: ...


class BatchGit:
    """One long-lived git that reads its questions on standard input (started when first asked, again if it died)."""

    #: The git arguments, and the name its watchdog gives it.
    ARGUMENTS: ClassVar[tuple[str, ...]] = ()
    NAME: ClassVar[str] = ""

    def __init__(self, git: Runner) -> None:
        self.git = git
        self.process: subprocess.Popen[bytes] | None = None
        self.dog: Watchdog | None = None
        self.lock = threading.Lock()

    def _start(self) -> tuple[subprocess.Popen[bytes], Watchdog]:
        if self.process is None or self.dog is None or self.process.poll() is not None:
            self.close()
            self.git.vet()
            command = self.git.command(*self.ARGUMENTS)
            self.process = start(command, os.fspath(self.git.worktree), self.git.env, interactive=True)
            self.dog = Watchdog(self.process, self.NAME)
        return self.process, self.dog

    def close(self) -> None:
        stop_batch(self.process, self.dog)
        self.process, self.dog = None, None
