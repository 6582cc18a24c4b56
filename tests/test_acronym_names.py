"""plain/undefined-acronym on prose about other subjects: names in capitals, compounds, the advice."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

RULE = "plain/undefined-acronym"


def _found(caption: str, states: dict[str, str] | None = None) -> list[tuple[str, str]]:
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["caption"] = caption
    if states:
        step = data["scenarios"][0]["steps"][0]
        for key, value in states.items():
            data["stateLabels"][key] = key.title()
            data["scenarios"][0]["initial"][key] = "Start"
            for other in data["scenarios"][0]["steps"]:
                other["state"][key] = "Start"
            step["state"][key] = value
    raw = json.dumps(data, indent=2).encode()
    return [(r.pointer, r.message.split('"')[1]) for r in lint_bytes(raw) if r.rule_id == RULE]


@pytest.mark.parametrize(
    "caption",
    [
        "The server waits in LISTEN.",
        "Both sides reach ESTABLISHED, and later CLOSED.",
        "The client moves to SYN_SENT, then to FIN_WAIT_1 and TIME_WAIT.",
        "A node starts as FOLLOWER, becomes CANDIDATE, then LEADER.",
        "The resolver answers NXDOMAIN.",
        "Synchronize (SYN) and acknowledge (ACK) make the SYN-ACK.",
        "The client sends SYN (synchronize), the server sends ACK (acknowledgment), then a SYN-ACK.",
        "The time-to-live (TTL) is short. TTL (time-to-live) again.",
        "The client speaks HTTP/2 over TCP.",
        "The sender MUST NOT send it again, and MAY wait.",
        "The key is found OR the entry is made.",
        "The object turns GRAY, then BLACK; WHITE objects are freed.",
        "The connection is OPEN, then IDLE, then DONE.",
        "The `FOOBAR` field is code.",
        "Request A waits; B goes on.",
        "TCP/IP carries it, and RFC 9293 says how.",
        "The client sends a GET request at 12:00 UTC, then a POST.",
        "The cached value is N/A until the first RPC returns.",
        "After CLOSE-WAIT comes TIME-WAIT.",
        "A Type II error, in Phase III.",
        "SYN stands for synchronize. ACK is short for acknowledgment. The SYN-ACK follows.",
        "The RST, short for reset, ends it.",
        "The ACKs arrive, one for each SYN (synchronize) and ACK (acknowledgment).",
    ],
)
def test_names_and_defined_compounds_are_not_reported(caption: str) -> None:
    assert _found(caption) == []


def test_a_whole_state_value_of_capitals_is_a_state_name() -> None:
    assert _found("The server is in WAKE until the client sends data.", {"server": "WAKE"}) == []


def test_a_hyphenated_state_name_in_a_state_value_is_a_name() -> None:
    assert _found("The client waits in HOLD-DOWN, then closes.", {"client": "HOLD-DOWN"}) == []


def test_a_state_name_must_be_the_whole_value() -> None:
    assert _found("The server is in WAKE.", {"server": "Now WAKE"}) == [("/caption", "WAKE")]


@pytest.mark.parametrize(
    ("caption", "reported"),
    [
        ("The TTFT is short.", ["TTFT"]),
        ("The server sends a SYN-ACK.", ["SYN", "ACK"]),
        ("Synchronize (SYN) starts it; the server sends a SYN-ACK.", ["ACK"]),
        ("The QPS and the QPS again.", ["QPS"]),
        ("The server checks the PSK.", ["PSK"]),
        ("The SYN flag and the SYN again.", ["SYN"]),
        ("The GC pause is short.", ["GC"]),
        ("The CNAME points to the host.", ["CNAME"]),
        ("The TLS-PSK mode is used.", ["PSK"]),
        ("The key is NEAR.", ["NEAR"]),
        ("The PSK (see below) is used.", ["PSK"]),
        ("The PSK (old) is used.", ["PSK"]),
        ("The PSK means that the key is shared.", ["PSK"]),
        ("The MX record is used.", ["MX"]),
        ("The TTFT is short for B.", ["TTFT"]),
        ("After LAST-ACK comes TIME-WAIT.", ["ACK"]),
    ],
)
def test_undefined_acronyms_are_still_reported(caption: str, reported: list[str]) -> None:
    assert [word for _, word in _found(caption)] == reported


def test_the_advice_says_how_to_allow_it() -> None:
    raw = json.loads(CLEAN.read_text(encoding="utf-8"))
    raw["caption"] = "The QPS is low."
    (result,) = [r for r in lint_bytes(json.dumps(raw).encode()) if r.rule_id == RULE]
    assert "allow = [...]" in result.message and "word-lists = [...]" in result.message


def test_a_compound_part_is_narrowed_to_the_part() -> None:
    raw = json.loads(CLEAN.read_text(encoding="utf-8"))
    raw["caption"] = "Synchronize (SYN) starts it; the server sends a SYN-ACK."
    (result,) = [r for r in lint_bytes(json.dumps(raw, indent=2).encode()) if r.rule_id == RULE]
    assert '"ACK" in "SYN-ACK"' in result.message
