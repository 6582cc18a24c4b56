"""Hostile inputs, end to end: each ends in a named diagnostic and exit code 1 or 2, never a traceback or a hang."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint import lint
from mechlint.cli import main
from mechlint.config import Config

from .conftest import CLEAN, ROOT
from .gitrepo import commit, git, init, write
from .interrupt import start_reading

CLEAN_TEXT = CLEAN.read_text(encoding="utf-8")
CLEAN_DATA = json.loads(CLEAN_TEXT)


def _with(**changes: object) -> bytes:
    data = {**CLEAN_DATA, **changes}
    return json.dumps(data, indent=2, ensure_ascii=False).encode()


MALFORMED: dict[str, bytes] = {
    "truncated": CLEAN_TEXT[: len(CLEAN_TEXT) // 2].encode(),
    "binary-garbage": bytes(range(256)) * 20,
    "utf16-bom": CLEAN_TEXT.encode("utf-16"),
    "utf16-no-bom": CLEAN_TEXT.encode("utf-16-le"),
    "utf8-bom": b"\xef\xbb\xbf" + CLEAN_TEXT.encode(),
    "invalid-utf8": CLEAN_TEXT.encode().replace(b"Request", b"Req\xffuest", 1),
    "empty": b"",
    "whitespace-only": b" \n\t\n",
    "top-level-array": b"[1, 2, 3]",
    "top-level-string": b'"mechanism"',
    "nan": CLEAN_TEXT.replace('"duration": 7000', '"duration": NaN', 1).encode(),
    "infinity": CLEAN_TEXT.replace('"duration": 7000', '"duration": -Infinity', 1).encode(),
    "5000-digit-number": CLEAN_TEXT.replace('"duration": 7000', '"duration": -' + "9" * 5000, 1).encode(),
    "deep-arrays": b"[" * 200_000 + b"]" * 200_000,
    "deep-objects": b'{"a":' * 200_000 + b"1" + b"}" * 200_000,
    "duplicate-keys": CLEAN_TEXT.replace('"version": 1,', '"version": 1, "version": 1,', 1).encode(),
    "targets-as-list": _with(targets=[{"id": "x"}]),
    "steps-as-string": _with(scenarios=[{**CLEAN_DATA["scenarios"][0], "steps": "first, then second"}]),
    "null-everywhere": json.dumps({key: None for key in CLEAN_DATA}).encode(),
    "nulls-inside": _with(targets={"a0": None}, scenarios=[None], sources=[None], stateLabels=None),
    "wrong-types-deep": _with(
        scenarios=[
            {
                **CLEAN_DATA["scenarios"][0],
                "steps": [{"title": 1, "active": "a0", "paths": None, "state": [], "duration": "3s"}],
            }
        ]
    ),
    "control-chars": CLEAN_TEXT.replace("Request A", "Request\u0000A", 1).encode(),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_json_gets_a_named_diagnostic(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = write(tmp_path, f"mechanisms/{name}.json", MALFORMED[name])
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--no-color", str(target.relative_to(tmp_path))])
    out, err = capsys.readouterr()
    assert code in (1, 2), out + err
    assert f"mechanisms/{name}.json:" in out
    assert "Traceback" not in out + err and "internal-error" not in out


def test_lone_surrogates_in_strings_do_not_break_any_report(tmp_path: Path) -> None:
    from mechlint.report import OutputOptions, reporter

    raw = CLEAN_TEXT.replace("Request A", "Request \\ud800 A", 1).replace("key", "k\\udfffey", 1).encode()
    target = write(tmp_path, "mechanisms/m.json", raw)
    report = lint([target], Config(root=tmp_path), root=tmp_path, fingerprints=True)
    for name in ("text", "json", "github", "sarif"):
        reporter(name)(report, OutputOptions()).encode("utf-8", "backslashreplace")


def test_special_files_are_named_and_never_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "mechanisms"
    folder.mkdir()
    os.mkfifo(folder / "fifo.json")
    (folder / "loop.json").symlink_to(folder / "loop.json")
    (folder / "broken.json").symlink_to(folder / "nothing.json")
    (folder / "folder.json").mkdir()
    (folder / "big.json").write_bytes(b" " * 5000)
    write(tmp_path, "mechlint.toml", "max-file-size = 1000\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "."]) == 1
    out = capsys.readouterr().out
    for name in ("fifo", "loop", "broken", "folder", "big"):
        assert f"mechanisms/{name}.json:1:1\nerror mechlint/unreadable-file: " in out


def test_a_file_changing_while_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mechlint.run.discovery as discovery

    target = write(tmp_path, "mechanisms/m.json", CLEAN_TEXT)
    real_read = os.read
    grown = []

    def growing_read(fd: int, size: int) -> bytes:
        data = real_read(fd, size)
        if data and not grown:
            grown.append(True)
            with open(target, "ab") as stream:
                stream.write(b" ")
        return data

    monkeypatch.setattr(discovery.os, "read", growing_read)
    report = lint([target], Config(root=tmp_path), root=tmp_path)
    [result] = report.results
    assert result.rule_id == "mechlint/unreadable-file" and "changed while it was read" in result.message


@pytest.mark.not_root
def test_no_read_permission(tmp_path: Path) -> None:
    target = write(tmp_path, "mechanisms/m.json", CLEAN_TEXT)
    target.chmod(0)
    [result] = lint([target], Config(root=tmp_path), root=tmp_path).results
    assert result.rule_id == "mechlint/unreadable-file"


# -- sources ---------------------------------------------------------------------


def _source_run(repo: Path, paths: list[str]) -> list[tuple[str, str]]:
    data = {**CLEAN_DATA, "sources": [{"path": p, "sha256": "0" * 64, "description": "x"} for p in paths]}
    target = write(repo, "content/mechanisms/m.json", json.dumps(data, ensure_ascii=False))
    report = lint([target], Config(root=repo), root=repo)
    return [(r.rule_id, r.pointer) for r in report.results]


def test_hostile_source_paths(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"post.md": "v1\n"})
    (repo / "dir").mkdir()
    os.mkfifo(repo / "fifo")
    (repo / "out").symlink_to("/etc/hostname")
    (repo / "loop").symlink_to(repo / "loop")
    (repo / "null").symlink_to("/dev/null")
    paths = [
        "dir", "fifo", "out", "loop", "null", "/etc/passwd", "../outside", ".git/config", ".GIT/config",
        "a\u0000b", "a\nb", "a\u0007b", "a\u202eb", "-rf", "a\\b",
    ]  # fmt: skip
    found = _source_run(repo, paths)
    assert found == [("provenance/unsafe-path", f"/sources/{i}/path") for i in range(len(paths))]


def test_a_device_inside_the_repository_is_not_opened(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"post.md": "v1\n"})
    try:
        os.mknod(repo / "zero", 0o600 | 0o020000, os.makedev(1, 5))
    except (PermissionError, OSError):
        pytest.skip("cannot create a device node here")
    assert _source_run(repo, ["zero"]) == [("provenance/unsafe-path", "/sources/0/path")]


def test_unicode_look_alike_of_git_is_just_a_missing_path(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"post.md": "v1\n"})
    assert _source_run(repo, [".\u0261it/config"]) == [("provenance/missing-source", "/sources/0/path")]


# -- git -------------------------------------------------------------------------


def _mechanism_with_missing_source(repo: Path) -> list[tuple[str, str, str]]:
    data = {
        **CLEAN_DATA,
        "sources": [{"path": "gone.md", "sha256": hashlib.sha256(b"x").hexdigest(), "description": "x"}],
    }
    target = write(repo, "content/mechanisms/m.json", json.dumps(data))
    report = lint([target], Config(root=repo), root=repo)
    return [(r.rule_id, r.pointer, r.message) for r in report.results]


def test_bare_repository_has_no_working_tree_history(tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    found = _mechanism_with_missing_source(bare)
    assert [r for r, _, _ in found] == ["provenance/history-unavailable"]


def test_partial_clone_reports_history_unavailable(tmp_path: Path) -> None:
    source = init(tmp_path / "source")
    commit(source, "first", {"gone.md": "old\n"})
    commit(source, "second", {"gone.md": None})
    git(source, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    done = subprocess.run(
        ["git", "clone", "-q", "--filter=blob:none", "--no-checkout", source.as_uri(), str(clone)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip("this git cannot make a partial clone")
    found = _mechanism_with_missing_source(clone)
    assert [r for r, _, _ in found] == ["provenance/history-unavailable"]
    assert "partial clone" in found[0][2]


def test_corrupt_object_is_reported_not_raised(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"a.md": "a\n"})
    commit(repo, "second", {"a.md": "b\n"})
    objects = [p for p in (repo / ".git" / "objects").rglob("*") if p.is_file() and len(p.parent.name) == 2]
    for path in objects:
        path.chmod(0o644)
        path.write_bytes(b"corrupt")
    found = _mechanism_with_missing_source(repo)
    assert found and all(rule.startswith("provenance/") for rule, _, _ in found)


@pytest.mark.needs_root
def test_safe_directory_refusal(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {"a.md": "a\n"})
    for folder, _, files in os.walk(repo):
        os.chown(folder, 12345, 12345)
        for name in files:
            os.chown(os.path.join(folder, name), 12345, 12345)
    found = _mechanism_with_missing_source(repo)
    assert [r for r, _, _ in found] == ["provenance/history-unavailable"]
    assert "safe.directory" in found[0][2]


def test_concurrent_runs_share_the_cache(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, "first", {f"f{i}.md": f"{i}\n" for i in range(50)})
    commit(repo, "second", {"f3.md": None})
    data = {
        **CLEAN_DATA,
        "sources": [{"path": "f3.md", "sha256": hashlib.sha256(b"3\n").hexdigest(), "description": "x"}],
    }
    write(repo, "content/mechanisms/m.json", json.dumps(data))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "mechlint", "check", "-f", "json", "content"]
    runs = [
        subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    rules = [[r["rule"] for r in json.loads(out)["results"]] for out, _ in outputs]
    assert rules == [["provenance/gone-source"]] * 4, [err for _, err in outputs]


# -- rule files --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[[invariant]\nname = 'x'", "not valid TOML"),
        ("[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'active(\"a\") xor active(\"b\")'\n", "xor"),
        ("[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'text(\"(a)\\\\1\")'\n", "backreferences"),
        ("[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'active(\"*a*b*c*d\")'\n", "at most 3"),
    ],
)
def test_broken_rule_files_are_config_errors(
    tmp_path: Path, text: str, fragment: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "rules.toml", text)
    write(tmp_path, "mechlint.toml", 'invariants = ["rules.toml"]\n')
    write(tmp_path, "mechanisms/m.json", CLEAN_TEXT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "."]) == 2
    err = capsys.readouterr().err
    assert "rules.toml" in err and fragment in err and "Traceback" not in err


def test_catastrophic_regex_and_match_everything_glob_finish(tmp_path: Path) -> None:
    write(
        tmp_path,
        "rules.toml",
        "[[invariant]]\nname = 'slow'\nsummary = 's'\nformula = 'not text(\"(a+)+$\") or active(\"*\")'\n",
    )
    write(tmp_path, "mechlint.toml", 'invariants = ["rules.toml"]\n')
    data = json.loads(CLEAN_TEXT)
    data["scenarios"][0]["steps"][0]["description"] = "a" * 9_000 + "!"
    write(tmp_path, "mechanisms/m.json", json.dumps(data))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--select", "invariant", "."],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode in (0, 1, 2), done.stderr
    assert "Traceback" not in done.stderr


def test_fallback_engine_refuses_nested_quantifiers(monkeypatch: pytest.MonkeyPatch) -> None:
    import mechlint.safety.saferegex as saferegex

    monkeypatch.setattr(saferegex, "_re2", lambda: None)
    saferegex.compile_pattern.cache_clear()
    try:
        with pytest.raises(saferegex.UnsafePattern, match="nested"):
            saferegex.compile_pattern("(a+)+$")
        assert saferegex.compile_pattern("compare.*key").search("compare the key")
    finally:
        saferegex.compile_pattern.cache_clear()


# -- interruption ------------------------------------------------------------------


def test_interrupted_write_leaves_no_half_written_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mechlint.safety.safeio as edit

    target = tmp_path / "report.sarif"
    target.write_text("previous report")

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(edit.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        edit.write_atomically(target, b"new report")
    assert target.read_text() == "previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.sarif"]


# -- scale -------------------------------------------------------------------------


def test_ten_thousand_targets(tmp_path: Path) -> None:
    data = json.loads(CLEAN_TEXT)
    for i in range(10_000):
        data["targets"][f"t{i}"] = {"id": f"mechanism-t{i}", "kind": "node", "label": f"T {i}"}
    target = write(tmp_path, "mechanisms/m.json", json.dumps(data))
    report = lint([target], Config(root=tmp_path), root=tmp_path)
    assert sum(r.rule_id == "reference/unused-target" for r in report.results) == 10_000


def test_one_real_process_over_every_hostile_file(tmp_path: Path) -> None:
    for name, raw in MALFORMED.items():
        write(tmp_path, f"mechanisms/{name}.json", raw)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--no-color", "."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "internal-error" not in done.stdout
    for name in MALFORMED:
        assert f"mechanisms/{name}.json:" in done.stdout


def test_ctrl_c_with_worker_processes_stops_cleanly(tmp_path: Path) -> None:
    import signal

    for index in range(1500):
        write(tmp_path, f"content/p{index}/mechanisms/m.json", CLEAN_TEXT)
    # interrupted once the workers have read a few files: while they work, on any machine
    process = start_reading(tmp_path, ["check", "-j", "2", "--no-cache", "content"])
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Traceback" not in err and b"interrupted" in err
