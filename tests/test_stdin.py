"""``mechlint check --stdin-filename PATH -``: a buffer checked as if it were at PATH.

Every test runs the installed console script (the fast parser of
:mod:`mechlint.cli.fast_check`) and the typer command line (:mod:`mechlint.cli`), so
the two cannot drift apart.
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

from .conftest import CLEAN
from .gitrepo import commit, init, write

CONSOLE_SCRIPT = Path(sys.executable).with_name("mechlint")
TYPER = [sys.executable, "-c", "import sys; from mechlint.cli import main; sys.exit(main(sys.argv[1:]))"]
CLEAN_BYTES = CLEAN.read_bytes()
UNKNOWN = f"/scenarios/0/steps/0/active/{len(json.loads(CLEAN_BYTES)['scenarios'][0]['steps'][0]['active'])}"


@pytest.fixture(params=["console-script", "typer"])
def mechlint(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "console-script":
        assert CONSOLE_SCRIPT.exists(), "the package is not installed in this environment"
        return [str(CONSOLE_SCRIPT)]
    return TYPER


def run(command: list[str], args: list[str], data: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CI")}
    done = subprocess.run(
        [*command, "check", *args], input=data, capture_output=True, cwd=cwd, env=env, timeout=120, check=False
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    return done


def findings(done: subprocess.CompletedProcess[bytes]) -> list[tuple[str, str, str]]:
    report: dict[str, Any] = json.loads(done.stdout)
    return [(r["path"], r["rule"], r["pointer"]) for r in report["results"]]


def broken(data: bytes = CLEAN_BYTES) -> bytes:
    document = json.loads(data)
    document["scenarios"][0]["steps"][0]["active"].append("zz")
    return json.dumps(document, indent=2, ensure_ascii=False).encode()


def project(tmp_path: Path) -> Path:
    """A git repository whose mechanism pins a source, committed, and a folder outside it to run from."""
    repo = init(tmp_path / "repo")
    source = b"# The post\n"
    document = json.loads(CLEAN_BYTES)
    document["sources"] = [
        {"path": "content/post.md", "sha256": hashlib.sha256(source).hexdigest(), "description": "The post."}
    ]
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    commit(repo, "content", {"content/post.md": source, "content/mechanisms/m.json": text})
    (tmp_path / "elsewhere").mkdir()
    return repo


def test_the_buffer_is_checked_not_the_file_on_disk(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    on_disk = (repo / "content/mechanisms/m.json").read_bytes()
    name = str(repo / "content/mechanisms/m.json")
    done = run(mechlint, ["--format", "json", "--stdin-filename", name, "-"], broken(on_disk), tmp_path / "elsewhere")
    assert done.returncode == 1, done.stderr
    assert findings(done) == [(name, "reference/unknown-target", UNKNOWN)]  # outside the working folder: absolute
    clean = run(mechlint, ["--format", "json", "--stdin-filename", name, "-"], on_disk, tmp_path / "elsewhere")
    assert clean.returncode == 0 and findings(clean) == []
    assert (repo / "content/mechanisms/m.json").read_bytes() == on_disk  # nothing is written


def test_sources_resolve_from_the_repository_of_the_path(tmp_path: Path, mechlint: list[str]) -> None:
    """Run from outside the repository: sources still resolve, a wrong pin is named with its history."""
    repo = project(tmp_path)
    name = repo / "content/mechanisms/new.json"  # not on disk: an unsaved buffer
    document = json.loads((repo / "content/mechanisms/m.json").read_bytes())
    done = run(mechlint, ["-f", "json", "--stdin-filename", str(name), "-"], json.dumps(document).encode(), tmp_path)
    assert done.returncode == 0 and findings(done) == [], done.stdout
    document["sources"][0]["sha256"] = "0" * 64
    done = run(mechlint, ["-f", "json", "--stdin-filename", str(name), "-"], json.dumps(document).encode(), tmp_path)
    assert [rule for _, rule, _ in findings(done)] == ["provenance/digest-mismatch"]


def test_the_configuration_of_the_path_applies(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    write(repo, "mechlint.toml", '[rules."reference/unknown-target"]\nlevel = "off"\n')
    name = str(repo / "content/mechanisms/m.json")
    done = run(mechlint, ["-f", "json", "--stdin-filename", name, "-"], broken(), tmp_path / "elsewhere")
    assert done.returncode == 0 and findings(done) == []


@pytest.mark.parametrize(
    ("config", "relative"),
    [
        ("", "content/package.json"),
        ("", "content/mechanisms/deeper/m.json"),
        ('exclude = ["content/drafts/**"]\n', "content/drafts/mechanisms/m.json"),
        ('include = ["**/*.diagram.json"]\n', "content/mechanisms/m.json"),
    ],
)
def test_a_path_the_configuration_does_not_select_is_not_checked(
    tmp_path: Path, mechlint: list[str], config: str, relative: str
) -> None:
    repo = project(tmp_path)
    write(repo, "mechlint.toml", config)
    done = run(mechlint, ["-f", "json", "--stdin-filename", str(repo / relative), "-"], broken(), repo)
    assert done.returncode == 0
    assert findings(done) == []
    assert json.loads(done.stdout)["files_checked"] == 0
    assert b"nothing checked" in done.stderr


def test_include_patterns_select_a_path_too(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    write(repo, "mechlint.toml", 'include = ["**/*.diagram.json"]\n')
    done = run(mechlint, ["-f", "json", "--stdin-filename", "content/x.diagram.json", "-"], broken(), repo)
    assert done.returncode == 1
    assert findings(done) == [("content/x.diagram.json", "reference/unknown-target", UNKNOWN)]


def test_the_text_report_names_the_path(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    done = run(mechlint, ["--stdin-filename", "content/mechanisms/m.json", "-"], broken(), repo)
    assert done.returncode == 1
    assert done.stdout.startswith(b"content/mechanisms/m.json:")


def test_stdin_filename_alone_reads_standard_input(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    done = run(mechlint, ["-f", "json", "--stdin-filename", "content/mechanisms/m.json"], broken(), repo)
    assert [rule for _, rule, _ in findings(done)] == ["reference/unknown-target"]


def test_a_dash_alone_is_always_checked(tmp_path: Path, mechlint: list[str]) -> None:
    done = run(mechlint, ["-f", "json", "-"], broken(), tmp_path)
    assert findings(done) == [("-", "reference/unknown-target", UNKNOWN)]


def test_the_read_is_bounded_by_max_file_size(tmp_path: Path, mechlint: list[str]) -> None:
    repo = project(tmp_path)
    write(repo, "mechlint.toml", "max-file-size = 1000\n")
    name = "content/mechanisms/m.json"
    done = run(mechlint, ["-f", "json", "--stdin-filename", name, "-"], b" " * 5_000_000 + CLEAN_BYTES, repo)
    assert done.returncode == 1
    assert findings(done) == [(name, "mechlint/unreadable-file", "")]
    assert "max-file-size (1000 bytes)" in json.loads(done.stdout)["results"][0]["message"]


@pytest.mark.parametrize(
    "data",
    [b"", b"\xff\xfe{}", b"\xef\xbb\xbf" + CLEAN_BYTES, b'{"a": "\x00"}', b"\x85\xc3(" * 50, b"[" * 100_000, b"{"],
)
def test_bad_bytes_are_findings_never_a_traceback(tmp_path: Path, mechlint: list[str], data: bytes) -> None:
    done = run(mechlint, ["-f", "json", "--stdin-filename", "content/mechanisms/m.json", "-"], data, tmp_path)
    assert done.returncode == 1, done.stderr
    assert {rule for _, rule, _ in findings(done)} & {"schema/invalid-json", "schema/violation"}


@pytest.mark.parametrize(
    "args",
    [
        ["-", "other.json"],
        ["-", "-"],
        ["--stdin-filename", "m.json", "other.json"],
        ["--since", "HEAD", "--stdin-filename", "mechanisms/m.json", "-"],
        ["--changed-files", "-"],
        ["--baseline", "b.json", "--update-baseline", "-"],
    ],
)
def test_standard_input_goes_alone(tmp_path: Path, mechlint: list[str], args: list[str]) -> None:
    done = run(mechlint, args, CLEAN_BYTES, tmp_path)
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"standard input" in done.stderr


def test_a_control_character_in_the_name_is_escaped(tmp_path: Path, mechlint: list[str]) -> None:
    done = run(mechlint, ["--stdin-filename", "notes\x1b[31m.txt", "-"], CLEAN_BYTES, tmp_path)
    assert done.returncode == 0
    # every printed name goes through mechlint.safety.terminal.printable: a control character becomes U+FFFD
    assert b"\x1b" not in done.stderr and "notes\ufffd[31m.txt".encode() in done.stderr


@pytest.mark.parametrize("name", ["", ".", "..", "content/.."])
def test_a_stdin_filename_that_names_no_file_is_a_usage_error(tmp_path: Path, mechlint: list[str], name: str) -> None:
    done = run(mechlint, ["--stdin-filename", name, "-"], CLEAN_BYTES, tmp_path)
    assert done.returncode == 2
    assert b"--stdin-filename" in done.stderr


def test_an_unselected_path_leaves_the_text_report_empty(tmp_path: Path, mechlint: list[str]) -> None:
    done = run(mechlint, ["--stdin-filename", "package.json", "-"], broken(), tmp_path)
    assert done.returncode == 0
    assert done.stdout == b""
    assert b"package.json is not a mechanism file" in done.stderr
