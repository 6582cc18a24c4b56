"""An atheris harness for long fuzzing runs: any bytes, every rule, every report.

    pip install atheris
    python fuzz/fuzz_lint.py -max_total_time=3600 fuzz/corpus

A crash (any exception) or a ``mechlint/internal-error`` finding is a bug.
The corpus can start from ``fixtures/rules/**/*.json``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from mechlint import lint
    from mechlint.config import Config
    from mechlint.report import OutputOptions, reporter

FOLDER = Path(tempfile.mkdtemp(prefix="mechlint-fuzz-"))
TARGET = FOLDER / "mechanisms" / "fuzz.json"
TARGET.parent.mkdir()
OPTIONS = OutputOptions(root_uri=FOLDER.as_uri() + "/", tool_version="fuzz")


def test_one_input(data: bytes) -> None:
    TARGET.write_bytes(data)
    report = lint([TARGET], Config(root=FOLDER), root=FOLDER, fingerprints=True)
    crashed = [r for r in report.results if r.rule_id == "mechlint/internal-error"]
    if crashed or report.notifications:
        raise RuntimeError(f"a rule crashed: {crashed or report.notifications}")
    for name in ("text", "json", "github", "sarif"):
        reporter(name)(report, OPTIONS).encode("utf-8", "backslashreplace")


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
