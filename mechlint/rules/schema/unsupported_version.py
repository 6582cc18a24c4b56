"""Reports a ``version`` that this release of mechlint does not know.

Only version ``1`` of the mechanism format is defined. A file that declares
another whole number is not checked further, because the other rules would
judge it by the wrong format. A ``version`` that is missing or not a whole
number is a ``schema/violation`` instead. A whole number is what JSON Schema
says it is: ``1.0`` is the integer 1 (version 1, accepted), and an integer
of any length is an integer (``2`` followed by 5,000 zeros is an unknown
version, not a number "too large to represent").
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import as_object, quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta

SUPPORTED_VERSIONS = (1,)

META = RuleMeta(
    id="schema/unsupported-version",
    level=Level.ERROR,
    summary="`version` is not a version of the format that mechlint knows.",
    why=(
        "A newer format may change what fields mean; checking it against version 1 would "
        "produce findings that are wrong, so mechlint says so and stops."
    ),
    location="`/version`",
    stage="version",
    examples=(
        Example(fires=True, where="/version", json="2"),
        Example(fires=False, where="/version", json="1"),
    ),
)


def unsupported(data: object) -> bool:
    """Whether the document declares a whole-number version that is not known."""
    root = as_object(data)
    if root is None:
        return False
    version = root.get("version")
    if isinstance(version, float) and version.is_integer():
        version = int(version)
    if isinstance(version, bool) or not isinstance(version, int):
        return False
    return version not in SUPPORTED_VERSIONS


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    if unsupported(document.data):
        version = document.data["version"]
        known = ", ".join(str(v) for v in SUPPORTED_VERSIONS)
        yield META.finding(
            "/version",
            f"version {quote(version)} is not a mechanism format this mechlint knows (known: {known}); "
            "upgrade mechlint or set the version the file was written for",
        )
