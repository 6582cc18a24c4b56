"""``mechlint rule ID`` draws the rule's page for a terminal; the pages keep their Markdown (issue 31, point 5).

Headings, wrapped paragraphs, indented code and no Markdown marks (backticks,
asterisks, fences); each example is a diff against the base file, or the
whole small file; colour only on a terminal, never with ``NO_COLOR``; the
configuration example shows the rule's default level.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint.catalog.docs import rule_markdown
from mechlint.catalog.registry import all_rules, rules_by_id
from mechlint.catalog.ruleexamples import base_text, example_diff, example_document
from mechlint.catalog.termdoc import render

MECHLINT = Path(sys.executable).parent / "mechlint"


def rule(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    return subprocess.run(
        [str(MECHLINT), "rule", *args], env={**clean, **env}, capture_output=True, text=True, check=True
    )


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_a_rule_page_in_the_terminal_has_no_markdown_marks(columns: int) -> None:
    out = rule("provenance/stale-source", COLUMNS=str(columns)).stdout
    lines = out.splitlines()
    assert lines[:2] == ["provenance/stale-source", "=" * len("provenance/stale-source")]
    assert "What it does\n------------\n" in out and "Configuration\n-------------\n" in out
    assert "`" not in out and "**" not in out and "\033" not in out
    assert not [line for line in lines if line.startswith("#")]
    prose = [line for line in lines if not line.startswith("    ")]
    assert [line for line in prose if len(line) > columns and " " in line.strip()] == []
    assert "name in that commit, the message says it: git show COMMIT:PATH gives" in " ".join(out.split())
    # the example: a diff against the base file, each digest on a line of its own
    assert '    -  "sources": [],' in lines
    assert '    +      "sha256": "2d27fbdf4e8ca207afbfa388ca9172fbcc6c70e534af2476b3b704f87debadcf",' in lines
    assert '    level = "error"  # the default; error, warning, note or off' in lines


def test_colour_only_when_asked_and_never_with_no_color() -> None:
    coloured = rule("provenance/stale-source", FORCE_COLOR="1").stdout
    assert "\033[1m" in coloured and '\033[31m-  "sources": [],\033[0m' in coloured
    assert "\033[36mgit show COMMIT:PATH" not in coloured  # code is coloured word by word
    assert "\033[36mgit\033[0m \033[36mshow\033[0m" in coloured
    assert "\033" not in rule("provenance/stale-source", FORCE_COLOR="1", NO_COLOR="1").stdout


def test_the_markdown_is_kept_for_docs_and_pipes() -> None:
    markdown = rule("provenance/stale-source", "--markdown").stdout
    assert markdown == rule_markdown(rules_by_id()["provenance/stale-source"])
    assert "```diff\n" in markdown and "## What it does" in markdown


@pytest.mark.parametrize("checked", all_rules(), ids=lambda checked: checked.meta.id)
def test_every_page_configures_the_default_level_and_shows_examples_as_files_or_diffs(checked: object) -> None:
    meta = checked.meta  # type: ignore[attr-defined]
    markdown = rule_markdown(checked)  # type: ignore[arg-type]
    assert re.findall(r'^level = "(\w+)"', markdown, re.M) == [meta.level.label]
    assert "``" not in markdown.replace("```", "")  # one backtick marks code, as Markdown does
    assert " set to:" not in markdown
    for example in meta.examples:
        diff = example_diff(example)
        if example.where is None or not diff:  # a whole file, or the base file unchanged
            assert f"```json\n{example.json}\n```" in markdown
            assert example.where is None or example_document(example) == base_text()
        else:
            assert diff[:2] == ["--- base.json", "+++ example.json"] and "\n".join(diff) in markdown
            removed = [line[1:] for line in diff[2:] if line.startswith("-")]
            added = [line[1:] for line in diff[2:] if line.startswith("+")]
            assert added and set(removed) <= set(base_text().splitlines())
            assert set(added) <= set(example_document(example).splitlines())


def test_render_draws_the_subset_the_pages_use() -> None:
    markdown = (
        "# a/b\n\nSome `code here` and **bold** text, [a link](https://x.example/a).\n\n"
        "- Default level: **error**\n\n| option | default |\n|---|---|\n| `prefix` | `''` |\n| `n` | `3` |\n\n"
        "```diff\n--- a\n+++ b\n-old\n+new\n same\n```\n"
    )
    assert render(markdown, 40, color=False) == (
        "a/b\n===\n\nSome code here and bold text, a link\n(https://x.example/a).\n\n  - Default level: error\n\n"
        "  option  default\n  prefix  ''\n  n       3\n\n    --- a\n    +++ b\n    -old\n    +new\n     same\n"
    )
    coloured = render(markdown, 40, color=True)
    assert "\033[1m\033[4ma/b\033[0m" in coloured and "\033[32m+new\033[0m" in coloured
