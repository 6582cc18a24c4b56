"""Provenance rules: each source's pinned bytes against the working tree and git history.

All eight rules share one classification per document (see
:mod:`mechlint.provenance.resolve`); each rule reports the outcomes of its id.
A document that did not come from a file on disk has no repository, so these
rules say nothing about it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.model import Finding
from mechlint.placeholder import placeholder_sources
from mechlint.rules import Example, RuleContext, RuleMeta

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Outcome
    from mechlint.services import RunServices

#: The repository the documented examples run in (built by the test suite).
EXAMPLE_REPOSITORY = (
    'in a repository where content/post.md was committed as "v1", then as "v2", '
    "and content/old.svg was committed, then deleted"
)
SHALLOW_CLONE = "in a depth-1 clone of that repository"
POST_V1 = "2d27fbdf4e8ca207afbfa388ca9172fbcc6c70e534af2476b3b704f87debadcf"
POST_V2 = "81db67b6a5702b9b68f0016f061c409bf3fb16d062fc854d1b424bb4e9c28c56"
OLD_SVG = "b35b8d1299ee809fbfa84a692b321e6613f51df30ff1b133f359e24717b2a050"


def source_example(path: str, digest: str | None = None) -> str:
    """The JSON of a ``sources`` array with one source, for documentation examples."""
    pinned = f', "sha256": "{digest}"' if digest else ""
    return f'[{{"path": "{path}"{pinned}, "description": "The article."}}]'


#: The passing example most provenance rules share: the post as it is now.
CURRENT_POST = Example(
    fires=False, where="/sources", json=source_example("content/post.md", POST_V2), note=EXAMPLE_REPOSITORY
)


def report(meta: RuleMeta, document: Document, context: RuleContext) -> Iterator[Finding]:
    services = context.services
    location = document.location
    if services is None or location is None:
        return
    outcomes = document.derived(_outcomes, services, location)
    unwritten = placeholder_sources(document.data)  # schema/placeholder asks for the path first
    for outcome in outcomes:
        if outcome.rule == meta.id and not _of_sources(outcome.pointer, unwritten):
            yield meta.finding(outcome.pointer, outcome.message, level=outcome.level)


def _of_sources(pointer: str, indices: frozenset[int]) -> bool:
    """Whether ``pointer`` is one of the sources at ``indices``, or inside one."""
    if not indices or not pointer.startswith("/sources/"):
        return False
    index = pointer.split("/")[2]
    return index.isdigit() and int(index) in indices


def _outcomes(document: Document, services: RunServices, location: Path) -> list[Outcome]:
    """What the classifier says about every source of the document; asked once, shared by the eight rules."""
    return services.provenance().outcomes(document.data, location)
