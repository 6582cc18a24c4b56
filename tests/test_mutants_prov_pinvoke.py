"""Tests written for the survivors of a mutation run over provenance/invoke.py, early.py and cache.py.

invoke.py: how git is started (the environment, the options, the session)
and how a stuck one is stopped (the :class:`~mechlint.provenance.invoke.Judge`'s
rule, on a fake clock and fake ``/proc`` samples; the watchdog on real
sleeping processes).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mechlint.provenance import cache as cache_module
from mechlint.provenance import early, invoke
from mechlint.provenance.cache import BlobCache
from mechlint.provenance.errors import GitError
from mechlint.provenance.git import Git, History

from .gitrepo import commit, git, init, write

ROOT = Path(__file__).resolve().parent.parent
STALL = (
    "git {what} made no progress for {seconds} s and was stopped "
    "(is a file git reads in the repository a FIFO or a device?)"
)


# -- where git is found, and what it runs with ------------------------------------------


def _program(path: Path, mode: int = 0o755) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(mode)
    return path


def test_git_is_found_only_as_an_executable_file_in_an_absolute_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _program(tmp_path / "bin" / "git")  # "bin" on PATH names the working folder's bin: never looked in
    _program(tmp_path / "plain" / "git", 0o644)  # a file, not executable
    (tmp_path / "folder" / "git").mkdir(parents=True)  # executable, not a file
    found = _program(tmp_path / "real" / "git")
    folders = ["bin", "", str(tmp_path / "plain"), str(tmp_path / "folder"), str(tmp_path / "real")]
    monkeypatch.setenv("PATH", os.pathsep.join(folders))
    assert invoke.find_git() == str(found)
    monkeypatch.setenv("PATH", os.pathsep.join(folders[:-1]))
    assert invoke.find_git() is None


def test_git_runs_with_nothing_git_inherited_and_every_prompt_and_transport_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_DIR", "/somewhere/else")
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor=/tmp/run-me'")
    monkeypatch.setenv("MECHLINT_TEST_KEPT", "kept")
    env = invoke.clean_environment()
    assert {key: value for key, value in env.items() if key.startswith("GIT_")} == {
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_NO_LAZY_FETCH": "1",
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_ALLOW_PROTOCOL": "/",
        "GIT_PROTOCOL_FROM_USER": "0",
        "GIT_ASKPASS": invoke.NEVER,
        "GIT_EDITOR": invoke.NEVER,
        "GIT_PAGER": "cat",
    }
    assert (env["SSH_ASKPASS"], env["LC_ALL"], env["LANGUAGE"]) == (invoke.NEVER, "C", "C")
    assert env["MECHLINT_TEST_KEPT"] == "kept"


def test_the_pinned_options_are_given_as_key_equals_value_and_beat_the_repositorys_configuration(
    tmp_path: Path,
) -> None:
    options = invoke.pinned_options()
    assert options[:3] == ["--no-pager", "--literal-pathspecs", "--no-replace-objects"]
    assert options[3:9] == [
        *("-c", "core.fsmonitor=false"),
        *("-c", "core.hooksPath=/dev/null"),
        *("-c", "core.untrackedCache=false"),
    ]
    assert options[-2:] == ["-c", "color.ui=false"]
    assert len(options) == 3 + 2 * len(invoke.PINNED)
    repo = init(tmp_path / "repo")
    git(repo, "config", "core.hooksPath", str(tmp_path / "hooks"))
    executable = invoke.find_git()
    assert executable
    command = [executable, *options, "config", "--get", "core.hooksPath"]  # the value git uses: the last one
    assert invoke.run(command, str(repo), invoke.clean_environment(), "config") == (0, b"/dev/null\n", b"")


# -- a process's CPU and state, from /proc ------------------------------------------------


def _fake_stat(monkeypatch: pytest.MonkeyPatch, text: str | None) -> list[str]:
    opened: list[str] = []

    def fake_open(path: str, mode: str) -> io.BytesIO:
        opened.append(path)
        assert mode == "rb"
        if text is None:
            raise FileNotFoundError(path)
        return io.BytesIO(text.encode())

    monkeypatch.setattr(invoke, "open", fake_open, raising=False)
    return opened


def test_cpu_and_state_are_read_after_the_last_parenthesis_of_proc_stat(monkeypatch: pytest.MonkeyPatch) -> None:
    # the name may hold ")" and spaces; fields 14 and 15 (user and system ticks) follow the state, field 3
    opened = _fake_stat(monkeypatch, "4242 (a) b) S 1 2 3 4 5 6 7 8 9 10 300 45")
    assert invoke.cpu_and_state(4242) == (345, "S")
    assert opened == ["/proc/4242/stat"]


def test_cpu_and_state_need_thirteen_fields_and_a_readable_file(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_stat(monkeypatch, "7 (git) D 1 2 3 4 5 6 7 8 9 10 11")  # twelve fields after the name
    assert invoke.cpu_and_state(7) is None
    _fake_stat(monkeypatch, "7 (git) D 1 2 3 4 5 6 7 8 9 10 11 2")
    assert invoke.cpu_and_state(7) == (13, "D")
    _fake_stat(monkeypatch, None)
    assert invoke.cpu_and_state(7) is None


@pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/stat"), reason="needs Linux /proc")
def test_cpu_and_state_of_a_real_sleeping_process() -> None:
    process = subprocess.Popen(["sleep", "30"])
    try:
        deadline = time.monotonic() + 10
        while (sample := invoke.cpu_and_state(process.pid)) is not None and sample[1] != "S":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert sample is not None
        assert sample[1] == "S"
        assert sample[0] >= 0
    finally:
        process.kill()
        process.wait()
    assert invoke.cpu_and_state(process.pid) is None  # reaped: no /proc entry


# -- the judge's rule, on a fake clock ------------------------------------------------------


def _judge(monkeypatch: pytest.MonkeyPatch, samples: list[tuple[int, str] | None]) -> tuple[invoke.Judge, list[float]]:
    now = [1000.0]
    monkeypatch.setattr(invoke, "time", SimpleNamespace(monotonic=lambda: now[0]))
    given = iter(samples)
    monkeypatch.setattr(invoke, "cpu_and_state", lambda pid: next(given))
    process: Any = SimpleNamespace(pid=4242)
    return invoke.Judge(process, "cat-file"), now


def test_a_git_that_sleeps_without_cpu_for_more_than_five_seconds_is_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    judge, now = _judge(monkeypatch, [(10, "S"), (10, "S"), (10, "S")])
    now[0] = 1001.0
    assert judge.verdict(waiting=True) == ""  # the first look: nothing to compare with
    now[0] = 1006.0
    assert judge.verdict(waiting=True) == ""  # quiet for exactly 5 s: not more
    now[0] = 1006.5
    assert judge.verdict(waiting=True) == STALL.format(what="cat-file", seconds=5)


def test_cpu_used_running_the_disk_an_unknown_state_or_not_waiting_each_start_the_quiet_time_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each look comes 5.5 s after the one before: only a reason to count the process as moving keeps it."""
    samples: list[tuple[int, str] | None] = [(10, "S"), (11, "S"), (11, "R"), (11, "D"), None, (11, "S"), (11, "S")]
    judge, now = _judge(monkeypatch, [*samples, (11, "S")])
    verdicts = []
    for look, waiting in enumerate([True, True, True, True, True, True, False]):
        now[0] = 1000.0 + 5.5 * (look + 1)
        verdicts.append(judge.verdict(waiting=waiting))
    assert verdicts == [""] * 7
    now[0] += 5.5
    assert judge.verdict(waiting=True) == STALL.format(what="cat-file", seconds=5)


def test_a_git_that_runs_past_the_time_limit_is_stopped_whatever_it_does(monkeypatch: pytest.MonkeyPatch) -> None:
    judge, now = _judge(monkeypatch, [(1, "R"), None])
    now[0] = 1300.0
    assert judge.verdict(waiting=False) == ""
    now[0] = 1300.5
    assert judge.verdict(waiting=False) == "git cat-file ran for more than 300 s and was stopped"


# -- the watchdog of a long-lived git, on real sleeping processes ----------------------------


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    process = invoke.start(["sleep", "60"], "/", invoke.clean_environment(), interactive=True)
    yield process
    invoke.kill_group(process)
    process.wait()


def test_the_watchdog_stops_a_stuck_process_only_while_someone_waits_for_it(
    sleeper: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(invoke, "STALL_SECONDS", 0.3)
    dog = invoke.Watchdog(sleeper, "sleep")
    try:
        with dog.waiting():
            pass
        time.sleep(1.5)  # idle between questions, after one was answered: not stuck
        assert (sleeper.poll(), dog.verdict) == (None, "")
        with dog.waiting():
            assert sleeper.wait(timeout=30) == -signal.SIGKILL
        assert dog.verdict == STALL.format(what="sleep", seconds=0)
        dog.thread.join(timeout=10)
        assert not dog.thread.is_alive()
    finally:
        dog.stop()


def test_the_watchdog_thread_ends_when_its_process_was_reaped_or_it_is_stopped(
    sleeper: subprocess.Popen[bytes],
) -> None:
    dog = invoke.Watchdog(sleeper, "sleep")
    dog.stop()
    dog.thread.join(timeout=10)
    assert not dog.thread.is_alive()
    other = invoke.Watchdog(sleeper, "sleep")
    invoke.kill_group(sleeper)
    sleeper.wait()
    other.thread.join(timeout=10)
    assert not other.thread.is_alive()
    assert other.verdict == ""


def test_a_watchdog_never_keeps_python_from_exiting(tmp_path: Path) -> None:
    script = (
        "from mechlint.provenance import invoke\n"
        "process = invoke.start(['sleep', '30'], '/', invoke.clean_environment(), interactive=True)\n"
        "invoke.Watchdog(process, 'sleep')\n"
        "print(process.pid, flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    pid = int(child.stdout.readline())
    try:
        assert child.wait(timeout=20) == 0
    finally:
        child.kill()
        child.wait()
        os.killpg(pid, signal.SIGKILL)


# -- starting, finishing and ending ------------------------------------------------------------


def test_git_is_started_in_a_session_of_its_own_and_a_program_that_cannot_run_is_named(tmp_path: Path) -> None:
    process = invoke.start(["sleep", "30"], "/", invoke.clean_environment(), interactive=False)
    try:
        assert os.getsid(process.pid) == process.pid
        assert process.stdin is None  # not interactive: standard input is /dev/null
    finally:
        invoke.kill_group(process)
        invoke.close(process)
    assert process.returncode == -signal.SIGKILL
    with pytest.raises(GitError) as raised:
        invoke.start([str(tmp_path / "no-git")], "/", invoke.clean_environment(), interactive=False)
    assert str(raised.value) == "git could not run (No such file or directory)"


def test_run_returns_the_exit_code_the_output_and_the_errors() -> None:
    command = ["sh", "-c", 'read line; echo "[$line]"; echo oops >&2; exit 3']
    assert invoke.run(command, "/", invoke.clean_environment(), "test") == (3, b"[]\n", b"oops\n")


def test_run_stops_a_command_that_makes_no_progress_and_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(invoke, "STALL_SECONDS", 0.3)
    with pytest.raises(GitError) as raised:
        invoke.run(["sleep", "20"], "/", invoke.clean_environment(), "sleep")
    assert str(raised.value) == STALL.format(what="sleep", seconds=0)


class _Patient:
    """A process that answers on the third look, each look waiting :data:`invoke.POLL` seconds."""

    def __init__(self) -> None:
        self.pid = os.getpid()  # running: never judged stuck
        self.returncode: int | None = None
        self.timeouts: list[float] = []

    def communicate(self, timeout: float) -> tuple[bytes, bytes]:
        self.timeouts.append(timeout)
        if len(self.timeouts) < 3:
            raise subprocess.TimeoutExpired("git", timeout)
        self.returncode = 0
        return b"out", b"err"

    def poll(self) -> int | None:
        return self.returncode


def test_finish_looks_at_a_waiting_process_every_fifth_of_a_second() -> None:
    process: Any = _Patient()
    assert invoke.finish(process, "test") == (0, b"out", b"err")
    assert process.timeouts == [0.2, 0.2, 0.2]


def test_finish_interrupted_leaves_nothing_running(monkeypatch: pytest.MonkeyPatch) -> None:
    process = invoke.start(["sleep", "30"], "/", invoke.clean_environment(), interactive=False)

    def interrupted(timeout: float) -> tuple[bytes, bytes]:
        raise KeyboardInterrupt

    monkeypatch.setattr(process, "communicate", interrupted)
    with pytest.raises(KeyboardInterrupt):
        invoke.finish(process, "sleep")
    assert process.returncode == -signal.SIGKILL


def test_close_closes_the_pipes_a_process_has() -> None:
    quiet = invoke.start(["sleep", "30"], "/", invoke.clean_environment(), interactive=False)
    asking = invoke.start(["sleep", "30"], "/", invoke.clean_environment(), interactive=True)
    for process in (quiet, asking):
        invoke.kill_group(process)
        invoke.close(process)
    assert quiet.stdout is not None and quiet.stderr is not None
    assert (quiet.stdout.closed, quiet.stderr.closed, quiet.returncode) == (True, True, -signal.SIGKILL)
    assert asking.stdout is not None and asking.stderr is None
    assert (asking.stdout.closed, asking.returncode) == (True, -signal.SIGKILL)


class _Deaf:
    """A batch process that does not end when its input closes."""

    def __init__(self) -> None:
        self.stdin = io.BytesIO()
        self.stdout = io.BytesIO()
        self.waits: list[float | None] = []

    def wait(self, timeout: float | None = None) -> int:
        self.waits.append(timeout)
        if timeout is not None:
            raise subprocess.TimeoutExpired("git", timeout)
        return -9


def test_stop_batch_closes_the_input_waits_five_seconds_then_kills(monkeypatch: pytest.MonkeyPatch) -> None:
    killed: list[object] = []
    monkeypatch.setattr(invoke, "kill_group", killed.append)
    process: Any = _Deaf()
    invoke.stop_batch(process, None)
    assert (process.stdin.closed, process.waits, killed, process.stdout.closed) == (True, [5, None], [process], True)
    invoke.stop_batch(None, None)  # nothing started: nothing to do


def test_stop_batch_stops_the_watchdog_and_a_git_that_ends_when_its_input_closes() -> None:
    process = invoke.start(["cat"], "/", invoke.clean_environment(), interactive=True)
    dog = invoke.Watchdog(process, "cat")
    invoke.stop_batch(process, dog)
    assert process.returncode == 0
    assert process.stdout is not None and process.stdout.closed
    dog.thread.join(timeout=10)
    assert not dog.thread.is_alive()
    invoke.stop_batch(None, dog)  # a watchdog whose process is gone


class _Runner:
    def __init__(self, worktree: Path) -> None:
        self.worktree = worktree
        self.env = invoke.clean_environment()
        self.vetted = 0

    def command(self, *args: str) -> list[str]:
        return list(args)

    def vet(self) -> object:
        self.vetted += 1
        return None


class _Cat(invoke.BatchGit):
    ARGUMENTS = ("cat",)
    NAME = "cat"

    def started(self) -> tuple[subprocess.Popen[bytes], invoke.Watchdog]:
        """The process and its watchdog, as the batch readers of git.py and attributes.py take them."""
        return self._start()


def _ask(process: subprocess.Popen[bytes], question: bytes) -> bytes:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(question)
    process.stdin.flush()
    return process.stdout.readline()


def test_a_batch_git_is_started_once_vetted_first_and_started_again_when_it_died(tmp_path: Path) -> None:
    runner = _Runner(tmp_path)
    batch = _Cat(runner)
    try:
        first, first_dog = batch.started()
        assert (_ask(first, b"one\n"), runner.vetted) == (b"one\n", 1)
        again, again_dog = batch.started()
        assert (again, again_dog, runner.vetted) == (first, first_dog, 1)
        invoke.kill_group(first)
        first.wait()
        second, second_dog = batch.started()
        assert second is not first and second_dog is not first_dog
        assert (_ask(second, b"two\n"), runner.vetted) == (b"two\n", 2)
        first_dog.thread.join(timeout=10)  # the dead one's watchdog was stopped
        assert not first_dog.thread.is_alive()
    finally:
        batch.close()
    assert (batch.process, batch.dog, second.returncode) == (None, None, 0)


# -- cache.py: the blob cache and git's answers, in SQLite -------------------------------------

A, B, C, E = "a" * 40, "b" * 40, "c" * 40, "e" * 40
DIGEST, OTHER = "d" * 64, "f" * 64


def _common(tmp_path: Path) -> Path:
    common = tmp_path / "repo" / ".git"
    common.mkdir(parents=True)
    return common


def _lock(path: Path) -> sqlite3.Connection:
    """Another process's connection holding an exclusive lock on the cache file."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def _trace(cache: BlobCache) -> list[str]:
    statements: list[str] = []
    cache.connection.set_trace_callback(statements.append)
    return statements


def test_a_new_cache_file_is_in_the_common_folder_and_records_its_format(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    assert (cache.location, cache.generation) == (str(common / "mechlint" / "blobs.sqlite3"), 0)
    cache.close()
    raw = sqlite3.connect(common / "mechlint" / "blobs.sqlite3")
    assert raw.execute("SELECT key, value FROM meta").fetchall() == [("version", "1")]
    raw.close()
    assert BlobCache(None).location == ":memory:"
    assert BlobCache(tmp_path / "not-made-yet" / ".git").location.endswith("not-made-yet/.git/mechlint/blobs.sqlite3")


def test_a_cache_of_an_older_format_is_made_again_and_one_of_this_format_is_kept(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    cache.add([(A, "blob", DIGEST, None)])
    cache.close()
    again = BlobCache(common)
    assert (again.known([A]), again.sha256_of(A)) == ({A}, DIGEST)
    again.connection.execute("UPDATE meta SET value = '0' WHERE key = 'version'")
    again.close()
    rebuilt = BlobCache(common)
    assert (rebuilt.location, rebuilt.known([A])) == (str(common / "mechlint" / "blobs.sqlite3"), set())
    assert rebuilt.connection.execute("SELECT value FROM meta WHERE key = 'version'").fetchall() == [("1",)]
    rebuilt.close()


def test_a_common_folder_of_another_user_is_never_written_the_users_cache_folder_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = _common(tmp_path)
    key = hashlib.sha256(str(common.resolve()).encode()).hexdigest()[:16]
    mine = Path(os.environ["XDG_CACHE_HOME"]) / "mechlint" / f"blobs-{key}.sqlite3"
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(common).st_uid + 1, raising=False)
    assert BlobCache(common).location == str(mine)
    assert not (common / "mechlint").exists()
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # and HOME unusable: no user folder at all
    monkeypatch.setenv("HOME", "relative")
    assert BlobCache(common).location == ":memory:"


def test_whose_folder_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("")
    owner = os.stat(tmp_path).st_uid
    assert cache_module.owned_by_us(tmp_path) is True
    assert cache_module.owned_by_us(tmp_path / "new" / "newer") is True  # made by the owner of its parent
    assert cache_module.owned_by_us(tmp_path / "file" / "x") is False  # not a folder: cannot be ours
    monkeypatch.setattr(os, "geteuid", lambda: owner + 1, raising=False)
    assert cache_module.owned_by_us(tmp_path) is False
    monkeypatch.delattr(os, "geteuid")
    assert cache_module.owned_by_us(tmp_path) is True  # no user ids: always ours


def test_rows_are_read_before_they_are_written_and_from_the_file_after(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    cache.add([(A, "blob", DIGEST, None), (B, "lfs", OTHER, DIGEST)])
    assert cache.known([A, B, C]) == {A, B}
    assert [cache.sha256_of(A), cache.lfs_of(A), cache.sha256_of(B), cache.lfs_of(B)] == [DIGEST, None, OTHER, DIGEST]
    assert BlobCache(common).known([A, B]) == set()  # not written yet
    statements = _trace(cache)
    cache.flush()
    assert statements == [
        "BEGIN IMMEDIATE",
        f"INSERT OR IGNORE INTO blobs VALUES ('{A}', 'blob', '{DIGEST}', NULL)",
        f"INSERT OR IGNORE INTO blobs VALUES ('{B}', 'lfs', '{OTHER}', '{DIGEST}')",
        "COMMIT",
    ]
    cache.flush()  # nothing pending: nothing done
    assert len(statements) == 4
    other = BlobCache(common)
    assert other.known([A, B, C]) == {A, B}
    assert [other.sha256_of(A), other.lfs_of(A), other.sha256_of(B), other.lfs_of(B)] == [DIGEST, None, OTHER, DIGEST]
    assert (other.sha256_of(C), other.lfs_of(C)) == (None, None)


def test_a_hundred_rows_are_written_without_waiting_for_a_flush(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    other = BlobCache(common)
    oids = [f"{i:040x}" for i in range(100)]
    cache.add([(oid, "blob", DIGEST, None) for oid in oids[:99]])
    assert other.known(oids) == set()
    cache.add([(oids[99], "blob", DIGEST, None)])
    assert other.known(oids) == set(oids)


def test_many_oids_are_asked_in_chunks_and_none_is_missed(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    oids = [f"{i:040x}" for i in range(1001)]
    cache.add([(oid, "blob", DIGEST, None) for oid in oids])
    assert BlobCache(common).known([*oids, C]) == set(oids)


def test_a_lock_another_process_holds_sends_the_run_to_memory_once(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    cache.add([(A, "blob", DIGEST, None)])
    cache.flush()
    path = common / "mechlint" / "blobs.sqlite3"
    holder = _lock(path)
    try:
        assert cache.known([A]) == set()  # the store in the file is no longer known
        assert (cache.location, cache.generation) == (":memory:", 1)
        cache.add([(B, "blob", OTHER, None)])
        cache.flush()  # into memory now
        assert (cache.known([A, B]), cache.sha256_of(B), cache.generation) == ({B}, OTHER, 1)
    finally:
        holder.rollback()
        holder.close()
    assert BlobCache(common).known([A, B]) == {A}  # the file was left alone


class _Failing:
    """A connection whose ``executemany`` fails (a full disk, an I/O error); everything else is the real one's."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def __enter__(self) -> _Failing:
        self.real.__enter__()
        return self

    def __exit__(self, *exc: object) -> Any:
        return self.real.__exit__(*exc)

    def executemany(self, query: str, rows: object) -> sqlite3.Cursor:
        raise sqlite3.OperationalError("disk I/O error")


def test_rows_a_failed_write_leaves_are_still_read_and_written_later(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    cache.add([(A, "blob", DIGEST, None)])
    cache.connection = _Failing(cache.connection)  # type: ignore[assignment]
    cache.flush()
    assert (cache.location, cache.generation, cache.sha256_of(A)) == (":memory:", 1, DIGEST)
    cache.flush()  # written to memory now: read from there
    assert (cache.sha256_of(A), cache.known([A])) == (DIGEST, {A})
    assert BlobCache(common).known([A]) == set()  # the file is intact (not damaged): it never got the row


def test_the_reachable_set_and_the_digests_it_vouches_for_are_written_in_one_transaction(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    assert cache.reachable_state() is None
    cache.add([(A, "blob", DIGEST, None), (B, "lfs", OTHER, DIGEST), (C, "blob", DIGEST, None)])
    statements = _trace(cache)
    cache.set_reachable("refs-1", [A, B, E])
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"
    assert statements[4:-1] == [
        "DELETE FROM reachable",
        f"INSERT OR IGNORE INTO reachable VALUES ('{A}')",
        f"INSERT OR IGNORE INTO reachable VALUES ('{B}')",
        f"INSERT OR IGNORE INTO reachable VALUES ('{E}')",
        "INSERT OR REPLACE INTO meta VALUES ('refs', 'refs-1')",
    ]
    cache.add([(E, "blob", DIGEST, None), ("9" * 40, "blob", OTHER, None)])  # not written: read from memory
    assert (cache.reachable_state(), sorted(cache.blobs_with(DIGEST))) == ("refs-1", [A, B, E])
    assert cache.blobs_with(OTHER) == [B]
    cache.set_reachable("refs-2", [C])
    assert (cache.reachable_state(), cache.blobs_with(DIGEST)) == ("refs-2", [C])
    assert BlobCache(common).reachable_state() == "refs-2"


def test_a_reachable_set_that_could_not_be_written_to_the_file_is_asked_again(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    cache.add([(A, "blob", DIGEST, None)])
    holder = _lock(common / "mechlint" / "blobs.sqlite3")
    try:
        cache.set_reachable("refs-1", [A])
    finally:
        holder.rollback()
        holder.close()
    assert (cache.generation, cache.reachable_state(), cache.blobs_with(DIGEST)) == (1, None, [])
    assert cache.sha256_of(A) == DIGEST  # not stored: still read from memory


def test_a_reachable_set_that_memory_could_not_take_is_kept_beside_it() -> None:
    cache = BlobCache(None)
    cache.add([(A, "blob", DIGEST, None), (C, "blob", DIGEST, None)])
    cache.flush()  # in the memory store
    cache.add([(B, "lfs", OTHER, DIGEST), (E, "blob", DIGEST, None)])  # and pending
    real = cache.connection
    cache.connection = _Failing(real)  # type: ignore[assignment]
    cache.set_reachable("refs-1", [A, B])
    cache.connection = real
    assert (cache.generation, cache.reachable_state(), cache.blobs_with(DIGEST)) == (0, "refs-1", [A, B])
    assert cache.blobs_with(OTHER) == [B]


def test_answers_are_kept_for_their_refs_and_dropped_once_the_refs_change(tmp_path: Path) -> None:
    common = _common(tmp_path)
    cache = BlobCache(common)
    statements = _trace(cache)
    cache.remember("r1", "q1", b"one")
    assert statements == ["BEGIN IMMEDIATE", "INSERT OR REPLACE INTO answers VALUES ('r1', 'q1', x'6f6e65')", "COMMIT"]
    cache.remember("", "q0", b"any")
    cache.remember("r2", "q2", b"two")
    assert [cache.answer("r1", "q1"), cache.answer("r1", "q2"), cache.answer("r2", "q2")] == [b"one", None, b"two"]
    del statements[:]
    cache.keep_answers_for("r1")
    assert statements[1:] == [
        "BEGIN IMMEDIATE",
        "DELETE FROM answers WHERE refs NOT IN ('r1', '')",
        "INSERT OR REPLACE INTO meta VALUES ('answers-refs', 'r1')",
        "COMMIT",
    ]
    assert [cache.answer("r1", "q1"), cache.answer("", "q0"), cache.answer("r2", "q2")] == [b"one", b"any", None]
    cache.remember("r2", "q2", b"two")  # another run, on other refs
    cache.keep_answers_for("r1")  # the refs have not changed since: nothing dropped
    assert cache.answer("r2", "q2") == b"two"
    cache.keep_answers_for("r2")
    assert [cache.answer("r1", "q1"), cache.answer("", "q0"), cache.answer("r2", "q2")] == [None, b"any", b"two"]
    cache.close()
    assert BlobCache(common).answer("r2", "q2") == b"two"


# -- early.py: history asked before the rules load ---------------------------------------------


def _sha(data: str) -> str:
    return hashlib.sha256(data.encode()).hexdigest()


@pytest.fixture
def blog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A source deleted, one edited, one intact and a folder; the mechanism pins each, with some odd entries."""
    repo = init(tmp_path / "blog")
    commit(repo, "first", {"gone.md": "g\n", "changed.md": "c1\n", "same.md": "s\n", "dir/x.md": "x\n"})
    commit(repo, "second", {"gone.md": None, "changed.md": "c2\n"})
    sources: list[object] = [
        {"path": "gone.md", "sha256": _sha("g\n")},
        {"path": "changed.md", "sha256": _sha("c1\n")},
        {"path": "same.md", "sha256": _sha("s\n")},
        {"path": "dir", "sha256": _sha("x\n")},
        {"path": "../up.md", "sha256": _sha("u\n")},
        {"path": 3, "sha256": _sha("g\n")},
        {"path": "never.md", "sha256": None},
        "not an entry",
        {"path": "gone.md", "sha256": _sha("other\n")},
    ]
    write(repo, "content/m.json", json.dumps({"sources": sources}))
    monkeypatch.chdir(repo)
    yield repo.resolve()
    early.discard()


class _Started:
    """The git commands started without waiting (``Git.start``), by question, and their processes."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self.questions: list[str] = []

    def sorted(self) -> list[str]:
        return sorted(self.questions)

    def reaped(self) -> list[bool]:
        """Which processes were waited for (read, or stopped by a history's ``close``); none is polled here."""
        return [process.returncode is not None for process in self.processes]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> _Started:
    seen = _Started()
    real = Git.start

    def start(self: Git, *args: str) -> subprocess.Popen[bytes]:
        process = real(self, *args)
        names = {"rev-parse": "head", "for-each-ref": "refs", "log": f"log {args[-1]}"}
        seen.questions.append(names[args[0]])
        seen.processes.append(process)
        return process

    monkeypatch.setattr(Git, "start", start)
    return seen


def test_begin_asks_head_the_refs_and_the_log_of_each_source_gone_or_changed(blog: Path, started: _Started) -> None:
    early.begin(["content/m.json"])
    assert started.sorted() == ["head", "log changed.md", "log gone.md", "refs"]
    history = early.opened_early[blog][1]
    assert early.take(blog) is history
    assert early.take(blog) is None  # once
    assert isinstance(history, History)
    history.close()


def test_begin_asks_only_head_and_the_refs_in_a_clone_that_keeps_the_logs_answers(
    blog: Path, started: _Started
) -> None:
    (blog / ".git" / "mechlint").mkdir()
    (blog / ".git" / "mechlint" / "blobs.sqlite3").write_bytes(b"")
    early.begin(["content/m.json"])
    assert started.sorted() == ["head", "refs"]


def test_begin_reads_mechanism_files_up_to_ten_mebibytes(blog: Path, started: _Started) -> None:
    text = json.dumps({"sources": [{"path": "gone.md", "sha256": _sha("g\n")}]})
    limit = 10 * 1024 * 1024
    write(blog, "content/m.json", text + " " * (limit - len(text)))
    early.begin(["content/m.json"])
    assert started.sorted() == ["head", "log gone.md", "refs"]
    early.discard()
    started.questions.clear()
    write(blog, "content/m.json", text + " " * (limit + 1 - len(text)))  # too large: the run says so
    write(blog, "content/n.json", json.dumps({"sources": [{"path": "changed.md", "sha256": _sha("c1\n")}]}))
    early.begin(["content/m.json", "content/n.json"])
    assert started.sorted() == ["head", "log changed.md", "refs"]  # the other file is still read


def test_begin_looks_at_eight_files_at_most_all_in_one_repository(
    blog: Path, tmp_path: Path, started: _Started
) -> None:
    names = [f"content/m{i}.json" for i in range(9)]
    for name in names:
        write(blog, name, "{}")
    early.begin(names)
    early.begin([])
    other = init(tmp_path / "other")
    write(other, "m.json", "{}")
    early.begin([names[0], str(other / "m.json")])
    outside = write(tmp_path / "plain", "m.json", "{}")  # in no repository
    early.begin([str(outside)])
    early.begin(["content"])  # a folder: the usual way
    assert (early.opened_early, started.questions) == ({}, [])
    early.begin(names[:8])
    assert (list(early.opened_early), started.sorted()) == ([blog], ["head", "refs"])


def test_begin_opens_a_repositorys_history_once_and_registers_discard_at_exit_once(
    blog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: _Started
) -> None:
    registered: list[object] = []
    monkeypatch.setattr(early, "atexit", SimpleNamespace(register=registered.append))
    early.begin(["content/m.json"])
    assert registered == [early.discard]  # with the first history opened
    first = early.opened_early[blog][1]
    early.begin(["content/m.json"])
    assert early.opened_early[blog][1] is first
    assert len(started.questions) == 4  # nothing started twice
    other = init(tmp_path / "other")
    write(other, "m.json", "{}")
    early.begin([str(other / "m.json")])
    assert (sorted(early.opened_early), registered) == ([blog, other.resolve()], [early.discard])


def test_a_history_another_process_opened_is_neither_taken_nor_closed(blog: Path, started: _Started) -> None:
    early.begin(["content/m.json"])
    pid, history = early.opened_early[blog]
    assert (pid, isinstance(history, History)) == (os.getpid(), True)
    early.opened_early[blog] = (os.getpid() + 1, history)  # as a forked worker sees its parent's
    early.discard()
    assert (early.opened_early, started.reaped()) == ({}, [False] * 4)  # not closed: it is the parent's
    early.opened_early[blog] = (os.getpid() + 1, history)
    assert early.take(blog) is None
    assert isinstance(history, History)
    history.close()
    assert started.reaped() == [True] * 4
    assert early.take(blog) is None  # nothing opened


def test_discard_closes_what_nobody_took_and_an_error_is_raised_by_take(blog: Path, started: _Started) -> None:
    early.begin(["content/m.json"])
    assert started.reaped() == [False] * 4
    early.discard()
    assert (early.opened_early, started.reaped()) == ({}, [True] * 4)
    os.mkfifo(blog / ".git" / "config.worktree")  # vetting refuses a special file where git reads one
    early.begin(["content/m.json"])
    error = early.opened_early[blog][1]
    assert isinstance(error, GitError)
    early.discard()  # an error has nothing to close
    assert early.opened_early == {}
    early.begin(["content/m.json"])
    with pytest.raises(GitError) as raised:
        early.take(blog)
    assert str(raised.value) == str(error)
