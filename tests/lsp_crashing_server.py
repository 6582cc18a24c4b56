"""``mechlint server`` with one rule made to crash on a title containing "CRASH" (for tests/test_lsp.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from mechlint.document import Document
from mechlint.model import Finding
from mechlint.rules import RuleContext
from mechlint.rules.reference import id_mismatch

original = id_mismatch.check


def crashing(document: Document, context: RuleContext) -> Iterator[Finding]:
    if isinstance(document.data, dict) and "CRASH" in str(document.data.get("title")):
        raise RuntimeError("a test rule crashed")
    return original(document, context)


id_mismatch.check = crashing  # type: ignore[assignment]  # before the registry is built

if __name__ == "__main__":
    from mechlint.cli import main

    sys.exit(main(["server", *sys.argv[1:]]))
