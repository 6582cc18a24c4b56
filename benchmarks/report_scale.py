"""How long each reporter takes for many findings in one file (issue 30: the JUnit report was quadratic).

    python benchmarks/report_scale.py --findings 100000

Builds a report of one file with ``--findings`` results (errors, warnings,
notes and suppressed ones, each with a trace step) and renders it in every
format, printing the seconds each takes: the processor time of this process
(what the work costs, about the same on a busy machine) and the time on the
clock. The figures go in docs/benchmarks.md; the test suite checks the same
reporters for linear work without timing them.
"""

from __future__ import annotations

import argparse
import time

from mechlint.model import FileReport, Level, LocatedTrace, Region, Report, Result
from mechlint.report import REPORTERS, OutputOptions, reporter

LEVELS = (Level.ERROR, Level.WARNING, Level.NOTE)


def one_file_report(count: int) -> Report:
    """A report of one file with ``count`` results, every fifth one suppressed."""
    results = tuple(
        Result(
            path="content/mechanisms/big.json",
            rule_id="plain/long-sentence",
            level=LEVELS[index % 3],
            message=f"finding number {index}",
            pointer=f"/steps/{index}/description",
            region=Region(index + 1, 3, index + 1, 20),
            source_line='    "description": "a long sentence"',
            trace=(LocatedTrace(Region(1, 1, 1, 2), "defined here", "/title"),),
            value_hash=f"{index:016x}",
            suppressed="an old finding" if index % 5 == 4 else None,
            context="/steps",
        )
        for index in range(count)
    )
    uri = "content/mechanisms/big.json"
    return Report(files=(FileReport("content/mechanisms/big.json", uri, results),), files_checked=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=100_000)
    parser.add_argument("--format", action="append", choices=REPORTERS, help="only this format (repeatable)")
    arguments = parser.parse_args()
    report = one_file_report(arguments.findings)
    options = OutputOptions(root_uri="file:///repo/", tool_version="0", width=100)
    print(f"{'format':8} {'cpu':>7}    {'clock':>7}    {'size':>6}")
    for name in arguments.format or REPORTERS:
        started, started_cpu = time.perf_counter(), time.process_time()
        text = reporter(name)(report, options)
        cpu, clock = time.process_time() - started_cpu, time.perf_counter() - started
        print(f"{name:8} {cpu:7.2f} s  {clock:7.2f} s  {len(text) / 1e6:6.1f} MB")


if __name__ == "__main__":
    main()
