"""The text report's two layouts at 60, 80 and 120 columns (issue 31, point 2).

Full (the default, as ruff's full output): the location line, then the level,
the rule id and the message wrapped at word boundaries to ``COLUMNS``, then the
excerpt. Concise (``-f concise``): ``path:line:col: level rule-id message``, one
line a finding, whatever the width, for scripts and editors.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mechlint.report.wrap import split_words, text_width, wrap_words

from .conftest import CLEAN, SEED
from .gitrepo import write

MECHLINT = Path(sys.executable).parent / "mechlint"
EXCERPT = re.compile(r"^ \d+ \| |^ +\| ")
LOCATION = re.compile(r"^\S+:\d+:\d+$")


def mechlint(*args: str, cwd: Path, columns: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env["COLUMNS"] = columns
    return subprocess.run([str(MECHLINT), "check", *args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed (long messages: warnings and notes, one with a 60-character path in it) beside a clean file."""
    root = tmp_path_factory.mktemp("layout")
    write(root, "mechlint.toml", '[rules."a11y/reading-time"]\nlevel = "note"\n')
    write(root, "a/mechanisms/ok.json", CLEAN.read_bytes())
    write(root, "content/mechanisms/seed.json", SEED.read_bytes())
    return root


@pytest.fixture(scope="module")
def findings(tree: Path) -> list[dict[str, Any]]:
    mechlint("-o", "json:out.json", "--show-source", ".", cwd=tree, columns="80")
    results: list[dict[str, Any]] = json.loads((tree / "out.json").read_text(encoding="utf-8"))["results"]
    assert len(results) > 5
    assert any(len(result["message"]) > 120 for result in results)
    return results


def _marked(finding: dict[str, Any]) -> str:
    """The message as the text report shows it: ``[*]`` first when ``check --fix`` fixes it (a safe fix)."""
    fix = finding["fix"]
    return ("[*] " if fix is not None and fix["applicability"] == "safe" else "") + finding["message"]


def _full_blocks(stdout: str) -> list[list[str]]:
    """The findings of the full layout: each one's lines, from its location line to the blank line after it."""
    blocks = [block.splitlines() for block in stdout.split("\n\n")]
    return [block for block in blocks if block and LOCATION.match(block[0])]


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_full_layout_wraps_the_message_at_word_boundaries(
    tree: Path, findings: list[dict[str, Any]], columns: int
) -> None:
    done = mechlint("--show-source", ".", cwd=tree, columns=str(columns))
    blocks = _full_blocks(done.stdout)
    assert len(blocks) == len(findings)
    for block, finding in zip(blocks, findings, strict=True):
        assert block[0] == f"{finding['path']}:{finding['line']}:{finding['column']}"
        head = f"{finding['level']} {finding['rule']}: "
        assert block[1].startswith(head)  # the rule id whole, on the line of the level
        message = [block[1]] + [line for line in block[2:] if not EXCERPT.match(line)]
        assert all(line.startswith("  ") and line[2] != " " for line in message[1:])
        # every line fits, unless it is one word longer than the line
        assert [line for line in message if len(line) > columns and " " in line.strip()] == []
        # joined at single spaces, the lines are the message: no word was cut
        assert " ".join(line.strip() for line in message)[len(head) :] == _marked(finding)
        # each line holds as many words as fit: the next line's first word would not
        for line, after in itertools.pairwise(message):
            assert len(line) + 1 + len(after.split()[0]) > columns
        excerpt = [line for line in block if EXCERPT.match(line)]
        assert len(excerpt) == 2 and all(len(line) <= columns for line in excerpt)


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_concise_layout_is_one_line_a_finding(tree: Path, findings: list[dict[str, Any]], columns: int) -> None:
    done = mechlint("-f", "concise", "--show-source", ".", cwd=tree, columns=str(columns))
    lines = done.stdout.splitlines()
    expected = [f"{f['path']}:{f['line']}:{f['column']}: {f['level']} {f['rule']} {_marked(f)}" for f in findings]
    assert lines[: len(expected)] == expected
    assert lines[len(expected) :] == ["", lines[-2], lines[-1]] and lines[-1].startswith("Found ")
    assert lines[-2].startswith("[*] ") and " fixable with --fix" in lines[-2]
    assert any(len(line) > columns for line in expected)  # never wrapped: a script reads one line


def test_concise_is_a_format_of_its_own_for_files_too(tree: Path) -> None:
    mechlint("-o", "concise:out.txt", "-o", "text:full.txt", ".", cwd=tree, columns="60")
    concise = (tree / "out.txt").read_text(encoding="utf-8").splitlines()
    full = (tree / "full.txt").read_text(encoding="utf-8").splitlines()
    assert re.match(r"^\S+:\d+:\d+: (warning|note) \S+ ", concise[0])
    assert LOCATION.match(full[0]) and re.match(r"^(warning|note) \S+: ", full[1])
    assert max(len(line) for line in full if " " in line.strip()) <= 120  # a file: the default width


def test_wrapping_counts_columns_and_keeps_a_long_word_whole() -> None:
    words = split_words("a path content/blog/post/mechanisms/a-very-long-name.json is too long for the line")
    lines = wrap_words(words, 20, indent="  ")
    assert lines == [
        "a path",
        "  content/blog/post/mechanisms/a-very-long-name.json",
        "  is too long for",
        "  the line",
    ]
    wide = wrap_words(split_words("日本語 日本語 日本語"), 14)
    assert wide == ["日本語 日本語", "日本語"] and all(text_width(line) <= 14 for line in wide)
    shown = wrap_words([("error", "\033[31merror\033[0m"), ("rule:", "rule:"), *split_words("a b")], 13)
    assert shown == ["\033[31merror\033[0m rule: a", "b"]  # colour codes take no columns
