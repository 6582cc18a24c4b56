"""The edges of the ``schema/`` rules that ``scripts/mutate.py`` found unchecked (issue 32).

Each test is named after the rule module it is about (``unsupported_version``), so that the mutation run,
which first runs the tests named after a rule, picks it; each asserts the whole verdict (rule, place,
message), not only that a rule fired.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from mechlint.config import Config
from mechlint.rules.schema.placeholder import lower_first
from mechlint.rules.schema.unsupported_version import unsupported
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN, ROOT

BASE: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
UNSUPPORTED = "schema/unsupported-version"
PLACEHOLDER = "schema/placeholder"


def _found(raw: bytes, *rules: str) -> list[tuple[str, str, str]]:
    """The findings of ``rules`` (every rule when none is named), and any crash of a rule."""
    return [
        (r.rule_id, r.pointer, r.message)
        for r in lint_bytes(raw, config=Config())
        if not rules or r.rule_id in (*rules, "mechlint/internal-error")
    ]


def _with_version(text: str) -> bytes:
    raw = json.dumps(BASE, indent=2)
    assert raw.count('"version": 1,') == 1
    return raw.replace('"version": 1,', f'"version": {text},').encode()


@pytest.mark.parametrize("version", ["2", "0", "-1", "2.0"])
def test_unsupported_version_names_the_version_and_the_known_one(version: str) -> None:
    """Another whole number, also written with a fraction, is the only finding: no other rule judges the file."""
    assert _found(_with_version(version)) == [
        (
            UNSUPPORTED,
            "/version",
            f"version {version} is not a mechanism format this mechlint knows (known: 1); "
            "upgrade mechlint or set the version the file was written for",
        )
    ]


@pytest.mark.parametrize("version", ['"2"', '"1"', "false", "true", "1.5", "null"])
def test_unsupported_version_leaves_a_version_that_is_no_whole_number_to_schema_violation(version: str) -> None:
    """A string, a boolean (no integer in JSON Schema), a fraction or null: the file is checked as version 1."""
    assert _found(_with_version(version)) == [
        ("schema/violation", "/version", f"version must be a whole number, the format version (1); got {version}")
    ]


@pytest.mark.parametrize(("raw", "got"), [(b"[]", "an array of 0 items"), (b'"x"', '"x"'), (b"3", "3")])
def test_unsupported_version_says_nothing_about_a_document_that_is_no_object(raw: bytes, got: str) -> None:
    """No object, no version: the document is schema/violation's, and unsupported-version does not crash."""
    assert _found(raw) == [("schema/violation", "", f"the document must be one JSON object; got {got}")]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"version": 2}, True),
        ({"version": 2.0}, True),
        ({"version": 1}, False),
        ({"version": 1.0}, False),
        ({"version": True}, False),
        ({"version": "2"}, False),
        ({}, False),
        ([], False),
    ],
)
def test_unsupported_version_answers_a_bool(data: object, expected: bool) -> None:
    """``unsupported`` is what the engine asks before it runs the document's rules: a bool, never ``None``."""
    assert unsupported(data) is expected


def test_violation_checks_a_valid_file_without_importing_jsonschema() -> None:
    """The compiled schema answers "valid" for the common case; jsonschema is imported only to explain errors."""
    script = (
        "import sys\n"
        "from mechlint.config import Config\n"
        "from mechlint.run.engine import lint_bytes\n"
        f"assert lint_bytes({CLEAN.read_bytes()!r}, config=Config()) == []\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'referencing')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout == "[]\n"


def test_placeholder_names_the_place_and_what_belongs_there() -> None:
    """Each kind of place: a top-level member, a limitation, a target's label, a state label, the first and a later
    value of a state, an entry of a list, and a scenario's id (whose description starts with "A", lowered)."""
    data = copy.deepcopy(BASE)
    scenario = data["scenarios"][0]
    data["title"] = "TODO: the title"
    data["limitations"][0] = "TBD"
    data["stateLabels"]["stage"] = "FIXME"
    data["targets"]["a0"]["label"] = "TODO"
    data["x-note"] = "TODO"
    data["$schema"] = "TODO"
    scenario["id"] = "TODO"
    scenario["initial"]["stage"] = "TODO"
    scenario["steps"][1]["state"]["artifact"] = "TODO"
    scenario["steps"][0]["active"][0] = "TODO"
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    states = "the state panel {}: one string for each key of stateLabels."
    labels = (
        "the names of the fields of the state panel shown beside the diagram, by state key. Every initial and every "
        "step state has exactly these keys."
    )
    assert _found(raw, PLACEHOLDER) == [
        (PLACEHOLDER, "/title", 'title is still a placeholder ("TODO: the title"); write the title: the one-line '
         "title of the mechanism."),
        (PLACEHOLDER, "/limitations/0", 'limitations[0] is still a placeholder ("TBD"); write the limitation: what the '
         "reader must not conclude from the playback, one sentence each."),
        (PLACEHOLDER, "/targets/a0/label", 'targets.a0.label is still a placeholder ("TODO"); write the label: the '
         "short visible label of the target, also read by screen readers."),
        (PLACEHOLDER, "/stateLabels/stage", 'stateLabels.stage is still a placeholder ("FIXME"); write the label of '
         f'the state "stage": {labels}'),
        (PLACEHOLDER, "/scenarios/0/id", 'scenarios[0].id is still a placeholder ("TODO"); write the id: a slug that '
         "names the scenario, unique in the file: lowercase words joined by hyphens."),
        (PLACEHOLDER, "/scenarios/0/initial/stage", 'scenarios[0].initial.stage is still a placeholder ("TODO"); '
         f'write the first value of the state "stage": {states.format("before the first step")}'),
        (PLACEHOLDER, "/scenarios/0/steps/0/active/0", 'scenarios[0].steps[0].active[0] is still a placeholder '
         '("TODO"); write it: keys of the nodes lit in this step; each names a target of kind node.'),
        (PLACEHOLDER, "/scenarios/0/steps/1/state/artifact", "scenarios[0].steps[1].state.artifact is still a "
         f'placeholder ("TODO"); write the value of the state "artifact": {states.format("during this step")}'),
    ]  # fmt: skip


ROOT_DESCRIPTION = (
    "a JSON document that drives one animated, explanatory diagram: named targets and scenarios of steps. Keys "
    "starting with x- are extensions and are not checked."
)


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        (b'"TODO"', ("", 'the document is still a placeholder ("TODO"); write it')),
        (b'["TODO"]', ("/0", '[0] is still a placeholder ("TODO"); write it')),
    ],
)
def test_placeholder_in_a_document_that_is_no_object(raw: bytes, found: tuple[str, str]) -> None:
    pointer, message = found
    assert _found(raw, PLACEHOLDER) == [(PLACEHOLDER, pointer, f"{message}: {ROOT_DESCRIPTION}")]


def test_placeholder_of_a_member_the_schema_has_no_words_for_takes_the_nearest_description() -> None:
    """``stateLabels`` written as a string is "the stateLabels", not a state's label; a key under ``targets`` or
    ``stateLabels`` that is all digits is a key, not an index into a list, and crashes nothing."""
    data = copy.deepcopy(BASE)
    data["stateLabels"] = "TODO"
    raw = json.dumps(data, indent=2).encode()
    assert _found(raw, PLACEHOLDER) == [
        (
            PLACEHOLDER,
            "/stateLabels",
            'stateLabels is still a placeholder ("TODO"); write the stateLabels: the names of the fields of the state '
            "panel shown beside the diagram, by state key. Every initial and every step state has exactly these keys.",
        )
    ]
    data = copy.deepcopy(BASE)
    data["targets"]["7"] = {"id": "TODO"}
    raw = json.dumps(data, indent=2).encode()
    assert _found(raw, PLACEHOLDER) == [
        (
            PLACEHOLDER,
            "/targets/7/id",
            'targets[7].id is still a placeholder ("TODO"); write the id: the DOM id of the element in the rendered '
            "illustration: mechanism- followed by the target's key.",
        )
    ]


def test_placeholder_is_found_in_a_file_that_holds_every_marker() -> None:
    """The shortcut (no marker in the bytes, no string to walk) must not skip a file that has them all."""
    data = copy.deepcopy(BASE)
    data["title"] = "TODO FIXME TBD \\u0041"
    raw = json.dumps(data, indent=2).encode()
    assert b"\\u" in raw
    assert _found(raw, PLACEHOLDER) == [
        (
            PLACEHOLDER,
            "/title",
            'title is still a placeholder ("TODO FIXME TBD \\u0041"); write the title: the one-line title of the '
            "mechanism.",
        )
    ]


@pytest.mark.parametrize(
    ("text", "lowered"),
    [
        ("The title.", "the title."),
        ("A slug", "a slug"),
        ("BCP 47 tag", "BCP 47 tag"),
        ("IDs of targets", "IDs of targets"),
        ("node for a box", "node for a box"),
        ("X", "x"),
        ("", ""),
    ],
)
def test_placeholder_lowers_the_first_letter_of_a_description_but_not_an_acronym(text: str, lowered: str) -> None:
    assert lower_first(text) == lowered
