"""plain/term-consistency: one odd spelling is one finding, at the odd use, quoting the file's own text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint.model import Result
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

RULE = "plain/term-consistency"


def _lint(descriptions: list[str]) -> tuple[list[Result], list[str]]:
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    for step, text in zip(data["scenarios"][0]["steps"], descriptions, strict=False):
        step["description"] = text
    raw = json.dumps(data, indent=2)
    return [r for r in lint_bytes(raw.encode(), "m.json") if r.rule_id == RULE], raw.splitlines()


def _quoted(result: Result, lines: list[str]) -> str:
    region = result.region
    assert region.start_line == region.end_line
    return lines[region.start_line - 1][region.start_column - 1 : region.end_column - 1]


@pytest.mark.parametrize(
    ("descriptions", "odd_step", "odd", "usual"),
    [
        (
            [
                "Client Hello starts the handshake.",
                "The server reads the ClientHello.",
                "ClientHello names the cipher suites.",
                "The server answers the ClientHello.",
            ],
            0,
            "Client Hello",
            "ClientHello",
        ),
        (
            [
                "The ClientHello starts the handshake.",
                "The server reads the Client Hello message.",
                "ClientHello names the cipher suites.",
                "The server answers the ClientHello message.",
            ],
            1,
            "Client Hello",
            "ClientHello",
        ),
        (
            ["The SYN-ACK comes back.", "The client sees the SYN-ACK.", "Then the SYNACK is acknowledged."],
            2,
            "SYNACK",
            "SYN-ACK",
        ),
        (
            ["Each log entry has a term.", "Log-entry three is new.", "The leader sends one log entry."],
            1,
            "Log-entry",
            "log entry",
        ),
    ],
)
def test_one_odd_spelling_is_one_finding_at_it(descriptions: list[str], odd_step: int, odd: str, usual: str) -> None:
    results, lines = _lint(descriptions)
    assert [r.pointer for r in results] == [f"/scenarios/0/steps/{odd_step}/description"]
    assert _quoted(results[0], lines) == odd
    assert results[0].message.startswith(f'"{odd}" is a variant of "{usual}"')


def test_an_odd_spelling_used_twice_is_still_one_finding() -> None:
    results, _ = _lint(["The B-tree splits.", "The Btree grows.", "The B-tree is full.", "The Btree.", "A B-tree."])
    assert len(results) == 1
    assert results[0].pointer == "/scenarios/0/steps/1/description"
    assert '"Btree" (2 times in this file, first here) is a variant of "B-tree"' in results[0].message


def test_on_a_tie_the_spelling_written_later_is_reported() -> None:
    results, _ = _lint(["The B-tree splits.", "The Btree grows."])
    assert [r.pointer for r in results] == ["/scenarios/0/steps/1/description"]
    assert "as often" in results[0].message


def test_each_of_two_odd_spellings_is_one_finding() -> None:
    results, _ = _lint(["The GC runs.", "The G.C. pauses.", "The GC ends.", "The G-C stops.", "The GC ran."])
    assert sorted(r.pointer for r in results) == [
        "/scenarios/0/steps/1/description",
        "/scenarios/0/steps/3/description",
    ]
