"""The command line, through typer's runner and as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechlint.cli.app import app, main

from .conftest import CLEAN, FIXTURES, ROOT, SEED

runner = CliRunner()
BAD = FIXTURES / "rules" / "reference" / "unknown-target" / "fail-typo-active.json"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run each test in an empty folder, so that no configuration is found above it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def test_clean_file_exits_zero() -> None:
    result = runner.invoke(app, ["check", str(CLEAN)])
    assert result.exit_code == 0, result.output
    assert "All checks passed" in result.output


def test_findings_exit_one_and_name_the_rule() -> None:
    result = runner.invoke(app, ["check", str(BAD)])
    assert result.exit_code == 1
    assert "reference/unknown-target" in result.output


def test_fail_on_never_and_warning() -> None:
    assert main(["check", "--fail-on", "never", str(BAD)]) == 0
    unused = FIXTURES / "rules" / "reference" / "unused-target" / "fail-extra-target.json"
    assert main(["check", str(unused)]) == 0  # only a warning
    assert main(["check", "--fail-on", "warning", str(unused)]) == 1


def test_select_and_ignore() -> None:
    assert main(["check", "--select", "schema", str(BAD)]) == 0
    assert main(["check", "--ignore", "reference/unknown-target,reference/unused-target", str(BAD)]) == 0
    assert main(["check", "--select", "reference/unknown-target", str(BAD)]) == 1


def test_unknown_selector_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--select", "reference/nope", str(SEED)]) == 2
    assert "reference/nope" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["check", "--bogus"], ["check", "--format", "xml"], ["nope"]])
def test_usage_errors_exit_two(argv: list[str]) -> None:
    assert main(argv) == 2


def test_missing_path_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "does-not-exist.json"]) == 2
    assert "does-not-exist.json" in capsys.readouterr().err


def test_output_file_is_written(tmp_path: Path) -> None:
    target = tmp_path / "out.sarif"
    assert main(["check", "-f", "sarif", "-o", str(target), str(BAD)]) == 1
    data = json.loads(target.read_text())
    assert data["runs"][0]["results"][0]["ruleId"]
    assert [p.name for p in tmp_path.iterdir()] == ["out.sarif"]  # no temporary file left


def test_rules_and_rule_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    assert "reference/unknown-target" in listing and "error" in listing
    assert main(["rule", "reference/unknown-target"]) == 0
    assert "Why it matters\n--------------\n" in capsys.readouterr().out
    assert main(["rule", "reference/unknown-targe"]) == 2
    assert "did you mean reference/unknown-target" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("mechlint ")


def test_config_error_exits_two_and_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mechlint.toml").write_text('[rules."reference/unused-target"]\nlevle = "off"\n')
    assert main(["check", str(SEED)]) == 2
    err = capsys.readouterr().err
    assert "mechlint.toml:2" in err and "levle" in err and "mechlint/invalid-config" in err


def test_color_only_when_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(BAD)])
    assert "\033[" not in capsys.readouterr().out
    main(["check", "--color", str(BAD)])
    assert "\033[" in capsys.readouterr().out
    monkeypatch.setenv("FORCE_COLOR", "1")
    main(["check", str(BAD)])
    assert "\033[" in capsys.readouterr().out


def test_real_subprocess_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--format", "github", str(BAD)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("::")
    assert "title=reference/unknown-target::" in done.stdout
    assert "Traceback" not in done.stderr


def test_no_files_found_is_said(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 0
    assert "No mechanism files found" in result.output
