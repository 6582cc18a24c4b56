"""Issue 30, point 6, in the code that builds a report: a baseline is applied in linear time.

Findings alike but for their pointer (one rule, one context, one value: a
generated file with the same text in every step) share a baseline key. When
an edit above them moves every pointer, each finding takes the first recorded
pointer some finding can still take; looking for it from the start of the list
each time made this quadratic (10,000 findings: over a second; 100,000: minutes).
Not timed: the recorded pointers visited are counted.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import mechlint.run.adoption
from mechlint.model import FileReport
from mechlint.run.adoption import Baseline, apply_baseline, baseline_key

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from report_scale import one_file_report


class CountedPointers(Counter[str]):
    """The recorded pointers of one key, counting each entry read."""

    visits = 0

    def __iter__(self) -> Any:
        for pointer in super().__iter__():
            CountedPointers.visits += 1
            yield pointer

    def items(self) -> Any:
        for item in super().items():
            CountedPointers.visits += 1
            yield item

    def __getitem__(self, pointer: str) -> int:
        CountedPointers.visits += 1
        return super().__getitem__(pointer)


def alike_findings(count: int) -> FileReport:
    report = one_file_report(count)
    results = tuple(r._replace(suppressed=None, context="/steps", value_hash="same") for r in report.files[0].results)
    return report.files[0]._replace(results=results)


def moved_baseline(file_report: FileReport, entries: int) -> Baseline:
    """A baseline of the first ``entries`` findings, recorded when each was one element further down."""
    baseline = Baseline()
    for result in file_report.results[:entries]:
        baseline.add(baseline_key(file_report.uri, result), "/moved" + result.pointer)
    return baseline


def visits(count: int, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(mechlint.run.adoption, "Counter", CountedPointers)
    file_report = alike_findings(count)
    CountedPointers.visits = 0
    out = apply_baseline([file_report], moved_baseline(file_report, count), "b.json")
    assert all(r.suppressed == "recorded in the baseline b.json" for r in out[0].results)
    return CountedPointers.visits


def test_findings_whose_pointers_all_moved_read_each_recorded_pointer_a_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small, large = visits(1000, monkeypatch), visits(2000, monkeypatch)
    assert large <= 2.5 * small, (small, large)
    assert large <= 10 * 2000, large


def test_more_findings_than_entries_hide_the_first_ones_and_show_the_rest() -> None:
    """What the linear search gives is what the old one gave: the findings in order take the entries left."""
    file_report = alike_findings(3000)
    baseline = moved_baseline(file_report, 1000)
    (out,) = apply_baseline([file_report], baseline, "b.json")
    hidden = [index for index, result in enumerate(out.results) if result.suppressed is not None]
    assert hidden == list(range(1000))


def test_a_finding_at_its_recorded_pointer_keeps_it_and_the_moved_ones_share_the_rest() -> None:
    file_report = alike_findings(6)
    baseline = Baseline()
    key = baseline_key(file_report.uri, file_report.results[0])
    baseline.add(key, file_report.results[4].pointer)  # still where it was
    baseline.add(key, "/gone/1", 2)
    (out,) = apply_baseline([file_report], baseline, "b.json")
    assert [r.suppressed is not None for r in out.results] == [True, True, False, False, True, False]
