"""Numbers mean what JSON Schema means (issue 26, point 3).

An integer longer than Python's 4,300-digit conversion limit is still an
integer, and ``1.0`` is the integer 1: ``version: 1.0`` is version 1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint.document.jsonscan import digit_count, parse_int
from mechlint.document.views import quote
from mechlint.run.engine import lint_bytes

from .test_corpus import BLOG, CORPUS, GC


def text_with(value: str, pointer_text: str = '"version": 1') -> bytes:
    original = (CORPUS / BLOG / GC).read_text(encoding="utf-8")
    assert original.count(pointer_text) == 1
    return original.replace(pointer_text, pointer_text.rsplit(" ", 1)[0] + " " + value).encode()


def found(data: bytes) -> list[tuple[str, str, str]]:
    return [(r.rule_id, r.pointer, r.message) for r in lint_bytes(data)]


@pytest.mark.parametrize("digits", [4301, 5000, 20000])
def test_an_integer_of_any_length_is_read_as_one(digits: int) -> None:
    number = parse_int("2" + "0" * (digits - 1))
    assert isinstance(number, int)
    assert digit_count(number) == digits
    assert number % 10**100 == 0 and number // 10 ** (digits - 1) == 2
    assert parse_int("-" + "9" * digits) == -(10**digits - 1)


def test_a_long_version_is_an_unknown_version_not_a_number_too_large() -> None:
    [(rule, pointer, message)] = found(text_with("2" + "0" * 5000))
    assert (rule, pointer) == ("schema/unsupported-version", "/version")
    assert "a 5001-digit number" in message
    assert "too large to represent" not in message


def test_a_long_duration_is_an_integer_and_crashes_no_rule() -> None:
    original = json.loads((CORPUS / BLOG / GC).read_text(encoding="utf-8"))
    duration = original["scenarios"][0]["steps"][0]["duration"]
    data = text_with("1" + "0" * 6000, f'"duration": {duration}')
    assert found(data) == []


@pytest.mark.parametrize(("version", "expected"), [("1.0", []), ("1e0", []), ("10e-1", [])])
def test_a_whole_number_written_with_a_fraction_is_the_integer(version: str, expected: list[Any]) -> None:
    """The choice for ``version``: JSON Schema's integer, so ``1.0`` is version 1 (a regression guard)."""
    assert found(text_with(version)) == expected


@pytest.mark.parametrize("version", ["1.5", "2.0"])
def test_a_fraction_or_another_whole_number_is_still_reported(version: str) -> None:
    rules = [rule for rule, _, _ in found(text_with(version))]
    assert rules == (["schema/violation"] if version == "1.5" else ["schema/unsupported-version"])


def test_a_huge_integer_is_quoted_by_its_length() -> None:
    assert quote(10**5000) == "a 5001-digit number"
    assert quote(10**70) == "a 71-digit number"
    assert quote(12) == "12"


def test_a_finding_on_a_huge_integer_gets_a_stable_fingerprint() -> None:
    """Baselines hash the value at a finding's pointer; an integer past 4,300 digits has no decimal text."""
    from mechlint.run.adoption import value_hash

    data = {"version": 10**5000}
    first = value_hash(data, "/version", "")
    assert first == value_hash({"version": 10**5000}, "/version", "")
    assert first != value_hash({"version": 10**5000 + 1}, "/version", "")


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("-1" + "0" * 5000, "got a 5001-digit number"),
        ("1" + "0" * 5000, None),
    ],
)
def test_a_long_integer_that_breaks_a_bound_is_described_not_a_crash(value: str, says: str | None) -> None:
    original = json.loads((CORPUS / BLOG / GC).read_text(encoding="utf-8"))
    duration = original["scenarios"][0]["steps"][0]["duration"]
    results = found(text_with(value, f'"duration": {duration}'))
    assert [rule for rule, _, _ in results] == (["schema/violation"] if says else [])
    if says:
        assert results[0][1] == "/scenarios/0/steps/0/duration"
        assert results[0][2].endswith(says)


def test_a_long_integer_where_a_string_belongs_is_described() -> None:
    original = (CORPUS / BLOG / GC).read_text(encoding="utf-8")
    title = '"title": "Mark and sweep frees what the program cannot reach"'
    assert original.count(title) == 1
    [(rule, pointer, message)] = found(original.replace(title, '"title": ' + "9" * 6000).encode())
    assert (rule, pointer) == ("schema/violation", "/title")
    assert "6000-digit number" in message
