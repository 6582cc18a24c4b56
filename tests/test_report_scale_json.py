"""The JSON reports' writer (``report/jsontext.py``) gives the standard encoder's text, byte for byte.

:func:`~mechlint.report.jsontext.dumps` walks objects and arrays by exact type
first (issue 30, point 6: a report of 100,000 findings is millions of them);
these hold it equal to ``json.dumps(value, indent=2, ensure_ascii=False)`` on
values chosen to break a hand-written encoder: strings with quotes,
backslashes, control characters, lone surrogates, characters beyond the BMP
and JSON's own punctuation; empty and nested containers; subclasses of every
JSON type; big integers and floats of every spelling; keys that are not
strings. A regression guard: the writer was equal before the change, and must
stay so.
"""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint.report.jsontext import dumps


def reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


class Kind(enum.IntEnum):
    ERROR = 2


class Text(str):
    pass


class Number(int):
    pass


class Decimal(float):
    pass


class Mapping(dict[str, Any]):
    pass


class Items(list[Any]):
    pass


HOSTILE_STRINGS = [
    "",
    '"',
    "\\",
    '\\"',
    '"\\',
    "\\\\\\",
    'a "quoted" \\path\\',
    "\x00\x01\x1f\x7f",
    "\b\f\n\r\t",
    "\u009b[2J",
    "\u2028\u2029",
    "\u202e",
    "\ud800",
    "\udcff and \udfff",
    "café, 中文, 😀",
    "[{}],: ",
    '{"a": [1, 2]}',
    '},\n{"b": 1}',
    "]]]]}}}}",
    "0123456789",
    "-1.5e+10",
    "true false null NaN Infinity",
]
HOSTILE_NUMBERS = [
    0,
    -1,
    2**64,
    -(2**200),
    10**300,
    0.0,
    -0.0,
    1.5,
    1e16,
    1e-7,
    -1.5e300,
    5e-324,
    math.inf,
    -math.inf,
    math.nan,
]


@pytest.mark.parametrize("value", HOSTILE_STRINGS + HOSTILE_NUMBERS, ids=repr)
def test_a_hostile_leaf_alone_and_in_every_container_is_the_standard_text(value: Any) -> None:
    for shaped in (value, [value], [value, value], {"k": value}, {"k": [value, {"j": value}]}, [[value], {}]):
        assert dumps(shaped) == reference(shaped)


@pytest.mark.parametrize("key", HOSTILE_STRINGS, ids=repr)
def test_a_hostile_key_is_the_standard_text(key: str) -> None:
    value = {key: key, "next": {key: [key]}}
    assert dumps(value) == reference(value)


def test_empty_and_nested_containers_are_the_standard_text() -> None:
    value = [[], {}, [[]], [{}], {"": {}}, {"": []}, [[[[[]]]]], {"a": {"b": {"c": {"d": {}}}}}, (), ((),), [(), {}]]
    assert dumps(value) == reference(value)
    assert dumps([]) == "[]" and dumps({}) == "{}"


def test_subclasses_of_every_json_type_are_written_as_the_standard_encoder_writes_them() -> None:
    value = Mapping(
        level=Kind.ERROR,
        text=Text('a "b"'),
        number=Number(7),
        decimal=Decimal(2.5),
        items=Items([Kind.ERROR, Text("x"), Mapping(), Items()]),
        ordered=OrderedDict([("z", 1), ("a", 2)]),
        flags=[True, False, None],
    )
    assert dumps(value) == reference(value)


def test_keys_that_are_not_strings_are_converted_as_the_standard_encoder_converts_them() -> None:
    value = {3: "a", 2.5: "b", True: "c", None: "d", "e": {Kind.ERROR: [1]}}
    assert dumps(value) == reference(value)


def test_what_json_cannot_hold_raises_the_standard_encoders_error() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        dumps({"set": {1, 2}})
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps({"loop": looped})


LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(HOSTILE_STRINGS)
    | st.text(st.sampled_from('"\\\n\t\x00\x1f[]{},: 0-9eé😀\ud800\u2028'), max_size=12)
    | st.text(st.characters(blacklist_categories=()), max_size=12)
)
KEYS = st.sampled_from(HOSTILE_STRINGS) | st.text(st.characters(blacklist_categories=()), max_size=6)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(KEYS, inner, max_size=5)
        | st.lists(st.dictionaries(KEYS, inner, max_size=3), min_size=8, max_size=12)
    ),
    max_leaves=60,
)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_any_value_of_hostile_strings_numbers_and_nesting_is_the_standard_text(value: Any) -> None:
    assert dumps(value) == reference(value)
