"""One mistake, one finding, in words a person understands: misspelt keys, look-alike keys, files that are
not mechanisms at all."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from mechlint.model import Result
from mechlint.run.engine import lint_bytes
from mechlint.text.lookalike import closest, odd_characters, skeleton

from .conftest import CLEAN

CLEAN_DATA: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
CLEAN_DATA["sources"] = [{"path": "post.md", "sha256": "0" * 64, "description": "The post."}]
STEP = "/scenarios/0/steps/0"


def _results(data: Any, prefix: str = "") -> list[Result]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
    return [r for r in lint_bytes(raw, "m.json") if r.rule_id.startswith(prefix)]


def _renamed(pointer: str, old: str, new: str) -> dict[str, Any]:
    data = copy.deepcopy(CLEAN_DATA)
    node: Any = data
    for token in pointer.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    node[new] = node.pop(old)
    return data


@pytest.mark.parametrize(
    ("pointer", "old", "new"),
    [
        (STEP, "duration", "duraton"),
        (STEP, "title", "Title"),
        (STEP, "description", "descripton"),
        (STEP, "active", "actve"),
        ("", "targets", "targts"),
        ("", "stateLabels", "statelabels"),
        ("", "limitations", "limitation"),
        ("/scenarios/0", "unselected", "unselcted"),
        ("/targets/a0", "label", "lable"),
        ("/sources/0", "description", "desription"),
        (STEP, "duration", "dur\u0430tion"),  # a Cyrillic а
        (STEP, "paths", "p\u200baths"),  # a zero-width space
    ],
)
def test_a_misspelt_key_is_one_finding_at_the_key(pointer: str, old: str, new: str) -> None:
    results = _results(_renamed(pointer, old, new), "schema/")
    assert [(r.rule_id, r.pointer) for r in results] == [("schema/violation", f"{pointer}/{new}")]
    assert f'"{old}"' in results[0].message
    assert "missing the required" not in results[0].message


def test_a_misspelt_optional_key_is_suggested() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["sources"][0]["sha265"] = data["sources"][0].pop("sha256")
    (result,) = _results(data, "schema/")
    assert result.pointer == "/sources/0/sha265"
    assert 'did you mean "sha256"?' in result.message


def test_a_look_alike_key_names_its_code_point() -> None:
    (result,) = _results(_renamed(STEP, "duration", "dur\u0430tion"), "schema/")
    assert "U+0430 CYRILLIC SMALL LETTER A" in result.message


@pytest.mark.parametrize("data", [{"a": 1}, {}, {"foo": [], "bar": {}}, {"x-extra": 1}, {"name": "x", "steps": []}])
def test_a_file_that_is_no_mechanism_is_one_finding(data: Any) -> None:
    (result,) = _results(data)
    assert (result.rule_id, result.pointer) == ("schema/violation", "")
    assert '"scenarios"' in result.message and '"version"' in result.message


def test_each_mistake_of_a_partial_mechanism_is_one_finding() -> None:
    results = _results({"Version": 1, "title": 2}, "schema/")
    assert sorted(r.pointer for r in results) == ["", "/Version", "/title"]


@pytest.mark.parametrize("data", [[], "x", 1, None, True, [{"version": 1}]])
def test_a_value_that_is_no_object_is_one_finding(data: Any) -> None:
    assert [(r.rule_id, r.pointer) for r in _results(data)] == [("schema/violation", "")]


def test_the_keys_one_object_lacks_are_one_finding() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    step = data["scenarios"][0]["steps"][0]
    del step["title"], step["duration"]
    (result,) = _results(data, "schema/")
    assert result.pointer == STEP
    assert '"title"' in result.message and '"duration"' in result.message


def test_an_unknown_key_far_from_every_key_lists_the_allowed_ones() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["scenarios"][0]["steps"][0]["colour"] = "red"
    (result,) = _results(data, "schema/")
    assert result.pointer == f"{STEP}/colour"
    assert "allowed keys are" in result.message


@pytest.mark.parametrize(
    ("name", "meant"),
    [
        ("\u0441lient", "client"),  # Cyrillic es
        ("cl\u03bfse", "close"),  # Greek omicron
        ("\uff43lient", "client"),  # fullwidth c
        ("cli\u200bent", "client"),  # zero-width space
        ("client\ufeff", "client"),  # byte order mark
        ("\u0430\u0441k", "ack"),
    ],
)
def test_look_alike_keys(name: str, meant: str) -> None:
    assert skeleton(name) == meant
    assert closest(name, ["client", "close", "ack", "server"]) == meant
    assert odd_characters(name)


def test_an_unknown_target_that_only_looks_like_a_target_says_so() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["scenarios"][0]["steps"][0]["active"][0] = "\u0430" + "0"
    (result,) = _results(data, "reference/unknown-target")
    assert "U+0430 CYRILLIC SMALL LETTER A" in result.message
    assert '"a0"' in result.message


def test_an_id_that_only_looks_right_says_so() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["targets"]["a0"]["id"] = "mechanism-\u0430" + "0"
    (result,) = _results(data, "reference/id-mismatch")
    assert "U+0430" in result.message


def test_a_state_key_that_only_looks_right_says_so() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    state = data["scenarios"][0]["steps"][0]["state"]
    state["st\u0430ge"] = state.pop("stage")
    (result,) = _results(data, "reference/state-keys")
    assert "U+0430" in result.message


def test_a_target_key_with_a_look_alike_names_it() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["targets"]["\u0441ache9"] = data["targets"]["a0"]
    (result,) = [r for r in _results(data, "schema/") if r.pointer.startswith("/targets/")]
    assert "U+0441" in result.message


@pytest.mark.parametrize(("field", "key", "kind"), [("paths", "a0", "a node"), ("active", "store0", "an edge")])
def test_kind_mismatch_grammar(field: str, key: str, kind: str) -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["scenarios"][0]["steps"][0][field] = [key]
    results = _results(data, "reference/kind-mismatch")
    assert results and all(f"which is {kind};" in r.message for r in results)


def _edited(change: Any) -> list[Result]:
    data = copy.deepcopy(CLEAN_DATA)
    change(data)
    return _results(data)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["scenarios"][0]["steps"][0].update(active="a0"),
        lambda d: d["scenarios"][0]["steps"][0].update(active=None),
        lambda d: d["scenarios"][0]["steps"][1].update(paths={"store0": True}),
        lambda d: d["scenarios"][0]["steps"][0].update(active=["a0", 1]),
        lambda d: d["scenarios"][0].update(steps=[]),
        lambda d: d["scenarios"][0].update(steps="none"),
        lambda d: d.update(scenarios=[]),
    ],
)
def test_a_broken_step_list_is_one_finding_not_every_target_unused(change: Any) -> None:
    results = _edited(change)
    assert "schema/violation" in {r.rule_id for r in results}
    assert not [r for r in results if r.rule_id.startswith("reference/")]


def test_a_malformed_target_key_is_one_finding_at_the_key() -> None:
    def rename(data: dict[str, Any]) -> None:
        data["targets"]["A0"] = data["targets"].pop("a0")

    results = _edited(rename)
    assert [(r.rule_id, r.pointer) for r in results] == [("schema/violation", "/targets/A0")]
    assert 'did you mean "a0"?' in results[0].message


def test_an_unused_target_is_still_reported_when_the_steps_are_whole() -> None:
    def add(data: dict[str, Any]) -> None:
        data["targets"]["spare"] = {"id": "mechanism-spare", "kind": "node", "label": "Spare"}

    assert [(r.rule_id, r.pointer) for r in _edited(add)] == [("reference/unused-target", "/targets/spare")]


def test_an_entry_that_misses_a_well_formed_key_is_still_unknown() -> None:
    def typo(data: dict[str, Any]) -> None:
        data["scenarios"][0]["steps"][0]["active"][0] = "A0"

    results = _edited(typo)
    assert [(r.rule_id, r.pointer) for r in results] == [("reference/unknown-target", f"{STEP}/active/0")]
    assert 'did you mean "a0"?' in results[0].message


@pytest.mark.parametrize("typo", ["ao", "a\u200b0", "\u0430" + "0", "A0"])
def test_a_mistyped_entry_is_one_finding_not_also_an_unused_target(typo: str) -> None:
    def mistype(data: dict[str, Any]) -> None:
        data["scenarios"][0]["steps"][0]["active"][0] = typo

    assert [r.rule_id for r in _edited(mistype)] == ["reference/unknown-target"]


def test_a_misspelt_state_label_is_one_finding_at_it() -> None:
    def rename(data: dict[str, Any]) -> None:
        data["stateLabels"]["stag"] = data["stateLabels"].pop("stage")

    results = _edited(rename)
    assert [(r.rule_id, r.pointer) for r in results] == [("reference/state-keys", "/stateLabels/stag")]
    assert 'rename "stag" to "stage"' in results[0].message


def test_an_unused_state_label_is_one_finding_at_it() -> None:
    results = _edited(lambda data: data["stateLabels"].update(extra="Extra"))
    assert [(r.rule_id, r.pointer) for r in results] == [("reference/state-keys", "/stateLabels/extra")]


def test_one_state_object_with_a_typo_is_still_reported_there() -> None:
    def rename(data: dict[str, Any]) -> None:
        state = data["scenarios"][0]["steps"][2]["state"]
        state["stag"] = state.pop("stage")

    results = _edited(rename)
    assert [(r.rule_id, r.pointer) for r in results] == [("reference/state-keys", "/scenarios/0/steps/2/state")]


def test_a_slug_with_a_look_alike_hyphen_names_it() -> None:
    (result,) = _edited(lambda data: data["scenarios"][0].update(id="compatible\u2010hit"))
    assert result.pointer == "/scenarios/0/id"
    assert "U+2010 HYPHEN" in result.message


def test_a_huge_object_that_is_no_mechanism_is_one_short_finding() -> None:
    (result,) = _results({f"key{i}": i for i in range(5000)})
    assert result.pointer == ""
    assert "4988 more" in result.message and len(result.message) < 1000


def _pairs(data: Any) -> set[tuple[str, str]]:
    return {(r.rule_id, r.pointer) for r in _results(data, "reference/")}


def test_a_typo_in_a_target_key_is_one_finding_at_the_key() -> None:
    """The steps all say "tail"; the key says "tial" and its id still says mechanism-tail."""
    data = _renamed("/targets", "tail", "tial")
    assert _pairs(data) == {("reference/unknown-target", "/targets/tial")}
    [finding] = _results(data, "reference/")
    assert '"tail"' in finding.message and "rename the key" in finding.message


def test_a_typo_in_a_key_used_twice_is_found_without_the_id() -> None:
    data = _renamed("/targets", "b0", "bo")
    data["targets"]["bo"]["id"] = "element-17"
    assert ("reference/unknown-target", "/targets/bo") in _pairs(data)
    assert not any(p.startswith("/scenarios") for _, p in _pairs(data))


def test_a_typo_in_the_one_step_that_uses_a_target_is_reported_at_the_step() -> None:
    """ "taíl" in the step, "tail" (id mechanism-tail) in targets: the step has the typo."""
    data = copy.deepcopy(CLEAN_DATA)
    data["scenarios"][0]["steps"][4]["active"] = ["tall"]
    assert ("reference/unknown-target", "/scenarios/0/steps/4/active/0") in _pairs(data)
    assert ("reference/unknown-target", "/targets/tail") not in _pairs(data)
