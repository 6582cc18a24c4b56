"""Issue 30, point 6: every reporter does linear work in the findings of one file.

Not timed (the project has no timed tests; ``benchmarks/report_scale.py``
measures the seconds): each finding's message counts how often it is compared
with another, which a membership test over a list (``r not in problems``, the
JUnit report's quadratic step) does for every pair of findings.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mechlint.model import FileReport, Level, LocatedTrace, Region, Report, Result
from mechlint.report import REPORTERS, OutputOptions, reporter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from report_scale import one_file_report

OPTIONS = OutputOptions(root_uri="file:///repo/", tool_version="0", width=100)


class CountedMessage(str):
    """A message that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        CountedMessage.compared += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        CountedMessage.compared += 1
        return str.__ne__(self, other)

    __hash__ = str.__hash__


def counted_report(count: int) -> Report:
    """One file with ``count`` findings of every level, some suppressed, alike but for their message."""
    levels = (Level.ERROR, Level.WARNING, Level.NOTE)
    path, rule, region = "content/mechanisms/big.json", "plain/long-sentence", Region(3, 3, 3, 20)
    results = tuple(
        Result(
            path=path,
            rule_id=rule,
            level=levels[index % 3],
            message=CountedMessage(f"finding {index}"),
            pointer="/title",
            region=region,
            trace=(LocatedTrace(region, "here", "/title"),),
            suppressed="old" if index % 5 == 4 else None,
        )
        for index in range(count)
    )
    return Report(files=(FileReport(path, path, results),), files_checked=1)


def comparisons(name: str, count: int) -> int:
    report = counted_report(count)
    CountedMessage.compared = 0
    text = reporter(name)(report, OPTIONS)
    assert f"finding {count - 2}" in text
    return CountedMessage.compared


@pytest.mark.parametrize("name", REPORTERS)
def test_no_reporter_compares_findings_pairwise(name: str) -> None:
    """Twice the findings, at most about twice the comparisons (sorting's n log n is fine; pairs are four times)."""
    small, large = comparisons(name, 1000), comparisons(name, 2000)
    assert large <= 2.5 * small + 2000, (small, large)


def test_the_junit_report_of_100000_findings_in_one_file_lists_each_once() -> None:
    """The issue's size (18 s for 40,000 before): every finding is one line, problems in the failure, the rest
    in ``<system-out>``. benchmarks/report_scale.py times every format at this size."""
    count = 100_000
    report = one_file_report(count)
    text = reporter("junit")(report, OPTIONS)
    failure, _, rest = text.partition("</failure>")
    problems = sum(1 for r in report.files[0].results if r.suppressed is None and r.level >= Level.WARNING)
    assert failure.count("big.json:") == problems
    assert rest.count("big.json:") == count - problems
    assert 'message="26667 errors and 26666 warnings"' in failure
