"""Reports a source path that must not be read, and reads nothing.

Refused before the disk is touched: an empty path, an absolute path, a ``.``,
``..``, empty or ``.git`` component (in any case), a backslash, a leading
``-``, control or invisible characters (including NUL, newlines and
bidirectional overrides), and a lone surrogate (``"\\ud800"`` in the JSON, half
of a UTF-16 pair, which no file name can hold). Refused after resolving: a symbolic link that leads
outside the repository, a link loop or a broken link, and anything that is not
a regular file (a folder, a FIFO, a device); a FIFO or a device is never
opened. A file larger than 256 MiB is not hashed.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import CURRENT_POST, POST_V2, source_example, sources

META = RuleMeta(
    id="provenance/unsafe-path",
    level=Level.ERROR,
    summary="A source path is absolute, has `..`, `.git` or empty components, or leads outside the repository.",
    why=(
        "A mechanism file is written by anyone who can open a pull request; its paths must never make the "
        "linter read outside the repository, read .git, or open a FIFO or a device."
    ),
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("../secrets.txt", POST_V2),
            note="a path that climbs out of the repository",
        ),
        Example(
            fires=True,
            where="/sources",
            json=source_example(".git/config", POST_V2),
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        if not source.unsafe:
            continue
        shown = quote(source.path, 200)
        if source.state is None:  # refused before the disk was touched
            message = f"{shown}: {source.problem}; nothing was read"
        else:
            message = f"{shown} {source.state.detail}"
        yield META.finding(pointer + "/path", message)
