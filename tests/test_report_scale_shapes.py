"""Records written from a template for their shape (``report/jsonshape.py``) are the walk's text, byte for byte.

Issue 30, point 6: the JSON reports write each finding (a SARIF result, a JSON
report's result, a GitLab issue) from a function compiled for its shape, and
fall back to the generic walk (:func:`mechlint.report.jsontext.dumps`) for any
record whose shape the function was not made for. These hold the template
path equal to ``inert_json(dumps(value))``, the text the reports wrote before:
a writer compiled from one record, given another (hostile leaves, members
added, removed or reordered, other kinds of values), either refuses or gives
the walk's bytes; whole reports of hostile findings are the plain text in
every JSON format; and a shape no template knows (``fixes``, which SARIF
results may carry) is still written correctly.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mechlint.model import FileReport, Level, LocatedTrace, Notification, Region, Report, Result, RuleInfo
from mechlint.report import OutputOptions
from mechlint.report import gitlab as gitlab_report
from mechlint.report import json as json_report
from mechlint.report import sarif as sarif_report
from mechlint.report.jsonshape import SIGHTINGS, compile_writer
from mechlint.report.jsontext import dumps, dumps_inert
from mechlint.safety.terminal import inert_json

OPTIONS = OutputOptions(root_uri="file:///repo/", tool_version="0", width=100)
HOSTILE = [
    "",
    '"',
    "\\",
    'a "quoted" \\path\\',
    "\x00\x01\x1f\x7f",
    "\b\f\n\r\t",
    "\u009b[2J",
    "\u2028\u2029",
    "\u202e",
    "\ud800",
    "\udcff and \udfff",
    "café, 中文, 😀",
    '},\n{"b": 1}',
    "mechlint:results:0",
    '"mechlint:results:0"',
]
STRINGS = st.sampled_from(HOSTILE) | st.text(st.characters(blacklist_categories=()), max_size=8)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | STRINGS
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=2).map(tuple)
        | st.dictionaries(STRINGS, inner, max_size=4)
    ),
    max_leaves=25,
)
PADS = st.sampled_from(["", "  ", "        "])


def plain(value: Any, pad: str = "") -> str:
    """The text the reports wrote before templates, of ``value`` in an array indented by ``pad``."""
    return inert_json(dumps(value)).replace("\n", "\n" + pad)


def written(writer: Any, value: Any) -> str | None:
    try:
        text: str | None = writer(value)
    except TypeError:  # a string's place holds something else: record_text falls back, as a refusal
        return None
    return text


def _mutated(value: Any, draw: Any) -> Any:
    """``value`` with some leaves replaced, members added, dropped or reordered, lists resized."""
    choice = draw(st.integers(0, 9))
    if type(value) is dict:
        items = [(key, _mutated(item, draw)) for key, item in value.items()]
        if choice == 0 and items:
            items.pop(draw(st.integers(0, len(items) - 1)))
        elif choice == 1:
            items.append((draw(STRINGS), draw(VALUES)))
        elif choice == 2:
            items.reverse()
        elif choice == 3 and items:
            items[-1] = (draw(STRINGS), items[-1][1])
        return dict(items)
    if type(value) in (list, tuple):
        items = [_mutated(item, draw) for item in value]
        if choice == 0:
            items.append(draw(VALUES))
        elif choice == 1 and items:
            items.pop()
        return type(value)(items)
    return draw(LEAVES) if choice < 4 else value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(STRINGS, VALUES, min_size=1, max_size=5), PADS, st.data())
def test_a_writer_gives_the_walks_text_for_its_shape_and_refuses_any_other(
    sample: dict[str, Any], pad: str, data: st.DataObject
) -> None:
    other = _mutated(sample, data.draw)
    writer = compile_writer(sample, pad)
    if writer is None:  # a float somewhere, or nesting deeper than any report's: no template, the walk writes it
        assert "float" in repr(type_tree(sample)) or depth(sample) > 20
        return
    assert written(writer, sample) == plain(sample, pad)
    text = written(writer, other)
    assert text is None or text == plain(other, pad)


def depth(value: Any) -> int:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return 1 + max(map(depth, value), default=0)
    return 0


def type_tree(value: Any) -> Any:
    if isinstance(value, dict):
        return [type_tree(item) for item in value.values()]
    if isinstance(value, list | tuple):
        return [type_tree(item) for item in value]
    return type(value).__name__


def test_a_writer_refuses_a_record_with_a_member_it_does_not_know() -> None:
    record = {"ruleId": "a", "locations": [{"physicalLocation": {"region": {"startLine": 1}}}], "level": "note"}
    writer = compile_writer(record, "      ")
    assert writer is not None
    fixed = {**record, "fixes": [{"description": {"text": "Replace."}, "artifactChanges": []}]}
    assert written(writer, fixed) is None
    renamed = copy.deepcopy(record)
    renamed["locations"][0]["physicalLocation"]["region"] = {"startLine": 1, "endLine": 2}
    assert written(writer, renamed) is None
    reordered = {"level": "note", "ruleId": "a", "locations": record["locations"]}
    assert written(writer, reordered) is None
    assert written(writer, {"ruleId": "a", "locations": record["locations"], "kind": "note"}) is None
    assert written(writer, {**record, "level": True}) is None
    assert written(writer, {**record, "ruleId": None}) is None
    assert written(writer, record) == plain(record, "      ")


def test_values_no_template_writes_are_left_to_the_walk() -> None:
    assert compile_writer({"a": 1.5}, "") is None
    assert compile_writer({1: "a"}, "") is None
    assert compile_writer({"a": [Level.ERROR]}, "") is None  # an IntEnum: a subclass of int
    deep: Any = "x"
    for _ in range(40):
        deep = {"d": deep}
    assert compile_writer(deep, "") is None


def _family(index: int, text: str) -> dict[str, Any]:
    """A SARIF-like result whose optional members depend on ``index``: several shapes in one array."""
    result: dict[str, Any] = {
        "ruleId": text,
        "ruleIndex": index,
        "message": {"text": text + str(index)},
        "locations": [{"physicalLocation": {"region": {"startLine": index, "endColumn": 20}}}],
    }
    if index % 3 == 0:
        result["suppressions"] = [{"kind": "external", "justification": text}]
    if index % 4 == 0:
        result["codeFlows"] = [{"threadFlows": [{"locations": [{"message": {"text": text}}] * (index % 3)}]}]
    if index % 7 == 0:
        result["fixes"] = [{"description": {"text": text}, "artifactChanges": [], "applied": index % 2 == 0}]
    if index % 11 == 0:
        result["score"] = 0.5  # a float: never templated
    return result


@settings(max_examples=25, deadline=None)
@given(st.lists(STRINGS, min_size=1, max_size=4))
def test_an_array_of_records_of_many_shapes_is_the_plain_text(texts: list[str]) -> None:
    records = [_family(index, texts[index % len(texts)]) for index in range(SIGHTINGS * 10)]
    value = {"runs": [{"results": records, "after": [records[:3]]}]}
    assert dumps_inert(value) == plain(value)


def test_more_shapes_than_the_kept_writers_are_written_by_the_walk() -> None:
    """In a process of its own: it fills the writers kept for the whole process."""
    script = """
import sys
from mechlint.report.jsonshape import KEPT, SIGHTINGS, record_text
from mechlint.report.jsontext import dumps, dumps_inert
from mechlint.safety.terminal import inert_json
count = 4 * KEPT * SIGHTINGS
records = [{"k" + str(index % (2 * KEPT)): "\\u202e" * (index % 3), "n": index} for index in range(count)]
assert dumps_inert(records) == inert_json(dumps(records))
late = {"late": 1}
assert all(record_text(late, "  ") is None for _ in range(2 * SIGHTINGS))
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


def hostile_report(texts: list[str], count: int) -> Report:
    results = []
    for index in range(count):
        text = texts[index % len(texts)]
        trace = tuple(
            LocatedTrace(Region(step + 1, 1, step + 1, 2), text + " step", f"/t/{step}") for step in range(index % 3)
        )
        results.append(
            Result(
                path="content/mechanisms/odd \u202e\udcff.json",
                rule_id=("plain/long-sentence", "mechlint:results:0", text or "x")[index % 3],
                level=(Level.ERROR, Level.WARNING, Level.NOTE)[index % 3],
                message=text + f" {index}",
                pointer="" if index % 4 == 0 else f"/steps/{index}/{text}",
                region=Region(index % 9 + 1, 3, index % 9 + 1, 20),
                trace=trace,
                value_hash=f"{index % 5:016x}",
                suppressed=(None, "baseline", text)[index % 3] if index % 2 else None,
                context=text,
            )
        )
    file_report = FileReport(
        "content/mechanisms/odd \u202e\udcff.json",
        "content/mechanisms/odd%20\u202e.json",
        tuple(results),
        fingerprints={line: f"{line:x}:1" for line in range(1, 9, 2)},
    )
    rules = (RuleInfo("plain/long-sentence", Level.WARNING, "Long.", texts[0], "mechlint:results:0", texts[-1]),)
    notices = (Notification(texts[0], "plain/long-sentence", "a\u009bb.json"),)
    return Report(files=(file_report,), files_checked=1, notifications=notices, rules=rules, suppressed=count // 3)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STRINGS, min_size=1, max_size=5))
def test_every_json_format_of_hostile_findings_is_the_plain_text(texts: list[str]) -> None:
    report = hostile_report(texts, 4 * SIGHTINGS)
    for module in (sarif_report, json_report, gitlab_report):
        expected = plain(module.to_data(report, OPTIONS)) + "\n"
        assert module.render(report, OPTIONS) == expected
    assert "".join(sarif_report.render_chunks(report, OPTIONS)) == plain(sarif_report.to_data(report, OPTIONS)) + "\n"


@pytest.mark.parametrize("rule_id", ["mechlint:results", "mechlint:results:0"])
def test_a_sarif_log_whose_rules_hold_the_results_placeholder_is_still_whole(rule_id: str) -> None:
    """The log used to be cut where the first ``"mechlint:results"`` string was, which a rule's id may be."""
    report = hostile_report([rule_id], 3)
    report = Report(files=report.files, files_checked=1, rules=(RuleInfo(rule_id, Level.NOTE, *[rule_id] * 4),))
    text = "".join(sarif_report.render_chunks(report, OPTIONS))
    assert text == plain(sarif_report.to_data(report, OPTIONS)) + "\n"
    assert len(json.loads(text)["runs"][0]["results"]) == 3
