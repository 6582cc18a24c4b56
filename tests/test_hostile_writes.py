"""Hostile caches, links, special files and encodings, end to end through the installed command.

Every case runs ``mechlint`` in a subprocess on a repository built here, and
checks what matters to a user: the exit code, a diagnostic naming the file,
and that nothing was created, replaced or trusted that should not have been.
Root-only cases (device nodes) skip without root.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CLEAN, ROOT
from .gitrepo import commit, git, init, write

INSTALLED = ROOT / ".venv" / "bin" / "mechlint"
COMMAND = [str(INSTALLED)] if INSTALLED.exists() else [sys.executable, "-m", "mechlint"]
Done = subprocess.CompletedProcess[str]
CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))
MECHANISM = "content/mechanisms/m.json"


def _broken() -> str:
    """A mechanism with one error (an unknown target)."""
    data = json.loads(json.dumps(CLEAN_DATA))
    data["scenarios"][0]["steps"][0]["active"].append("ghost")
    return json.dumps(data, indent=2, ensure_ascii=False)


def run(
    repo: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], cwd=repo, env=env or dict(os.environ), capture_output=True, text=True, timeout=timeout,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = init(tmp_path / "repo")
    commit(folder, "first", {MECHANISM: _broken()})
    return folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _result_databases() -> list[Path]:
    return sorted((Path(os.environ["XDG_CACHE_HOME"]) / "mechlint" / "results").glob("*/results.sqlite3"))


# -- A. the result cache: never carried by a repository, verified, a bad entry is a miss -----------------------


def test_a_committed_poisoned_cache_is_never_read(repo: Path, outside: Path) -> None:
    first = run(repo, "check", "--cache", "-f", "json", "content")
    assert first.returncode == 1 and "reference/unknown-target" in first.stdout
    assert not (repo / ".mechlint_cache").exists(), "the cache is not kept in the repository"
    old = repo / ".mechlint_cache" / "results.sqlite3"  # what an attacker commits: every entry emptied
    old.parent.mkdir()
    with sqlite3.connect(old) as connection:
        for table in ("results", "entries"):
            connection.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, value TEXT, mac TEXT, used REAL)")
    for name in ("escape", ".gitignore", "results.sqlite3-wal", "results.sqlite3-journal", "secret.key"):
        (repo / ".mechlint_cache" / name).symlink_to(outside / name)
    git(repo, "add", "--", ".mechlint_cache")
    commit(repo, "poison")
    before = old.read_bytes()
    again = run(repo, "check", "--cache", "-f", "json", "content")
    assert again.returncode == 1 and "reference/unknown-target" in again.stdout
    assert old.read_bytes() == before and _tree(outside) == []


def test_a_forged_entry_in_the_user_cache_is_a_miss(repo: Path) -> None:
    assert run(repo, "check", "--cache", "content").returncode == 1
    (database,) = _result_databases()
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE entries SET value = '[]'")  # forged without the secret: the MAC fails
    again = run(repo, "check", "--cache", "-f", "json", "content")
    assert again.returncode == 1 and "reference/unknown-target" in again.stdout


@pytest.mark.parametrize("value", ["garbage{", "[[1, 2]]", '[["x", 9, "m", "", [1,1,1,1], null, [], ""]]', "{}"])
def test_a_garbage_entry_even_with_a_valid_mac_is_a_miss(repo: Path, value: str) -> None:
    assert run(repo, "check", "--cache", "content").returncode == 1
    (database,) = _result_databases()
    secret = (database.parent / "secret.key").read_bytes()
    with sqlite3.connect(database) as connection:
        for (key,) in connection.execute("SELECT key FROM entries").fetchall():
            mac = hmac.new(secret, key.encode() + b"\0" + value.encode(), hashlib.sha256).hexdigest()
            connection.execute("UPDATE entries SET value = ?, mac = ? WHERE key = ?", (value, mac, key))
    again = run(repo, "check", "--cache", "-f", "json", "content")
    assert again.returncode == 1 and "reference/unknown-target" in again.stdout
    assert "internal" not in again.stdout + again.stderr


def test_a_cache_folder_inside_the_repository_is_not_used(repo: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(repo / ".cache")}
    done = run(repo, "check", "--cache", "content", env=env)
    assert done.returncode == 1 and not (repo / ".cache").exists()


def test_the_cache_is_on_by_default_for_large_runs_only(repo: Path) -> None:
    assert run(repo, "check", "--no-cache", "content").returncode == 1
    assert run(repo, "check", "content").returncode == 1
    assert _result_databases() == [], "one file: opening the cache costs more than it saves"
    for index in range(60):
        write(repo, f"content/p{index}/mechanisms/m.json", CLEAN.read_text().replace("Request A", f"A{index}", 1))
    assert run(repo, "check", "--no-cache", "content").returncode == 1
    assert _result_databases() == []
    assert run(repo, "check", "content").returncode == 1
    assert len(_result_databases()) == 1


# -- B. a lock means "skip the cache this time", never "delete it" ---------------------------------------------


def test_locked_caches_are_skipped_not_deleted_and_never_waited_on(repo: Path) -> None:
    commit(repo, "post", {"post.md": "v1\n"})
    commit(repo, "edit", {"post.md": "v2\n"})  # the mechanisms' source is stale: history is read
    data = json.loads(_broken())
    data["sources"] = [{"path": "post.md", "sha256": hashlib.sha256(b"v1\n").hexdigest(), "description": "x"}]
    for index in range(6):  # each store used to wait out the busy timeout
        text = json.dumps(data, indent=2, ensure_ascii=False).replace("Request A", f"Request A{index}", 1)
        write(repo, f"content/p{index}/mechanisms/m.json", text)
    assert run(repo, "check", "--cache", "content").returncode == 1  # both caches now exist
    blobs = repo / ".git" / "mechlint" / "blobs.sqlite3"
    (results,) = _result_databases()
    for index in range(6):
        text = json.dumps(data, indent=2, ensure_ascii=False).replace("Request A", f"Request B{index}", 1)
        write(repo, f"content/p{index}/mechanisms/m.json", text)
    inode, content = blobs.stat().st_ino, blobs.read_bytes()
    holders = [sqlite3.connect(path, isolation_level=None) for path in (blobs, results)]
    try:
        for holder in holders:
            holder.execute("BEGIN EXCLUSIVE")
        done = run(repo, "check", "--cache", "-f", "json", "content", timeout=30)
    finally:
        for holder in holders:
            holder.close()
    assert done.returncode == 1, done.stderr
    assert blobs.stat().st_ino == inode and blobs.read_bytes() == content, "a locked cache is not deleted"
    unlocked = run(repo, "check", "--cache", "-f", "json", "content")
    assert done.stdout == unlocked.stdout
    assert {r["rule"] for r in json.loads(done.stdout)["results"]} == {
        "reference/unknown-target",
        "provenance/stale-source",
    }


# -- C. no home folder: run without the cache, with correct results -------------------------------------------

_NO_HOME = """
import pwd, sys
def no_entry(uid):
    raise KeyError(uid)
pwd.getpwuid = no_entry
from mechlint.cli import main
sys.exit(main())
"""


def test_no_home_and_no_passwd_entry_runs_without_the_cache(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    source = "research/x/before/content/post.md"
    commit(repo, "original", {"content/post.md": "v1\n"})
    data = json.loads(json.dumps(CLEAN_DATA))
    data["sources"] = [
        {"path": "content/post.md", "sha256": hashlib.sha256(b"v1\n").hexdigest(), "description": "the post"},
        {"path": source, "sha256": hashlib.sha256(b"v1\n").hexdigest(), "description": "exact bytes retained"},
    ]
    commit(repo, "copy", {source: "v1\n", MECHANISM: json.dumps(data, indent=2)})
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CACHE_HOME")}
    python = INSTALLED.parent / "python"
    done = subprocess.run(
        [str(python) if python.exists() else sys.executable, "-c", _NO_HOME, "check", "--cache", "-f", "json", "."],
        cwd=repo, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["results"] == []
    assert "internal" not in done.stderr


# -- D. writes: links, special files, permissions ---------------------------------------------------------------


def _refused(done: subprocess.CompletedProcess[str], name: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert name in done.stderr and "Traceback" not in done.stderr


def test_output_through_a_dangling_link_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    (repo / "report.sarif").symlink_to(outside / "made" / "deep" / "report.sarif")
    _refused(run(repo, "check", "-f", "sarif", "-o", "report.sarif", "content"), "report.sarif")
    _refused(run(repo, "check", "-o", "sarif:report.sarif", "content"), "report.sarif")
    assert _tree(outside) == [] and (repo / "report.sarif").is_symlink()


def test_output_under_a_linked_folder_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    (repo / "reports").symlink_to(outside)
    _refused(run(repo, "check", "-o", "reports/new/report.txt", "content"), "reports/new/report.txt")
    assert _tree(outside) == []


def test_baseline_update_through_a_link_out_of_the_repository_is_refused(repo: Path, outside: Path) -> None:
    (repo / "baseline.json").symlink_to(outside / "baseline.json")
    _refused(run(repo, "check", "--baseline", "baseline.json", "--update-baseline", "content"), "baseline.json")
    assert _tree(outside) == []


def test_a_link_inside_the_repository_is_written_through(repo: Path) -> None:
    (repo / "reports").mkdir()
    (repo / "report.json").symlink_to("reports/real.json")
    assert run(repo, "check", "-f", "json", "-o", "report.json", "content").returncode == 1
    assert (repo / "report.json").is_symlink()
    assert "reference/unknown-target" in (repo / "reports" / "real.json").read_text()


def test_output_onto_a_device_node_in_the_repository_never_replaces_it(repo: Path) -> None:
    node = repo / "report.txt"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null
    except (PermissionError, OSError):
        pytest.skip("needs root to make a device node")
    # (never /dev/null itself: a tool with this bug replaces the machine's /dev/null)
    assert run(repo, "check", "-o", "report.txt", "content").returncode == 1
    assert stat.S_ISCHR(node.lstat().st_mode) and node.lstat().st_rdev == os.makedev(1, 3)


def test_output_to_a_fifo_without_a_reader_is_an_error_not_a_hang(repo: Path) -> None:
    os.mkfifo(repo / "report.txt")
    _refused(run(repo, "check", "-o", "report.txt", "content", timeout=30), "report.txt")
    assert stat.S_ISFIFO((repo / "report.txt").lstat().st_mode)


def test_output_onto_a_folder_is_refused(repo: Path) -> None:
    (repo / "report.txt").mkdir()
    _refused(run(repo, "check", "-o", "report.txt", "content"), "report.txt")


def _linked_mechanism(repo: Path) -> tuple[Path, Path]:
    real = write(repo, "content/real/prefix-cache.json", CLEAN.read_text().replace("B’s new tail", "B's new tail", 1))
    link = repo / "content" / "mechanisms" / "linked.json"
    link.symlink_to("../real/prefix-cache.json")
    return link, real


def test_fix_on_a_linked_mechanism_keeps_the_link(repo: Path) -> None:
    link, real = _linked_mechanism(repo)
    done = run(repo, "fix", str(link.relative_to(repo)))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and "B’s new tail" in real.read_text()


def test_pin_on_a_linked_mechanism_keeps_the_link(repo: Path) -> None:
    commit(repo, "post", {"content/post.md": "v1\n"})
    data = json.loads(json.dumps(CLEAN_DATA))
    data["sources"] = [{"path": "content/post.md", "sha256": "0" * 64, "description": "the post"}]
    real = write(repo, "content/real/m.json", json.dumps(data, indent=2))
    link = repo / "content" / "mechanisms" / "linked.json"
    link.symlink_to("../real/m.json")
    done = run(repo, "pin", str(link.relative_to(repo)))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and hashlib.sha256(b"v1\n").hexdigest() in real.read_text()


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_reports_and_attestations_follow_the_umask(repo: Path, umask: int) -> None:
    def with_umask() -> None:
        os.umask(umask)

    def go(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*COMMAND, *args], cwd=repo, capture_output=True, text=True, preexec_fn=with_umask)

    assert go("check", "-o", "report.txt", "-o", "sarif:report.sarif", "content").returncode == 1
    assert go("check", "--baseline", "baseline.json", "--update-baseline", "content").returncode == 0
    assert go("keygen", "me").returncode == 0
    write(repo, "clean/mechanisms/m.json", CLEAN.read_text())
    assert go("attest", "--key", "me.key", "clean/mechanisms/m.json").returncode == 0, "attest"
    for name in ("report.txt", "report.sarif", "baseline.json", "me.pub", "clean/mechanisms/m.json.intoto.jsonl"):
        assert stat.S_IMODE((repo / name).stat().st_mode) == 0o666 & ~umask, name
    assert stat.S_IMODE((repo / "me.key").stat().st_mode) == 0o600


def test_an_existing_report_keeps_its_mode(repo: Path) -> None:
    (repo / "report.txt").write_text("old")
    os.chmod(repo / "report.txt", 0o640)
    assert run(repo, "check", "-o", "report.txt", "content").returncode == 1
    assert stat.S_IMODE((repo / "report.txt").stat().st_mode) == 0o640


@pytest.fixture
def attested(repo: Path) -> Iterator[Path]:
    write(repo, "clean/mechanisms/m.json", CLEAN.read_text())
    assert run(repo, "keygen", "me").returncode == 0
    yield repo


def test_attest_default_output_through_a_dangling_link_is_refused(attested: Path, outside: Path) -> None:
    envelope = attested / "clean" / "mechanisms" / "m.json.intoto.jsonl"
    envelope.symlink_to(outside / "made" / "m.json.intoto.jsonl")
    done = run(attested, "attest", "--key", "me.key", "clean/mechanisms/m.json")
    _refused(done, "m.json.intoto.jsonl")
    assert _tree(outside) == []


# -- E. nothing hangs: special files where a regular file is expected ---------------------------------------------


def _special(repo: Path, kind: str) -> str:
    if kind == "fifo":
        os.mkfifo(repo / "special")
        return "special"
    return "/dev/zero"


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_baseline_that_is_not_a_regular_file(repo: Path, kind: str) -> None:
    name = _special(repo, kind)
    _refused(run(repo, "check", "--baseline", name, "content", timeout=30), name)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_config_file_that_is_not_a_regular_file(repo: Path, kind: str) -> None:
    name = _special(repo, kind)
    _refused(run(repo, "check", "--config", name, "content", timeout=30), name)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
@pytest.mark.parametrize("setting", ["invariants", "word-lists"])
def test_rule_files_that_are_not_regular_files(repo: Path, kind: str, setting: str) -> None:
    name = _special(repo, kind)
    write(repo, "mechlint.toml", f"{setting} = [{json.dumps(name)}]\n")
    _refused(run(repo, "check", "content", timeout=30), name)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
@pytest.mark.parametrize("what", ["envelope", "key", "private-key"])
def test_attestation_files_that_are_not_regular_files(attested: Path, kind: str, what: str) -> None:
    name = _special(attested, kind)
    mechanism = "clean/mechanisms/m.json"
    if what == "private-key":
        done = run(attested, "attest", "--key", name, mechanism, timeout=30)
    else:
        assert run(attested, "attest", "--key", "me.key", mechanism).returncode == 0
        options = ["--attestation", name, "--key", "me.pub"] if what == "envelope" else ["--key", name]
        done = run(attested, "verify", *options, mechanism, timeout=30)
    assert done.returncode == 1, done.stderr
    assert name in done.stderr and "Traceback" not in done.stderr and "MemoryError" not in done.stderr


# -- F. verify accepts only canonical base64 ------------------------------------------------------------------------


def _spoil(text: str, how: str) -> str:
    if how == "junk-inside":
        return text[:4] + "!*~" + text[4:]
    if how == "junk-after":
        return text + "!!garbage!!"
    if how == "whitespace":
        return text[:8] + "\n " + text[8:]
    if how == "no-padding":
        return text.rstrip("=")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    body = text.rstrip("=")  # trailing-bits: the same bytes, but a non-zero bit after the last byte
    return body[:-1] + alphabet[alphabet.index(body[-1]) ^ 1] + text[len(body) :]


@pytest.mark.parametrize("how", ["junk-inside", "junk-after", "whitespace", "no-padding", "trailing-bits"])
@pytest.mark.parametrize("field", ["payload", "sig"])
def test_verify_refuses_base64_with_junk(attested: Path, how: str, field: str) -> None:
    mechanism = "clean/mechanisms/m.json"
    assert run(attested, "attest", "--key", "me.key", mechanism).returncode == 0
    assert run(attested, "verify", "--key", "me.pub", mechanism).returncode == 0
    path = attested / (mechanism + ".intoto.jsonl")
    envelope = json.loads(path.read_text())
    holder = envelope["signatures"][0] if field == "sig" else envelope
    original = holder[field]
    if how in ("no-padding", "trailing-bits") and not original.endswith("="):
        pytest.skip("this value has no padding")
    holder[field] = _spoil(original, how)
    assert base64.urlsafe_b64decode(holder[field] + "==") == base64.b64decode(original), "the same bytes, spelled badly"
    path.write_text(json.dumps(envelope) + "\n")
    done = run(attested, "verify", "--key", "me.pub", mechanism)
    assert done.returncode == 1 and "verification failed" in done.stderr


def test_verify_accepts_url_safe_base64(attested: Path) -> None:
    mechanism = "clean/mechanisms/m.json"
    assert run(attested, "attest", "--key", "me.key", mechanism).returncode == 0
    path = attested / (mechanism + ".intoto.jsonl")
    envelope = json.loads(path.read_text())
    envelope["payload"] = base64.urlsafe_b64encode(base64.b64decode(envelope["payload"])).decode()
    path.write_text(json.dumps(envelope) + "\n")
    assert run(attested, "verify", "--key", "me.pub", mechanism).returncode == 0
