"""``mechlint --help`` shows each command's first sentence whole, at any width (issue 31, point 4).

click cuts a command's help to fit the line ("Print the shell completion
script; e.g." stopped at the dot of "e.g.", "…(typography);..." at the width):
every command's help starts with a sentence that stands alone, and that
sentence is its summary, wrapped at word boundaries, never cut.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer

from mechlint.cli.app import app, first_sentence


def _summaries(columns: int) -> dict[str, str]:
    """The Commands section of ``mechlint --help``: each command's summary, its wrapped lines joined."""
    env = {**os.environ, "COLUMNS": str(columns)}
    out = subprocess.run(
        [sys.executable, "-m", "mechlint", "--help"], capture_output=True, text=True, env=env, check=True
    ).stdout
    section = out.split("Commands:\n", 1)[1].splitlines()
    summaries: dict[str, str] = {}
    name = ""
    for line in section:
        if not line.strip():
            break
        assert len(line) <= columns, line
        if line.startswith("  ") and not line.startswith("   "):
            name, _, text = line.strip().partition(" ")
            summaries[name] = text.strip()
        else:
            summaries[name] += " " + line.strip()
    return summaries


def _helps() -> dict[str, str]:
    command = typer.main.get_command(app)
    return {name: sub.help or "" for name, sub in getattr(command, "commands", {}).items()}


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_every_command_summary_is_its_whole_first_sentence(columns: int) -> None:
    summaries = _summaries(columns)
    helps = _helps()
    assert set(summaries) == set(helps)
    assert {name: text for name, text in summaries.items() if text.endswith("...")} == {}
    assert summaries == {name: first_sentence(text) for name, text in helps.items()}
    assert all(text.endswith(".") for text in summaries.values()), summaries


def test_a_first_sentence_stands_alone() -> None:
    assert first_sentence("Print the script. For bash, put it in ~/.bashrc.") == "Print the script."
    assert first_sentence("Apply fixes, e.g. quotes. With --diff, only show them.") == "Apply fixes, e.g. quotes."
    assert first_sentence("One sentence without a stop") == "One sentence without a stop"
