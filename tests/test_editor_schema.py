"""The editor schema: ``"$schema"`` is allowed, every property is described for hover and completion."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.config import Config
from mechlint.resources import schema
from mechlint.rules.schema.violation import SCHEMA_NAME, fast_validator, validator
from mechlint.run.engine import lint_bytes
from mechlint.schema.fastschema import compile_schema

from .conftest import CLEAN
from .test_robustness import json_values

CLEAN_DATA = json.loads(CLEAN.read_text(encoding="utf-8"))
SCHEMA_ID = "https://mechlint.dev/schemas/mechanism/v1.schema.json"


def _with_schema(value: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"$schema": value, **copy.deepcopy(CLEAN_DATA)}
    return data


def _ids(data: dict[str, Any]) -> list[tuple[str, str]]:
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
    return [(r.rule_id, r.pointer) for r in lint_bytes(raw, "x.json", Config())]


@pytest.mark.parametrize(
    "value",
    [SCHEMA_ID, "../../schemas/mechanism.schema.json", "./mechanism.schema.json", "file:///opt/m.json"],
)
def test_a_schema_member_is_allowed_and_read_by_no_rule(value: str) -> None:
    assert _ids(CLEAN_DATA) == []
    assert _ids(_with_schema(value)) == []


@pytest.mark.parametrize("value", [5, "", "has space.json", "tab\tname", None, ["x"]])
def test_a_malformed_schema_member_is_one_violation_at_it(value: Any) -> None:
    assert _ids(_with_schema(value)) == [("schema/violation", "/$schema")]


def test_a_misspelt_schema_key_suggests_schema() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["$shema"] = SCHEMA_ID
    results = lint_bytes(json.dumps(data).encode(), "x.json", Config())
    assert [(r.rule_id, r.pointer) for r in results] == [("schema/violation", "/$shema")]
    assert '"$schema"' in results[0].message


def test_a_document_with_only_a_schema_member_is_not_a_mechanism() -> None:
    results = lint_bytes(json.dumps({"$schema": SCHEMA_ID}).encode(), "x.json", Config())
    assert [(r.rule_id, r.pointer) for r in results] == [("schema/violation", "")]
    assert "is not a mechanism" in results[0].message


def test_schema_text_is_not_prose() -> None:
    """A URL full of acronyms and straight quotes is no prose: no plain-language rule reads it."""
    data = _with_schema("https://EXAMPLE.COM/SCHEMAS/KV/'x'/TTFT.json")
    assert _ids(data) == []


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=12), json_values))
def test_the_compiled_schema_agrees_on_schema_members(value: Any) -> None:
    data = _with_schema(value)
    fast = fast_validator()
    assert fast is not None
    assert fast(data) is (not any(True for _ in validator().iter_errors(data)))


def _properties(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield f"{where}/{name}", sub
        for key, sub in node.items():
            if key != "properties":
                yield from _properties(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for index, sub in enumerate(node):
            yield from _properties(sub, f"{where}/{index}")


PROPERTIES = list(_properties(schema(SCHEMA_NAME), ""))


def test_the_schema_has_many_properties() -> None:
    assert len(PROPERTIES) >= 30


@pytest.mark.parametrize(("where", "sub"), PROPERTIES, ids=[where for where, _ in PROPERTIES])
def test_every_property_is_described_for_editors(where: str, sub: dict[str, Any]) -> None:
    assert isinstance(sub.get("description"), str) and len(sub["description"]) > 20
    assert isinstance(sub.get("markdownDescription"), str)
    for example in sub.get("examples", []):  # every example is valid where it stands
        assert compile_schema({**sub, "$defs": schema(SCHEMA_NAME)["$defs"]})(example), (where, example)


def test_the_schema_is_published_at_a_stable_id() -> None:
    contents = schema(SCHEMA_NAME)
    assert contents["$id"] == SCHEMA_ID
    assert contents["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_error_messages_still_come_from_x_expect() -> None:
    data = copy.deepcopy(CLEAN_DATA)
    data["scenarios"][0]["steps"][0]["duration"] = -5
    (result,) = lint_bytes(json.dumps(data).encode(), "x.json", Config())
    assert "a positive whole number of milliseconds" in result.message
