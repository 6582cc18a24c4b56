"""An invariant's finding stays at the step (its pointer) and underlines the step's title (issue 31, point 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mechlint import lint
from mechlint.config import Config, load_config
from mechlint.model import Region
from mechlint.report import OutputOptions, reporter

from .conftest import FIXTURES

FIXTURE = FIXTURES / "rules" / "invariant" / "reuse-after-store-and-compare" / "fail-no-compare.json"
RULE = "invariant/reuse-after-store-and-compare"


def _title_region(text: str, title: str, occurrence: int = 0) -> Region:
    """The region of the words of a title (without its quotes) in the file's text."""
    needle = f'"title": {json.dumps(title, ensure_ascii=False)}'
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + len('"title": "') + 1
    return Region(line, column, line, column + len(title))


def test_the_finding_underlines_the_title_and_stays_at_the_step() -> None:
    report = lint([FIXTURE], load_config(start=FIXTURES).with_flags(select=[RULE]), root=FIXTURES)
    text = FIXTURE.read_text(encoding="utf-8")
    first = report.results[0]
    assert first.pointer == "/scenarios/0/steps/2"
    assert first.region == _title_region(text, "Use KV with the same key again")
    assert first.context == '/scenarios/[id="compatible-hit"]/steps/[title="Use KV with the same key again"]'
    assert [(step.pointer, step.region) for step in first.trace] == [
        ("/scenarios/0/steps/1", _title_region(text, "Keep the cache entries")),
        ("/scenarios/0/steps/2", _title_region(text, "Use KV with the same key again")),
    ]


def test_the_text_report_underlines_the_title() -> None:
    report = lint([FIXTURE], load_config(start=FIXTURES).with_flags(select=[RULE]), root=FIXTURES)
    shown = reporter("text")(report, OutputOptions())
    title = "Use KV with the same key again"
    lines = shown.splitlines()
    at = next(index for index, line in enumerate(lines) if f'"title": "{title}"' in line)
    source, carets = lines[at], lines[at + 1]
    start = carets.index("^")
    assert carets.strip(" |") == "^" * len(title)
    assert source[start : start + len(title)] == title


def test_a_step_without_a_title_is_underlined_whole(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    del seed_data["scenarios"][0]["steps"][3]["title"]
    seed_data["scenarios"][0]["steps"][2].update(title="Wait", description="B waits.", state={"stage": "Wait"})
    path = tmp_path / "mechanisms" / "m.json"
    path.parent.mkdir()
    text = json.dumps(seed_data, indent=2)
    path.write_text(text, encoding="utf-8")
    results = [
        r for r in lint([path], Config(root=tmp_path).with_flags(select=[RULE]), root=tmp_path).results
        if r.rule_id == RULE
    ]  # fmt: skip
    assert results and {r.pointer for r in results} == {"/scenarios/0/steps/3"}
    step_line = text.splitlines()[results[0].region.start_line - 1]
    assert step_line.strip() == "{"
