"""Functions return their results instead of filling in an argument the caller passed (issue 16, point 4)."""

from __future__ import annotations

from collections import Counter

from mechlint.config.suppressions import Suppression
from mechlint.document import load
from mechlint.model import Level, Region, Result
from mechlint.run.adoption import apply_suppressions


def _result(rule_id: str, pointer: str = "/title") -> Result:
    return Result("m/a.json", rule_id, Level.ERROR, "message", pointer, Region(1, 1, 1, 2))


def test_apply_suppressions_returns_the_marked_results_and_what_each_suppression_matched() -> None:
    suppressions = (
        Suppression("**/a.json", "reference", None, "kept for now"),
        Suppression("**", "ALL", "/alt", "alt text is reviewed elsewhere"),
        Suppression("other/**", "ALL", None, "never matches"),
    )
    results = [_result("reference/unknown-target"), _result("a11y/alt-length", "/alt"), _result("a11y/alt-length")]
    applied = apply_suppressions(results, "m/a.json", suppressions)
    assert [r.suppressed for r in applied.results] == ["kept for now", "alt text is reviewed elsewhere", None]
    assert applied.used == Counter({0: 1, 1: 1})
    assert [r.suppressed for r in results] == [None, None, None], "the given results are left as they were"


def test_apply_suppressions_counts_each_matching_result_once_for_the_first_suppression_that_matches() -> None:
    suppressions = (Suppression("**", "reference", None, "first"), Suppression("**", "ALL", None, "second"))
    applied = apply_suppressions([_result("reference/x"), _result("reference/y")], "a.json", suppressions)
    assert applied.used == Counter({0: 2})
    assert apply_suppressions([], "a.json", suppressions).used == Counter()


def test_loading_keeps_each_encoding_problem_as_a_finding_of_the_new_document() -> None:
    utf16 = load("a.json", '{"version": 1}'.encode("utf-16-le"))
    assert (utf16.text, utf16.parsed, [f.rule_id for f in utf16.load_findings]) == ("", False, ["schema/invalid-json"])
    broken = load("b.json", b'{"title": "caf\xe9"}')
    assert broken.text == '{"title": "caf\ufffd"}' and not broken.parsed
    assert [f.offset for f in broken.load_findings] == [(14, 15)]
    bom = load("c.json", b'\xef\xbb\xbf{"version": 1}')
    assert bom.parsed and bom.text.startswith("\ufeff") and len(bom.load_findings) == 1
    assert load("d.json", b'{"version": 1}').load_findings == []
