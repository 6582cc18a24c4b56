"""The fast entry point parses ``check`` exactly as the typer command line does, or hands over."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint.cli import app, entry, fast_check

from .conftest import CLEAN
from .gitrepo import write


def test_every_option_of_check_is_known_to_the_fast_parser() -> None:
    import typer.main

    command = typer.main.get_command(app.app)
    check = command.commands["check"]  # type: ignore[attr-defined]
    names = {name for param in check.params for name in (*param.opts, *param.secondary_opts) if name.startswith("-")}
    names.discard("--help")
    assert names == set(fast_check.OPTIONS)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    clean = CLEAN.read_text(encoding="utf-8")
    write(tmp_path, "a/mechanisms/ok.json", clean)
    write(
        tmp_path,
        "b/mechanisms/bad.json",
        clean.replace('"a0",\n            "a1"', '"a0",\n            "a1",\n            "zz"', 1),
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


ARGUMENT_LISTS = [
    ["."],
    ["a"],
    ["-f", "json", "."],
    ["--format=sarif", "b"],
    ["--select", "reference", "--ignore=reference/unused-target", "."],
    ["--fail-on", "never", "."],
    ["--no-color", "--show-suppressed", "."],
    ["-o", "json:out.json", "--format", "github", "."],
    ["--", "b/mechanisms/bad.json"],
    ["--root", ".", "a", "b"],
    # mistakes in values: both parsers give run_check's message (issue 18, point 3)
    ["--format", "sarf", "."],
    ["-f", "xml", "."],
    ["--fail-on", "warnig", "."],
    ["--jobs", "0", "."],
    ["-j", "two", "."],
    ["-o", "jsn:out.json", "."],
]


@pytest.mark.parametrize("arguments", ARGUMENT_LISTS, ids=lambda a: " ".join(a))
def test_fast_and_full_paths_agree(tree: Path, arguments: list[str], capfd: pytest.CaptureFixture[str]) -> None:
    assert fast_check.parse_check(arguments) is not None
    fast_code = entry.main(["check", *arguments])
    fast = capfd.readouterr()
    fast_file = (tree / "out.json").read_text() if (tree / "out.json").exists() else None
    full_code = app.main(["check", *arguments])
    full = capfd.readouterr()
    full_file = (tree / "out.json").read_text() if (tree / "out.json").exists() else None
    assert (fast_code, fast.out, fast.err, fast_file) == (full_code, full.out, full.err, full_file)


@pytest.mark.parametrize(
    "arguments",
    [
        ["--help"],
        ["-h"],
        ["--nope", "."],
        ["--fail-on"],
        ["-fjson", "."],
        ["-o=x", "."],
        ["--color=yes"],
    ],
)
def test_anything_unusual_goes_to_typer(arguments: list[str]) -> None:
    assert fast_check.parse_check(arguments) is None


def test_other_commands_go_to_typer(tree: Path, capfd: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["rules"]) == 0
    assert "reference/unknown-target" in capfd.readouterr().out
    assert entry.main(["check", "--format", "xml", "."]) == 2
    assert "xml" in capfd.readouterr().err
