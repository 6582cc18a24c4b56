"""The edges of the ``plain/`` rules that ``scripts/mutate.py`` found unchecked (issue 32).

Each test is named after the rule module it is about (``undefined_acronym``),
so that the mutation run, which first runs the tests named after a rule, picks
it. A rule that crashes reports nothing of its own, so each test that expects
no finding also expects no ``mechlint/internal-error``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mechlint.config import Config
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

ACRONYM = "plain/undefined-acronym"
CRASH = "mechlint/internal-error"


def _found(caption: str, state: str | None = None) -> list[tuple[str, str, str]]:
    """The acronym findings and crashes for ``caption``, with ``state`` the whole value of a state in one step."""
    data: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
    data["caption"] = caption
    if state is not None:
        data["stateLabels"]["link"] = "Link"
        data["scenarios"][0]["initial"]["link"] = "Start"
        for step in data["scenarios"][0]["steps"]:
            step["state"]["link"] = "Start"
        data["scenarios"][0]["steps"][0]["state"]["link"] = state
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.rule_id, r.pointer, r.message.split('"')[1])
        for r in lint_bytes(raw, config=Config())
        if r.rule_id in (ACRONYM, CRASH)
    ]


@pytest.mark.parametrize(("state", "without"), [("WAKE", ["WAKE"]), (" WAKE ", ["WAKE"]), ("HOLD-DOWN", ["HOLD"])])
def test_undefined_acronym_a_state_value_of_four_capitals_names_a_state(state: str, without: list[str]) -> None:
    """The whole value (white space around it allowed) is the state's name: the caption may use it; without the
    state, the same caption is reported."""
    caption = f"The server is in {state.strip()}."
    assert _found(caption, state) == []
    assert _found(caption) == [(ACRONYM, "/caption", word) for word in without]


def test_undefined_acronym_a_state_value_of_three_capitals_is_still_an_acronym() -> None:
    """``SYN-2`` has three capitals: as a state value it is no name, so ``SYN`` in it needs a definition."""
    assert _found("The client waits in SYN-2.", "SYN-2") == [(ACRONYM, "/caption", "SYN")]
