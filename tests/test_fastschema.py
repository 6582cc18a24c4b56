"""The compiled schema agrees with jsonschema on every document, valid or not."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.fastschema import Unsupported, compile_schema
from mechlint.resources import schema
from mechlint.rules.schema.violation import SCHEMA_NAME, fast_validator, validator

from .conftest import CLEAN
from .test_robustness import ALL_PATHS, edited, json_values

CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))
ODD_VALUES = st.sampled_from(
    [0, 1, -1, 1.0, 2.5, True, False, None, "", "x", "x-1", "Bad Key", "node", "edge", [], {}, "a" * 64, "0" * 64]
)


def _agree(data: Any) -> None:
    fast = fast_validator()
    assert fast is not None
    expected = not any(True for _ in validator().iter_errors(data))
    assert fast(data) is expected


def test_the_shipped_schema_compiles() -> None:
    assert fast_validator() is not None


def test_clean_document_is_valid() -> None:
    _agree(CLEAN_DATA)
    assert fast_validator()(CLEAN_DATA)  # type: ignore[misc]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ALL_PATHS), st.one_of(ODD_VALUES, json_values)), min_size=1, max_size=3))
def test_agrees_with_jsonschema_on_edited_documents(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    _agree(edited(CLEAN_DATA, edits))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["", "/targets", "/targets/a0", "/scenarios/0", "/scenarios/0/steps/0", "/sources"]),
    st.text(max_size=6),
    st.one_of(ODD_VALUES, json_values),
)
def test_agrees_with_jsonschema_on_added_keys(where: str, key: str, value: Any) -> None:
    data = copy.deepcopy(CLEAN_DATA)
    node: Any = data
    for token in where.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    if isinstance(node, dict):
        node[key] = value
    else:
        node.append(value)
    _agree(data)


@given(json_values)
def test_agrees_with_jsonschema_on_any_json(value: Any) -> None:
    _agree(value)


@pytest.mark.parametrize("keyword", [{"oneOf": []}, {"if": True}, {"$ref": "https://example.com/x"}, {"type": "uuid"}])
def test_unknown_keywords_are_refused(keyword: dict[str, Any]) -> None:
    with pytest.raises(Unsupported):
        compile_schema(keyword)


def test_the_invariants_schema_compiles_too() -> None:
    compile_schema(schema("invariants.schema.json"))
    assert SCHEMA_NAME == "mechanism.schema.json"
