"""Every worked example of docs/invariants.md runs, as written there."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import load_config

from .conftest import ROOT, SEED

DOC = (ROOT / "docs" / "invariants.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```toml\n(\[\[invariant\]\].*?)```", DOC.split("## Worked examples", 1)[1], re.DOTALL)


def _differ(data: dict[str, Any]) -> None:
    data["scenarios"][0]["steps"][2]["description"] = "The keys differ."


def _tail_first(data: dict[str, Any]) -> None:
    data["scenarios"][0]["steps"][0]["active"].append("tail")


def _only_a0(data: dict[str, Any]) -> None:
    data["scenarios"][0]["steps"][0]["active"] = ["a0"]


def _no_compare(data: dict[str, Any]) -> None:
    data["scenarios"][0]["steps"][2].update(
        title="Wait", description="B waits.", state={"stage": "Wait", "artifact": "Nothing"}
    )


# (example's rule name, how to break the seed, the step that must be reported)
CASES: list[tuple[str, Callable[[dict[str, Any]], None], int]] = [
    ("no-reuse-after-key-mismatch", _differ, 3),
    ("tail-after-reuse-or-miss", _tail_first, 0),
    ("store-after-prefill", _only_a0, 1),
    ("reuse-after-a-comparison", _no_compare, 3),
]


def test_the_doc_has_four_worked_examples() -> None:
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize(("index", "case"), list(enumerate(CASES)))
def test_worked_example(tmp_path: Path, index: int, case: tuple[str, Callable[[dict[str, Any]], None], int]) -> None:
    name, breaks, step = case
    (tmp_path / "example.toml").write_text(EXAMPLES[index], encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["example.toml"]\n')
    config = load_config(start=tmp_path).with_flags(select=[f"invariant/{name}"])
    folder = tmp_path / "mechanisms"
    folder.mkdir()
    (folder / "clean.json").write_bytes(SEED.read_bytes())
    assert lint([folder / "clean.json"], config, root=tmp_path).results == []
    data = json.loads(SEED.read_text(encoding="utf-8"))
    breaks(data)
    (folder / "broken.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    results = lint([folder / "broken.json"], config, root=tmp_path).results
    assert {(r.rule_id, r.pointer) for r in results} == {(f"invariant/{name}", f"/scenarios/0/steps/{step}")}
