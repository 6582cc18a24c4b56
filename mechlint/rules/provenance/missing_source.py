"""Reports a source whose path names nothing in the working tree and nothing
in history: the commits reachable from ``HEAD`` (renames followed). A path,
or pinned bytes, found only in commits ``HEAD`` does not contain (an unmerged
branch, a tag off its line) is still missing, and the message says where
they are. When the clone lacks history (shallow or partial, or no git
repository) the answer is unknown, and ``provenance/history-unavailable`` is
reported instead: never a false ``missing-source``. The path is judged
whatever the ``sha256`` is: missing, malformed or in upper case (one mistake
never hides another; ``schema/violation`` reports the digest).

Bytes that another path holds do not make a path right: ``content/psot.md``
or ``content/Post.md`` pinned to the bytes of ``content/post.md`` is missing,
and the message asks "did you mean "content/post.md"? it holds the pinned
bytes now" (or names the commit in which a path held them). When no path has
the pinned bytes, it suggests the existing file closest by name, in HEAD or
beside the path, and says when the names differ only in case, or in Unicode
normalization (``café`` written decomposed, NFD, against a file name written
composed, NFC: which form each uses, and the code points that differ). A
folder that once held files is not a source. Only a frozen copy may be
satisfied by bytes of another path: its original path; a frozen copy is
never told to fix its path, but what it must hold.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import NOWHERE, UNREACHABLE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import (
    CURRENT_POST,
    EXAMPLE_REPOSITORY,
    POST_V2,
    elsewhere,
    frozen_copy_advice,
    in_commit,
    source_example,
    sources,
    unreachable,
)

if TYPE_CHECKING:
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/missing-source",
    level=Level.ERROR,
    summary="Nothing is at the source path, and nothing ever was in git history.",
    why="A source that never existed cannot back the mechanism: the path has a typo, or the file was never committed.",
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/psot.md", "0" * 64),
            note=EXAMPLE_REPOSITORY,
        ),
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/Post.md", POST_V2),
            note=EXAMPLE_REPOSITORY + " (the pinned bytes are those of content/post.md, a different path)",
        ),
        CURRENT_POST,
    ),
    tags=("provenance",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        if not _missing(source):
            continue
        parts = [f"nothing is at {quote(source.path, 200)}, and nothing ever was in the history of HEAD"]
        off_head = unreachable(source) or _off_head(source)
        named = _named_commit(source) if off_head else None
        merge = "merge that branch first, or " if off_head else ""
        if source.original is not None:  # a frozen copy: its path is its claim, and what it holds is the question
            said = source.pinned.original if source.pinned is not None else None  # where unreachable() said
            parts += [off_head, elsewhere(source, named, said), frozen_copy_advice(source)]
        else:
            parts += [off_head, f"{merge}fix the path or remove the source", did_you_mean(source, named)]
        yield META.finding(pointer + "/path", "; ".join(part for part in parts if part))


def _missing(source: Source) -> bool:
    """Nothing at the path, and nothing in HEAD's full history: pinned, unpinned or malformed, the path is wrong."""
    if source.unsafe or not source.absent or source.in_history:
        return False
    pinned = source.pinned
    if pinned is None:  # no sha256, or a malformed one (schema/violation's): the path is judged all the same
        return source.history.complete and source.history_error is None
    return pinned.kind in (NOWHERE, UNREACHABLE)


def _off_head(source: Source) -> str:
    """``a file is at this path only in commit C, on branch "x", which HEAD does not contain``, or ""."""
    if not source.revisions:
        return ""
    return f"a file is at this path only in {in_commit(source, source.revisions[0].commit)}"


def _named_commit(source: Source) -> str | None:
    """The commit :func:`unreachable` or :func:`_off_head` named (the one that says something names it)."""
    pinned = source.pinned
    if pinned is not None and pinned.kind == UNREACHABLE and pinned.revision is not None:
        return pinned.revision.commit
    return source.revisions[0].commit if source.revisions else None


def did_you_mean(source: Source, named: str | None = None) -> str:
    """``did you mean "X"? it holds the pinned bytes now`` (or held them in a commit, or is only close by name).

    The path that holds the pinned bytes at HEAD, or held them in some commit;
    else the existing path closest by name (a different case, a swapped
    letter, another post's folder); else "". ``named`` is a commit the message
    has named already ("the same commit").
    """
    from mechlint.provenance.whereabouts import best_holder

    best = best_holder(source.path, source.holders)
    if best is not None:
        if best.commit is None:
            where = "it holds the pinned bytes now"
        else:
            where = f"it held the pinned bytes in {in_commit(source, best.commit, named)}"
        return f"did you mean {quote(best.path, 200)}? {where}{name_note(source.path, best.path)}"
    by_name = source.closest_name()
    if by_name is not None:
        return f"did you mean {quote(by_name, 200)}?{name_note(source.path, by_name)}"
    return ""


def name_note(path: str, other: str) -> str:
    """`` (the names differ only in case)``, or in Unicode normalization (which form each uses), or ""."""
    if path == other:
        return ""
    if path.casefold() == other.casefold():
        return " (the names differ only in case)"
    if unicodedata.normalize("NFC", path).casefold() != unicodedata.normalize("NFC", other).casefold():
        return ""
    case = "" if unicodedata.normalize("NFC", path) == unicodedata.normalize("NFC", other) else " and in case"
    return (
        f" (the names look alike but differ in Unicode normalization{case}: the source path is written "
        f"{_form(path)}, the file name {_form(other)}{_first_difference(path, other)}; write the path as the "
        "file name is written)"
    )


def _form(text: str) -> str:
    """Which normalization form ``text`` is in: ``in NFC (composed)``, ``in NFD (decomposed)``, or a mix."""
    if unicodedata.is_normalized("NFC", text):
        return "in NFC (composed)"
    if unicodedata.is_normalized("NFD", text):
        return "in NFD (decomposed)"
    return "in neither NFC nor NFD (a mix)"


def _first_difference(path: str, other: str) -> str:
    """``: "é" is U+0065 LATIN SMALL LETTER E + U+0301 … in the path, U+00E9 … in the file name``, or ""."""
    mine, theirs = _clusters(path), _clusters(other)
    if len(mine) != len(theirs):
        return ""
    for one, two in zip(mine, theirs, strict=True):
        if one != two:
            return (
                f": {quote(unicodedata.normalize('NFC', one))} is {_code_points(one)} in the path, "
                f"{_code_points(two)} in the file name"
            )
    return ""


def _clusters(text: str) -> list[str]:
    """``text`` cut before each character that does not combine with the one before it."""
    clusters: list[str] = []
    for char in text:
        if clusters and unicodedata.combining(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def _code_points(text: str) -> str:
    return " + ".join(f"U+{ord(char):04X} {unicodedata.name(char, 'an unnamed character')}" for char in text)
