"""Loading: strict JSON, exact positions, never an exception."""

from __future__ import annotations

import codecs
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mechlint import document as document_module
from mechlint.document import load
from mechlint.document.jsonscan import ScanResult, locate, scan
from mechlint.model import Finding


def _only(raw: bytes) -> tuple[str, int, int]:
    document = load("x.json", raw)
    assert len(document.load_findings) == 1, document.load_findings
    finding = document.load_findings[0]
    region = document.region(finding)
    return finding.rule_id, region.start_line, region.start_column


@pytest.mark.parametrize(
    ("raw", "line", "column"),
    [
        (b"", 1, 1),
        (b"   \n  ", 2, 3),
        (b'{"a": 1,}', 1, 8),  # at the trailing comma, as VS Code's JSON service does
        (b'{\n  "a": [1, 2,]\n}', 2, 13),
        (b'{\n  "a": NaN\n}', 2, 8),
        (b'{"a": -Infinity}', 1, 7),
        (b"{'a': 1}", 1, 2),
        (b'{"a": 1} x', 1, 10),
        (b'{"a": "\xc3\xa9\xff"}', 1, 9),
        (b'{"a": "caf\xc3\xa9" "b"}', 1, 14),
        (b'{"a" 1}', 1, 6),
        (b'{"a": 01}', 1, 8),
        (b'{"a": "x\ny"}', 1, 9),
        (b'{"a": [', 1, 8),
        (b"[" * 5000 + b"]" * 5000, 1, 501),
        (codecs.BOM_UTF16_LE + '{"a": 1}'.encode("utf-16-le"), 1, 1),
        ('{"a": 1}'.encode("utf-16-be"), 1, 1),
        ('{"a": 1}'.encode("utf-32-le"), 1, 1),
    ],
)
def test_invalid_json_is_placed_exactly(raw: bytes, line: int, column: int) -> None:
    assert _only(raw) == ("schema/invalid-json", line, column)


def test_deep_nesting_of_objects_does_not_crash() -> None:
    raw = b'{"a":' * 200_000 + b"1" + b"}" * 200_000
    assert _only(raw)[0] == "schema/invalid-json"


def test_duplicate_keys_point_at_each_repetition() -> None:
    document = load("x.json", b'{\n "a": 1,\n "b": {"c": 1, "c": 2, "c": 3},\n "a": 2\n}')
    places = sorted(
        (f.pointer, document.region(f).start_line, document.region(f).start_column) for f in document.load_findings
    )
    assert places == [("/a", 4, 2), ("/b/c", 3, 16), ("/b/c", 3, 24)]
    assert document.data == {"a": 2, "b": {"c": 3}}


def test_bom_is_reported_but_the_rest_is_checked() -> None:
    document = load("x.json", codecs.BOM_UTF8 + b'{"version": 1}')
    assert [f.rule_id for f in document.load_findings] == ["schema/invalid-json"]
    assert document.data == {"version": 1}


def test_huge_integer_is_kept_as_an_integer() -> None:
    """Issue 26: an integer past Python's 4,300-digit limit is still an integer (it was a float, infinity)."""
    document = load("x.json", b'{"a": ' + b"9" * 5000 + b"}")
    assert document.load_findings == []
    assert isinstance(document.data["a"], int)
    assert document.data["a"] == 10**5000 - 1


@pytest.mark.parametrize(
    ("text", "span", "expected"),
    [
        ('{"a": "hello world"}', (6, 11), (1, 14, 1, 19)),
        ('{"a": "\\u00e9t\\u00e9 x"}', (4, 5), (1, 22, 1, 23)),
        ('{"a": "\\ud83d\\ude00 x"}', (2, 3), (1, 21, 1, 22)),
        ('{"a": "tab\\there"}', (4, 8), (1, 13, 1, 17)),
    ],
)
def test_span_inside_a_string_accounts_for_escapes(
    text: str, span: tuple[int, int], expected: tuple[int, int, int, int]
) -> None:
    document = load("x.json", text.encode())
    region = document.region(Finding("x/y", "m", pointer="/a", span=span))
    assert (region.start_line, region.start_column, region.end_line, region.end_column) == expected


def test_columns_count_code_points() -> None:
    document = load("x.json", '{"é😀": 1, "b": 2}'.encode())
    region = document.region(Finding("x/y", "m", pointer="/b"))
    assert (region.start_line, region.start_column) == (1, 16)


def test_pointer_to_a_missing_member_falls_back_to_its_parent() -> None:
    document = load("x.json", b'{\n  "a": {\n    "b": 1\n  }\n}')
    region = document.region(Finding("x/y", "m", pointer="/a/zzz"))
    assert (region.start_line, region.start_column) == (2, 8)


# --- placing findings without scanning the whole file ------------------------

_json_values = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5)
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=3), inner, max_size=4)),
    max_leaves=20,
)


def _pointers(result: ScanResult) -> list[str]:
    return sorted({*result.values, *result.keys, "/missing", "/0/missing/deeper"})


def _texts(value: object) -> st.SearchStrategy[str]:
    """The value written compactly, indented, with escapes, with a BOM, or with one member repeated."""
    plain = json.dumps(value)
    variants = [plain, json.dumps(value, indent=2, ensure_ascii=False), "\ufeff" + plain]
    if plain.startswith("{") and plain != "{}":
        variants.append('{"dup": [1, {"x": 2}], ' + plain[1:-1] + ', "dup": {"x": "a\\"b"}}')
    return st.sampled_from(variants)


@settings(max_examples=300, deadline=None)
@given(_json_values.flatmap(_texts))
def test_locate_gives_the_full_scanner_spans_for_every_pointer_it_was_asked(text: str) -> None:
    full = scan(text)
    pointers = _pointers(full)
    for wanted in (pointers, pointers[::3], pointers[-1:]):
        partial = locate(text, wanted)
        assert partial is not None
        for pointer in wanted:
            for scanned, located in ((full.values, partial.values), (full.keys, partial.keys)):
                assert located.get(pointer) == scanned.get(pointer), (pointer, text)


@pytest.mark.parametrize(
    "text",
    ['{"a": "caf\\u00e9 \\n x", "b": "plain text"}', '{\n  "a": "tab\\there",\n  "b": "B’s “quoted” text"\n}'],
)
def test_prepared_regions_equal_regions_from_the_full_scan(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    findings = [
        Finding("x/y", "m", pointer=pointer, span=span)
        for pointer in ("/a", "/b", "/c", "")
        for span in (None, (0, 1), (2, 6), (5, 100), (-3, 2))
    ] + [Finding("x/y", "m", pointer="/b", on_key=True)]
    full = load("x.json", text.encode())
    expected = [full.region(f) for f in findings]
    prepared = load("x.json", text.encode())
    scans: list[str] = []
    monkeypatch.setattr(document_module, "scan", lambda *args, **kwargs: scans.append("full") or scan(*args, **kwargs))
    prepared.prepare(f.pointer for f in findings)
    assert [prepared.region(f) for f in findings] == expected
    assert scans == []  # nothing needed the full scan


def test_locate_refuses_pointers_deeper_than_it_walks() -> None:
    text = "[" * 100 + "]" * 100
    assert locate(text, ["/0" * 70]) is None
