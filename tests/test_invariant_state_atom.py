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
from mechlint.invariants.monitor import StepView, candidate_bindings, evaluate, step_view

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
            'in scenario "compatible-hit", reuse0 and reuse1 are animated in steps[3] ("Use K/V with the same key '
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


# -- the key atoms (active, path), and the monitor's limits ------------------------------------------------------


def _lit(formula: str, lit: list[set[str]], binding: dict[str, str] | None = None) -> list[bool]:
    steps = [StepView("t", "", frozenset(keys), frozenset()) for keys in lit]
    root = parse(formula)
    return evaluate(root, steps, binding or {})[id(root)]


def test_active_matches_a_key_exactly_or_by_glob() -> None:
    lit = [{"a0"}, {"a1", "b"}, {"b"}, set()]
    assert _lit('active("a0")', lit) == [True, False, False, False]
    assert _lit('active("a*")', lit) == [True, True, False, False]
    assert _lit('active("?")', lit) == [False, True, True, False]
    assert _lit('active("a{n}?*")', [{"a0bc"}, {"a0"}]) == [True, False]  # all three wildcards: still a glob


def test_a_placeholder_matches_any_value_until_it_is_bound() -> None:
    lit = [{"store0"}, {"store1"}, {"reuse0"}, {"store0x"}]
    assert _lit('active("store{n}")', lit) == [True, True, False, True]  # a value is letters, digits or _
    assert _lit('active("store{n}")', lit, {"n": "0"}) == [True, False, False, False]
    assert _lit('active("store{n}*")', lit, {"n": "0"}) == [True, False, False, True]  # bound, still a glob


MAX_KEY = 128  # mechlint.invariants.formula.MAX_KEY, written out so that a changed constant fails here


def test_a_key_longer_than_max_key_is_never_matched() -> None:
    longest, longer = "a" * MAX_KEY, "a" * (MAX_KEY + 1)
    assert _lit('active("a*")', [{longest}, {longer}]) == [True, False]
    # a placeholder bound to a value that makes the key too long
    assert _lit('active("a{n}")', [{longest}], {"n": "a" * (MAX_KEY - 1)}) == [True]
    assert _lit('active("a{n}")', [{longer}], {"n": "a" * MAX_KEY}) == [False]


def test_bindings_are_capped_at_max_bindings() -> None:
    root = parse('active("x{m}") implies active("y{n}")')
    keys = [f"x{i}" for i in range(101)] + [f"y{i}" for i in range(101)]  # 101 * 101 = 10201 combinations
    bindings = candidate_bindings(root, keys)
    assert len(bindings) == 10_000  # MAX_BINDINGS, written out
    assert bindings[0] == {"m": "0", "n": "0"}


def test_columns_shared_between_bindings_are_only_those_no_placeholder_reaches() -> None:
    root = parse('active("store{n}") or active("b")')
    steps = [StepView("t", "", frozenset(keys), frozenset()) for keys in ({"store0"}, {"store1"}, {"b"})]
    shared: dict[int, list[bool]] = {}
    assert evaluate(root, steps, {"n": "0"}, shared)[id(root)] == [True, False, True]
    assert evaluate(root, steps, {"n": "1"}, shared)[id(root)] == [False, True, True]
    plain = root.args[1]
    assert set(shared) == {id(plain)}


def test_a_formula_over_a_placeholder_is_never_shared_between_bindings() -> None:
    root = parse('not active("store{n}")')
    steps = [StepView("t", "", frozenset(keys), frozenset()) for keys in ({"store0"}, {"store1"})]
    shared: dict[int, list[bool]] = {}
    assert evaluate(root, steps, {"n": "0"}, shared)[id(root)] == [False, True]
    assert evaluate(root, steps, {"n": "1"}, shared)[id(root)] == [True, False]
    assert shared == {}
