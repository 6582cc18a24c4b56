"""One invariant of a rule file, as loaded: what the loader makes and the wording of its messages reads.

Its own module so that :mod:`mechlint.invariants.wording` (which words a verdict) and
:mod:`mechlint.invariants.loader` (which makes invariants and imports the wording) do not import each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from mechlint.invariants.formula import Node
from mechlint.model import Level
from mechlint.records import Record
from mechlint.rules import Example

__all__ = ["Invariant"]


class Invariant(Record):
    name: str
    level: Level
    summary: str
    help: str
    formula_text: str
    formula: Node
    applies_text: str
    applies: Node | None
    says: Mapping[str, str]
    #: A sentence that makes each definition hold, for messages (``example`` of a definition).
    wordings: Mapping[str, str]
    definitions: Mapping[str, str]
    examples: tuple[Example, ...]
    source: Path

    @property
    def rule_id(self) -> str:
        return f"invariant/{self.name}"
