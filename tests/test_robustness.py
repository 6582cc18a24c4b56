"""Arbitrary documents never crash a rule: no exception, no internal-error finding."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.run.engine import lint_bytes

from .conftest import SEED

SEED_DATA = json.loads(SEED.read_text(encoding="utf-8"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


ALL_PATHS = _paths(SEED_DATA)[1:]


def edited(original: Any, edits: list[tuple[tuple[Any, ...], Any]]) -> Any:
    """A copy of ``original`` with each ``(path, value)`` set where the path still exists."""
    data = copy.deepcopy(original)
    for path, value in edits:
        node = data
        try:
            for token in path[:-1]:
                node = node[token]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return data


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(ALL_PATHS), json_values), min_size=1, max_size=4))
def test_replacing_any_part_of_the_seed_never_crashes(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    data = edited(SEED_DATA, edits)
    results = lint_bytes(json.dumps(data).encode())
    assert not [r for r in results if r.rule_id == "mechlint/internal-error"], results


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_any_json_document_never_crashes(value: Any) -> None:
    results = lint_bytes(json.dumps(value).encode())
    assert not [r for r in results if r.rule_id == "mechlint/internal-error"]


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_never_crash(raw: bytes) -> None:
    results = lint_bytes(raw)
    assert not [r for r in results if r.rule_id == "mechlint/internal-error"]
