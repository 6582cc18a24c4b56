"""The optional parts of mechlint (extras): what ``pip install mechlint`` brings, and what a command says without one.

A module is made missing in a child process by ``sys.modules[name] = None``,
which makes both ``import name`` and ``importlib.util.find_spec(name)`` see no
such module, as in a virtual environment that never installed it.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL = ("git", "pygls", "lsprotocol", "cryptography")


def _mechlint_without(modules: tuple[str, ...], *arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    hide = "; ".join(f"sys.modules[{name!r}] = None" for name in modules)
    code = f"import sys; {hide}; from mechlint.cli.entry import main; raise SystemExit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_the_runtime_dependencies_are_what_check_imports() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {
        requirement.split(">")[0].split("=")[0].split("<")[0].strip().lower() for requirement in project["dependencies"]
    }
    assert names == {"jsonschema", "referencing", "typer", "google-re2"}
    extras = project["optional-dependencies"]
    assert [each.split(">")[0] for each in extras["lsp"]] == ["pygls", "lsprotocol"]
    assert [each.split(">")[0] for each in extras["attest"]] == ["cryptography"]
    assert extras["all"] == ["mechlint[lsp,attest]"]
    assert "mechlint[all]" in extras["test"]  # the suite runs every command
    assert any(each.startswith("gitpython") for each in extras["test"])


def test_check_runs_without_any_extra() -> None:
    finished = _mechlint_without(OPTIONAL, "check", "--root", "fixtures", "fixtures/content")
    assert finished.returncode == 0, finished.stderr
    assert "Traceback" not in finished.stderr
    assert "Found 9 warnings in 1 of 1 file" in finished.stdout


def test_the_server_without_its_extra_names_it() -> None:
    finished = _mechlint_without(("pygls", "lsprotocol"), "server")
    assert finished.returncode == 2
    assert finished.stderr == (
        "mechlint: mechlint server needs the language server (pygls and lsprotocol are not installed):"
        " pip install 'mechlint[lsp]' (or 'mechlint[all]')\n"
    )
    assert finished.stdout == ""


def test_one_missing_module_of_an_extra_is_named_alone() -> None:
    finished = _mechlint_without(("lsprotocol",), "server")
    assert finished.returncode == 2
    assert "(lsprotocol is not installed)" in finished.stderr
    assert "mechlint[lsp]" in finished.stderr


@pytest.mark.parametrize(
    "arguments",
    [
        ("keygen", "keys/blog"),
        ("attest", "x.json", "--key", "keys/blog.key"),
        ("verify", "x.json", "--key", "keys/blog.pub"),
    ],
    ids=lambda arguments: arguments[0],
)
def test_the_signing_commands_without_their_extra_name_it(arguments: tuple[str, ...], tmp_path: Path) -> None:
    finished = _mechlint_without(("cryptography",), *arguments, cwd=tmp_path)
    assert finished.returncode == 2
    assert finished.stderr == (
        f"mechlint: mechlint {arguments[0]} needs the signing library (cryptography is not installed):"
        " pip install 'mechlint[attest]' (or 'mechlint[all]')\n"
    )
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_with_the_extra_the_server_starts(tmp_path: Path) -> None:
    """The check does not refuse what is there: with its modules present, the server answers and exits on EOF."""
    finished = subprocess.run(
        [sys.executable, "-m", "mechlint", "server"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        input="",
    )
    assert "needs the language server" not in finished.stderr
    assert "Traceback" not in finished.stderr
