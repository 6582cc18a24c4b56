"""The fast entry point parses ``check`` exactly as the typer command line does, or hands over."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.cli import app, entry, fast_check
from mechlint.cli import check as check_command

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


#: Pieces of ``check`` command lines: every kind of option, with and without a value, and paths.
ARGUMENT_PIECES = st.sampled_from(
    [
        *fast_check.OPTIONS,
        *(f"{name}=v" for name in fast_check.OPTIONS if name.startswith("--")),
        "-qq",
        "--",
        "-",
        ".",
        "a",
        "b/x.json",
        "json",
        "sarif:out.sarif",
        "reference,plain",
        "2",
        "HEAD~1",
        "--nope",
        "--help",
        "-fjson",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ARGUMENT_PIECES, max_size=8))
def test_the_fast_parser_reads_every_check_command_line_as_typer_does(arguments: list[str]) -> None:
    """What :func:`fast_check.parse_check` understands, typer parses into the same options; the rest is typer's."""
    fast = fast_check.parse_check(arguments)
    if fast is None:
        return
    received: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check_command, "run_check", lambda options: received.append(options) or 0)
        app.main(["check", *arguments])
    assert received == [fast]
