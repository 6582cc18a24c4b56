"""The CI path (issue 19): faster ways of computing what a SARIF run needs, each held equal to the plain one."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mechlint.report.fingerprint import fingerprints_of_lines, line_fingerprints

from .conftest import FIXTURES

# Text made of what changes the line hash: spaces, tabs, every line end, astral characters, repeated lines.
_PIECES = st.sampled_from([" ", "\t", "\n", "\r", "\r\n", "a", "b", '"key": 1,', "\U0001f600", "é", "\uffff", "x" * 60])
_TEXT = st.lists(_PIECES, max_size=400).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT, st.lists(st.integers(min_value=-2, max_value=40), max_size=8))
@example("\U0001f600\n\n", [1, 2, 3])
@example("a\r\r\n \r\t\nb", [2, 3, 4, 5])
def test_fingerprints_of_some_lines_agree_with_every_line(text: str, lines: list[int]) -> None:
    every = line_fingerprints(text)
    assert fingerprints_of_lines(text, lines) == {line: every[line] for line in lines if line in every}


def test_fingerprints_of_some_lines_agree_on_real_files() -> None:
    for path in (FIXTURES / "rules").rglob("*.json"):
        text = path.read_bytes().decode("utf-8", "replace")
        every = line_fingerprints(text)
        lines = [1, len(every) // 3, len(every) // 2, len(every)]
        assert fingerprints_of_lines(text, lines) == {line: every[line] for line in lines if line in every}, path
