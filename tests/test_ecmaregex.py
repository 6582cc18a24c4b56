"""``pattern`` means what JSON Schema means: ECMA-262 (issue 26, point 3).

The JSON-Schema-Test-Suite's pattern cases (``tests/data/json-schema-test-suite/``)
hold the translation, the compiled validator and the plain validator to the
spec; the mechanism schema then refuses a digest followed by a newline, which
the provenance rules would otherwise skip.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mechlint.run.engine import lint_bytes
from mechlint.schema.ecmaregex import UnsupportedPattern, compile_ecma, translate
from mechlint.schema.ecmavalidator import validator_class
from mechlint.schema.fastschema import Unsupported, compile_schema

from .test_corpus import BLOG, CORPUS, GC

SUITE = Path(__file__).parent / "data" / "json-schema-test-suite"
FILES = ("pattern.json", "patternProperties.json", "ecmascript-regex.json")


def suite_cases() -> list[Any]:
    cases = []
    for name in FILES:
        for group in json.loads((SUITE / name).read_text(encoding="utf-8")):
            for case in group["tests"]:
                cases.append(
                    pytest.param(
                        group["schema"],
                        case["data"],
                        case["valid"],
                        id=f"{group['description']}: {case['description']}",
                    )
                )
    return cases


CASES = suite_cases()


def uses_properties(schema: Any) -> bool:
    return "\\p{" in json.dumps(schema).replace("\\\\", "\\")


def test_the_suite_is_there() -> None:
    assert len(CASES) >= 90


@pytest.mark.parametrize(("schema", "data", "valid"), CASES)
def test_the_plain_validator_agrees_with_the_suite(schema: Any, data: Any, valid: bool) -> None:
    assert validator_class()(schema).is_valid(data) is valid


@pytest.mark.parametrize(("schema", "data", "valid"), CASES)
def test_the_compiled_validator_agrees_with_the_suite_or_falls_back(schema: Any, data: Any, valid: bool) -> None:
    if uses_properties(schema):
        with pytest.raises(Unsupported):
            compile_schema(schema)
        return
    assert compile_schema(schema)(data) is valid


@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        ("^abc$", ["abc"], ["abc\n"]),
        ("^[0-9a-f]{64}$", ["a" * 64], ["a" * 64 + "\n"]),
        ("a.c", ["abc"], ["a\rc", "a\u2028c", "a\nc"]),
        ("^[^]$", ["\n"], [""]),
        ("^[]$", [], ["", "a"]),
        ("^\\s$", ["\ufeff", "\u2003", "\u00a0"], ["\x1f", "\x85"]),
        ("^[^\\s]+$", ["\x1f"], ["a\ufeff"]),
        ("\\bcat\\b", ["a cat.", "écat"], ["cats", "concat"]),  # ECMA word characters are ASCII
        ("^\\cJ$", ["\n"], ["cJ"]),
        ("^a{,2}$", [], ["a", "a{,2}"]),  # an error in ECMA with the u flag: see below
        ("^\\u{1F600}$", ["\U0001f600"], ["\\u{1F600}"]),
        ("^(?<x>a)\\k<x>$", ["aa"], ["ab"]),
        ("^[&&~~]+$", ["&~"], ["a"]),
    ],
)
def test_the_translation_keeps_ecma_meanings(pattern: str, matches: list[str], misses: list[str]) -> None:
    try:
        compiled = compile_ecma(pattern)
    except UnsupportedPattern:
        assert pattern == "^a{,2}$"  # a lone "{" is a syntax error with the u flag
        return
    assert [text for text in matches if compiled.search(text)] == matches
    assert [text for text in misses if compiled.search(text)] == []


@pytest.mark.parametrize("pattern", ["\\p{Letter}", "\\p{Script=Greek}", "(?P<a>x)", "\\a", "[a", "x\\"])
def test_a_construct_outside_the_translation_is_unsupported_never_a_crash(pattern: str) -> None:
    with pytest.raises(UnsupportedPattern):
        translate(pattern)
    with pytest.raises(Unsupported):
        compile_schema({"type": "string", "pattern": pattern})


def test_a_property_the_fallback_cannot_translate_is_an_error_of_the_value() -> None:
    errors = [e.message for e in validator_class()({"pattern": "\\p{Script=Greek}"}).iter_errors("a")]
    assert len(errors) == 1
    assert errors[0].startswith("the schema's pattern cannot be checked: the Unicode property 'Script'")


def test_the_translation_is_a_python_pattern_without_warnings() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        identifier = re.compile(translate("^[a-z][a-z0-9_-]*$"))
        operators = re.compile(translate("[[&|~]"))
    assert identifier.search("a0") and not identifier.search("a0\n")  # ECMA's $ is the end of the string
    assert [operators.search(each) is not None for each in "[&|~a"] == [True, True, True, True, False]


def mechanism() -> Any:
    return json.loads((CORPUS / BLOG / GC).read_text(encoding="utf-8"))


def test_a_digest_followed_by_a_newline_breaks_the_schema() -> None:
    doc = mechanism()
    doc["sources"][0]["sha256"] += "\n"
    found = [(r.rule_id, r.pointer) for r in lint_bytes(json.dumps(doc, indent=2).encode())]
    assert ("schema/violation", "/sources/0/sha256") in found


@pytest.mark.parametrize("key", ["a\n", "store0\n"])
def test_a_key_followed_by_a_newline_breaks_the_schema(key: str) -> None:
    doc = mechanism()
    doc["targets"][key] = doc["targets"].pop("a")
    found = [(r.rule_id, r.pointer) for r in lint_bytes(json.dumps(doc, indent=2).encode())]
    assert ("schema/violation", f"/targets/{key}") in found
