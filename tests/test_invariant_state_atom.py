"""The invariant language's ``state(key, regex)`` atom, and the explanations of invariants that use it.

``state(key, regex)`` holds at a step whose ``state`` has ``key`` with a
string value in which the regex finds a match (anywhere: it is a search),
looking at the first ``MAX_TEXT`` characters of the value. A step without
the key, or whose value is not a string, does not satisfy it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import load_config
from mechlint.invariants.formula import parse
from mechlint.invariants.monitor import StepView, evaluate, step_view

from .conftest import SEED


def _views(*states: dict[str, Any]) -> list[StepView]:
    return [step_view({"title": f"step {n}", "state": state}) for n, state in enumerate(states)]


def _column(formula: str, steps: list[StepView]) -> list[bool]:
    root = parse(formula)
    return evaluate(root, steps, {})[id(root)]


STATES = (
    {"stage": "A prefills the prefix"},  # matches, not at the start: a search
    {"stage": "Keep the cache entries"},  # the key, another value
    {"artifact": "prefills"},  # the value under another key
    {},  # no state at all
    {"stage": 3},  # not a string
)


def test_state_holds_where_the_key_has_a_matching_value() -> None:
    assert _column('state("stage", "prefills")', _views(*STATES)) == [True, False, False, False, False]


def test_not_state_holds_everywhere_else() -> None:
    assert _column('not state("stage", "prefills")', _views(*STATES)) == [False, True, True, True, True]


def test_state_regex_is_anchored_only_where_the_author_anchors_it() -> None:
    steps = _views({"stage": "A prefills"}, {"stage": "prefills A"})
    assert _column('state("stage", "^prefills")', steps) == [False, True]
    assert _column('state("stage", "prefills$")', steps) == [True, False]


@pytest.mark.parametrize(("at", "seen"), [(9_999, True), (10_000, False)])  # MAX_TEXT, written out
def test_state_sees_the_first_max_text_characters_of_a_value(at: int, seen: bool) -> None:
    steps = _views({"stage": "." * at + "X"})
    assert _column('state("stage", "X")', steps) == [seen]


def test_state_combines_with_the_temporal_operators() -> None:
    steps = _views({"stage": "fill"}, {"stage": "keep"}, {"stage": "reuse"}, {"stage": "fill"})
    assert _column('once(state("stage", "keep"))', steps) == [False, True, True, True]
    assert _column('previously(state("stage", "keep"))', steps) == [False, False, True, False]


INVARIANTS = """
[[invariant]]
name = "tail-not-in-prefill-stage"
level = "warning"
summary = "The tail is never lit while the stage is a prefill."
formula = 'active("tail") implies not state("stage", "^Prefill")'

[[invariant]]
name = "reuse-after-keep"
level = "warning"
summary = "Blocks are used again only after the stage that keeps them."
formula = 'path("reuse*") implies once(state("stage", "^Keep"))'
"""


def _messages(tmp_path: Path, data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    (tmp_path / "mine.toml").write_text(INVARIANTS)
    (tmp_path / "mechlint.toml").write_text('invariants = ["mine.toml"]\n')
    path = tmp_path / "mechanisms" / "x.json"
    path.parent.mkdir()
    path.write_text(json.dumps(data, indent=2))
    config = load_config(start=tmp_path).with_flags(select=["invariant"])
    return {r.rule_id: (r.pointer, r.message) for r in lint([path], config, root=tmp_path).results}


def test_invariants_over_state_explain_exactly_why(tmp_path: Path) -> None:
    data = json.loads(SEED.read_text())
    data["scenarios"][0]["steps"][1]["state"]["stage"] = "Hold the cache entries"  # no stage starts "Keep" now
    assert _messages(tmp_path, data) == {
        "invariant/reuse-after-keep": (
            "/scenarios/0/steps/3",
            'in scenario "compatible-hit", reuse0, reuse1 is animated in steps[3] ("Use K/V with the same key '
            'again"), but no step up to this one has a state stage matching /^Keep/',
        ),
        "invariant/tail-not-in-prefill-stage": (
            "/scenarios/0/steps/4",
            'in scenario "compatible-hit", tail is lit in steps[4] ("Prefill B’s new tail"), but steps[4] '
            '("Prefill B’s new tail") has a state stage matching /^Prefill/',
        ),
    }


def test_invariants_over_state_hold_on_the_seed(tmp_path: Path) -> None:
    data = json.loads(SEED.read_text())
    data["scenarios"][0]["steps"][4]["state"]["stage"] = "Compute B’s new tail"
    assert _messages(tmp_path, data) == {}
