"""The compiled schema (mechlint/schema/fastschema.py) agrees with jsonschema on every document, valid or not.

``benchmarks/fast_paths.py`` measures what it saves.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mechlint.resources import schema
from mechlint.rules.schema.violation import SCHEMA_NAME, fast_validator, validator
from mechlint.schema.fastschema import Unsupported, compile_schema, shipped

from .conftest import CLEAN
from .test_robustness import ALL_PATHS, edited, json_values

CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))
ODD_VALUES = st.sampled_from(
    [0, 1, -1, 1.0, 2.5, True, False, None, "", "x", "x-1", "Bad Key", "node", "edge", [], {}, "a" * 64, "0" * 64]
)


def _with_key(where: str, key: str, value: Any) -> Any:
    """The clean document with ``value`` added under ``key`` at ``where`` (appended if ``where`` is a list)."""
    data = copy.deepcopy(CLEAN_DATA)
    node: Any = data
    for token in where.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    if isinstance(node, dict):
        node[key] = value
    else:
        node.append(value)
    return data


edited_documents = st.lists(
    st.tuples(st.sampled_from(ALL_PATHS), st.one_of(ODD_VALUES, json_values)), min_size=1, max_size=3
).map(lambda edits: edited(CLEAN_DATA, edits))
documents_with_a_key = st.builds(
    _with_key,
    st.sampled_from(["", "/targets", "/targets/a0", "/scenarios/0", "/scenarios/0/steps/0", "/sources"]),
    st.text(max_size=6),
    st.one_of(ODD_VALUES, json_values),
)
OTHER_SCHEMAS = ("invariants.schema.json", "word-lists.schema.json")


@settings(max_examples=600, deadline=None)
@given(
    st.one_of(
        st.tuples(st.just(SCHEMA_NAME), st.one_of(st.just(CLEAN_DATA), edited_documents, documents_with_a_key)),
        st.tuples(st.sampled_from([SCHEMA_NAME, *OTHER_SCHEMAS]), json_values),
    )
)
def test_the_compiled_schema_agrees_with_jsonschema(case: tuple[str, Any]) -> None:
    """For each shipped schema, the compiled check says "valid" exactly when jsonschema finds no error."""
    name, data = case
    compiled = shipped(name)
    assert compiled is not None, f"{name} no longer compiles: every run would import jsonschema"
    plain = validator() if name == SCHEMA_NAME else Draft202012Validator(schema(name))
    assert compiled(data) is (not any(True for _ in plain.iter_errors(data)))


def test_the_clean_document_is_valid() -> None:
    assert fast_validator()(CLEAN_DATA)  # type: ignore[misc]


@pytest.mark.parametrize("keyword", [{"oneOf": []}, {"if": True}, {"$ref": "https://example.com/x"}, {"type": "uuid"}])
def test_unknown_keywords_are_refused(keyword: dict[str, Any]) -> None:
    with pytest.raises(Unsupported):
        compile_schema(keyword)
