"""The built-in invariant on mechanisms about other subjects: what it judges, how it reads text, what it says.

- It judges only a mechanism whose targets include the edge ``store{n}`` that
  pairs with ``reuse{n}`` (the ``target`` atom in ``applies``).
- "Compares the cache key" is found in the phrasings a careful author uses,
  and not in sentences that only mention a key (the table of sentences is
  ``tests/data/key-comparisons.txt``, run by ``tests/test_clause_analysis.py``).
- Its messages name the scenario and number steps as JSON pointers do.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import Config, load_config
from mechlint.errors import ConfigError
from mechlint.invariants.formula import KEYWORDS, FormulaError, parse, show
from mechlint.invariants.loader import load_file
from mechlint.invariants.monitor import Targets, evaluate, step_view
from mechlint.resources import schema

from .conftest import SEED

RULE = "invariant/reuse-after-store-and-compare"


def _step(title: str, description: str, active: list[str], paths: list[str], stage: str) -> dict[str, Any]:
    return {
        "title": title,
        "description": description,
        "duration": 4000,
        "active": active,
        "paths": paths,
        "state": {"stage": stage},
    }


def _tcp() -> dict[str, Any]:
    """A TCP connection that is kept alive and used again: its keep-alive edge is ``reuse0``."""
    edges = {"syn": "SYN", "synack": "SYN-ACK", "ack": "ACK", "reuse0": "Keep-alive", "data": "Request"}
    targets: dict[str, Any] = {
        "client": {"id": "mechanism-client", "kind": "node", "label": "Client"},
        "server": {"id": "mechanism-server", "kind": "node", "label": "Server"},
    }
    targets.update({key: {"id": f"mechanism-{key}", "kind": "edge", "label": label} for key, label in edges.items()})
    return {
        "version": 1,
        "language": "en",
        "title": "A TCP connection is opened once and used again",
        "description": "The client opens one connection and sends two requests on it.",
        "caption": "The connection stays open between the two requests.",
        "alt": "A client and a server open one TCP connection and send two requests over it.",
        "sources": [],
        "limitations": ["The timing is an example."],
        "targets": targets,
        "stateLabels": {"stage": "Stage"},
        "scenarios": [
            {
                "id": "keep-alive",
                "title": "Keep the connection alive",
                "description": "The second request uses the open connection.",
                "initial": {"stage": "Closed"},
                "steps": [
                    _step(
                        "Use the open connection", "The client keeps the connection.", ["client"], ["reuse0"], "Open"
                    ),
                    _step("Send SYN", "The client asks to connect.", ["client"], ["syn"], "SYN sent"),
                    _step("Send SYN-ACK", "The server agrees.", ["server"], ["synack"], "SYN received"),
                    _step("Send ACK", "The connection is open.", ["client"], ["ack", "data"], "Open"),
                ],
            }
        ],
    }


def _lint(tmp_path: Path, data: dict[str, Any], name: str = "mechanism.json") -> list[tuple[str, str, str]]:
    folder = tmp_path / "mechanisms"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    report = lint([path], Config(root=tmp_path).with_flags(select=["invariant"]), root=tmp_path)
    return [(r.rule_id, r.pointer, r.message) for r in report.results]


# --- what it judges ---


def test_a_tcp_mechanism_with_a_reuse_edge_is_not_judged(tmp_path: Path) -> None:
    assert _lint(tmp_path, _tcp()) == []


def test_a_reuse_edge_without_its_store_target_is_not_judged(tmp_path: Path) -> None:
    data = _tcp()
    data["targets"]["store1"] = {"id": "mechanism-store1", "kind": "edge", "label": "Store"}
    assert _lint(tmp_path, data) == []


def test_a_store_node_does_not_make_a_cache(tmp_path: Path) -> None:
    data = _tcp()
    data["targets"]["store0"] = {"id": "mechanism-store0", "kind": "node", "label": "Store"}
    assert _lint(tmp_path, data) == []


def test_a_cache_that_reuses_without_storing_still_fails(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    for step in seed_data["scenarios"][0]["steps"]:
        step["paths"] = [key for key in step["paths"] if not key.startswith("store")]
    found = _lint(tmp_path, seed_data)
    assert [(rule, pointer) for rule, pointer, _ in found] == [(RULE, "/scenarios/0/steps/3")] * 2


def test_a_tcp_mechanism_with_a_store_edge_for_its_reuse_edge_is_judged(tmp_path: Path) -> None:
    data = _tcp()
    data["targets"]["store0"] = {"id": "mechanism-store0", "kind": "edge", "label": "Store"}
    assert [(rule, pointer) for rule, pointer, _ in _lint(tmp_path, data)] == [(RULE, "/scenarios/0/steps/0")]


def test_the_seed_still_passes(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    assert _lint(tmp_path, seed_data) == []


# --- the target atom ---


@pytest.mark.parametrize(
    ("formula", "targets", "holds"),
    [
        ('target("store0")', {"store0": "edge"}, True),
        ('target("store0")', {"store1": "edge"}, False),
        ('target("store*", "edge")', {"store-x": "edge"}, True),
        ('target("store*", "edge")', {"store-x": "node"}, False),
        ('target("store*", "node")', {"store-x": "node"}, True),
        ('target("s?")', {"s1": ""}, True),
    ],
)
def test_target_atom(formula: str, targets: dict[str, str], holds: bool) -> None:
    node = parse(formula)
    steps = [step_view({}), step_view({})]
    assert evaluate(node, steps, {}, targets=Targets.of(targets))[id(node)] == [holds, holds]


def test_target_placeholder_takes_the_formulas_value() -> None:
    node = parse('target("store{n}", "edge")')
    steps = [step_view({})]
    targets = Targets.of({"store0": "edge"})
    assert evaluate(node, steps, {"n": "0"}, targets=targets)[id(node)] == [True]
    assert evaluate(node, steps, {"n": "1"}, targets=targets)[id(node)] == [False]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('target("a", "box")', "node or edge"),
        ('target("a", "edge", "x")', "expected ')'"),
        ("target()", "string argument"),
        ('target("a",)', "string argument"),
    ],
)
def test_target_atom_errors(text: str, fragment: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(text)
    assert fragment in caught.value.message


def test_target_atom_round_trips() -> None:
    assert show(parse('target("s*", "edge") and path("r")')) == '(target("s*", "edge") and path("r"))'


def test_a_definition_cannot_take_a_word_of_the_language(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        "[[invariant]]\nname = 'x'\nsummary = 's'\nformula = 'true'\n[invariant.define.target]\nformula = 'true'\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_file(path)
    assert "target" in str(caught.value)


def test_the_schema_knows_every_word_of_the_language() -> None:
    invariant = schema("invariants.schema.json")["properties"]["invariant"]["items"]
    pattern = invariant["properties"]["define"]["propertyNames"]["pattern"]
    match = re.match(r"\^\(\?!\(\?:([a-z|]+)\)\$\)", pattern)
    assert match is not None and set(match.group(1).split("|")) == KEYWORDS


# --- "compares the cache key": the table is tests/data/key-comparisons.txt, run by tests/test_clause_analysis.py ---


def test_a_dns_cache_in_its_own_words_passes(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    step = seed_data["scenarios"][0]["steps"][2]
    step["title"] = "Look in the cache"
    step["description"] = "The query name and type are equal to the cache key of the entry."
    step["state"] = {"stage": "Lookup", "artifact": "Entry"}
    assert _lint(tmp_path, seed_data) == []


# --- messages ---


def test_messages_name_the_scenario_and_number_steps_as_pointers_do(tmp_path: Path) -> None:
    data = json.loads(SEED.read_text(encoding="utf-8"))
    steps = data["scenarios"][0]["steps"]
    steps[2].update(title="Wait", description="B waits.", state={"stage": "Wait", "artifact": "Nothing"})
    steps.insert(1, "not a step")  # not an object: the schema's to report; numbering must still follow the file
    found = _lint(tmp_path, data)
    _, pointer, message = found[0]
    assert pointer == "/scenarios/0/steps/4"
    assert 'scenario "compatible-hit"' in message
    assert "steps[4]" in message and "steps[2]" in message
    assert "step 5" not in message and "step 3 " not in message
    assert "which animates" not in message


def test_trace_lines_number_steps_as_pointers_do(tmp_path: Path) -> None:
    data = copy.deepcopy(json.loads(SEED.read_text(encoding="utf-8")))
    steps = data["scenarios"][0]["steps"]
    steps[1], steps[3] = steps[3], steps[1]  # reuse before store
    folder = tmp_path / "mechanisms"
    folder.mkdir()
    path = folder / "m.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    report = lint([path], Config(root=tmp_path).with_flags(select=["invariant"]), root=tmp_path)
    result = report.results[0]
    assert result.trace
    for step in result.trace:
        index = step.pointer.rsplit("/", 1)[1]
        assert f"steps[{index}]" in step.message


def test_a_missing_target_is_said_plainly(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(
        "[[invariant]]\nname = 'reuse-has-store'\nsummary = 's'\n"
        'formula = \'path("reuse{n}") implies target("store{n}", "edge")\'\n'
    )
    (tmp_path / "mechlint.toml").write_text('invariants = ["mine.toml"]\n')
    config = load_config(start=tmp_path).with_flags(select=["invariant/reuse-has-store"])
    folder = tmp_path / "mechanisms"
    folder.mkdir()
    (folder / "tcp.json").write_text(json.dumps(_tcp(), indent=2), encoding="utf-8")
    (result,) = lint([folder / "tcp.json"], config, root=tmp_path).results
    assert result.pointer == "/scenarios/0/steps/0"
    assert "the file has no edge store0" in result.message
    assert [step.pointer for step in result.trace] == ["/scenarios/0/steps/0"]


@pytest.mark.parametrize(
    "targets",
    [[], "store0", {"store0": "edge"}, {"store0": {"kind": 7}}, {"store0": {"kind": None}}, None],
)
def test_malformed_targets_never_crash_the_invariant(tmp_path: Path, seed_data: dict[str, Any], targets: Any) -> None:
    seed_data["targets"] = targets
    for step in seed_data["scenarios"][0]["steps"]:
        step["paths"] = [key for key in step["paths"] if not key.startswith("store")]
    # no store edge of kind "edge" in any of these: the built-in does not apply, and nothing crashes
    assert _lint(tmp_path, seed_data) == []


def test_a_hostile_target_glob_is_refused() -> None:
    with pytest.raises(FormulaError) as caught:
        parse('target("*a*a*a*a*")')
    assert "at most" in caught.value.message


def test_a_placeholder_only_applies_uses_matches_any_value(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    (tmp_path / "mine.toml").write_text(
        "[[invariant]]\nname = 'tail-last'\nsummary = 's'\n"
        'applies = \'target("cache{m}", "node")\'\n'
        'formula = \'active("tail") implies previously(once(path("reuse{n}")))\'\n'
    )
    (tmp_path / "mechlint.toml").write_text('invariants = ["mine.toml"]\n')
    config = load_config(start=tmp_path).with_flags(select=["invariant/tail-last"])
    folder = tmp_path / "mechanisms"
    folder.mkdir()
    seed_data["scenarios"][0]["steps"][0]["active"].append("tail")
    (folder / "cache.json").write_text(json.dumps(seed_data, indent=2), encoding="utf-8")
    found = {(r.rule_id, r.pointer) for r in lint([folder / "cache.json"], config, root=tmp_path).results}
    assert found == {("invariant/tail-last", "/scenarios/0/steps/0")}
    seed_data["targets"] = {k: v for k, v in seed_data["targets"].items() if not k.startswith("cache")}
    (folder / "cache.json").write_text(json.dumps(seed_data, indent=2), encoding="utf-8")
    assert lint([folder / "cache.json"], config, root=tmp_path).results == []
