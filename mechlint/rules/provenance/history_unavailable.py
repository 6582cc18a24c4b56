"""Reports a source that does not match the working tree when the history
needed to classify it is missing: a shallow clone, a partial clone, a folder
that is no git repository, or a repository git refuses to read
(``safe.directory``). The message says how to get the history (in GitHub
Actions: ``actions/checkout`` with ``fetch-depth: 0``). mechlint never fetches
anything itself.

Those are documented setups, so the finding is a warning there. When the
repository should have answered and could not (a missing or corrupt object,
a FIFO or a device where git reads a file, a configuration git cannot be kept
from such as an ``include``, git making no progress for 5 seconds), the same
finding is an **error**, whatever level is configured (turn the rule off to
accept that): missing history never turns an error into a pass. The message
names what could not be checked and why. One source gets one finding: a frozen
copy whose file is gone needs history twice (for its own bytes and for its
claim about the original path), and says both in one message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import BEYOND_CLONE, FAILED, NO_HISTORY, SUBMODULE
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import OLD_SVG, POST_V2, SHALLOW_CLONE, line_endings, source_example, sources
from mechlint.views import quote

if TYPE_CHECKING:
    from mechlint.provenance.errors import GitError
    from mechlint.provenance.source import Source

META = RuleMeta(
    id="provenance/history-unavailable",
    level=Level.WARNING,
    summary="The answer needs git history that this clone does not have.",
    why=(
        "A shallow or partial clone (the default in many CI systems) lacks the commits that hold older bytes;"
        " reporting missing-source or digest-mismatch there would be false."
    ),
    location="the source's `path`",
    examples=(
        Example(
            fires=True,
            where="/sources",
            json=source_example("content/old.svg", OLD_SVG),
            note=SHALLOW_CLONE,
            setup="shallow",
        ),
        Example(
            fires=False,
            where="/sources",
            json=source_example("content/post.md", POST_V2),
            note=SHALLOW_CLONE,
            setup="shallow",
        ),
    ),
    tags=("provenance",),
)


FETCH_FIX = "fetch the full history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        found = list(_unknowns(source))
        if not found:
            continue
        levels = [level for _, level in found if level is not None]
        message = "; and ".join(dict.fromkeys(message for message, _ in found))
        yield META.finding(pointer + "/path", message, level=max(levels) if levels else None)


def _unknowns(source: Source) -> Iterator[tuple[str, Level | None]]:
    """What could not be checked for want of history, each with the least level to report it at."""
    shown = quote(source.path, 200)
    if source.digest is None and source.absent and not source.history.complete:
        yield _unavailable(source, f"nothing is at {shown} in the working tree")
    pinned = source.pinned
    if pinned is not None and pinned.kind == SUBMODULE:
        yield (
            f"{shown} does not match the pinned sha256, and it is inside the submodule {quote(pinned.folder, 200)}, "
            "whose history mechlint does not read; check it in that repository",
            None,
        )
    elif pinned is not None and pinned.kind == NO_HISTORY:
        if source.present and source.state is not None:
            what = f"the bytes of {shown} do not have the pinned sha256 (they have {source.state.sha256[:12]}…)"
        else:
            what = f"nothing is at {shown} in the working tree"
        yield _unavailable(source, what + line_endings(source))
    elif pinned is not None and pinned.kind == FAILED:
        yield _unavailable(source, f"looking up {shown} failed ({pinned.error})", pinned.error)
    elif pinned is not None and pinned.kind == BEYOND_CLONE:
        missing = "the pinned bytes are not in the history this clone has"
        if source.present:
            yield _unavailable(source, f"the pinned bytes of {shown} are not in the history this clone has")
        else:
            yield _unavailable(source, f"nothing is at {shown} and {missing}")
    claim = source.claim
    if claim is not None and claim.original is not None:
        what = f"{shown} is a frozen copy of {quote(claim.original, 200)}"
        if claim.kind == NO_HISTORY:
            yield _unavailable(source, f"{what}, whose bytes can only be checked in history")
        elif claim.kind == FAILED:
            yield _unavailable(source, f"{what}, and looking it up failed ({claim.error})", claim.error)
        elif claim.kind == BEYOND_CLONE:
            yield _unavailable(source, f"{what}, and its pinned bytes are not in the history this clone has")


def _unavailable(source: Source, what: str, error: GitError | None = None) -> tuple[str, Level | None]:
    """History could not answer. A warning where that is a documented setup (a shallow or partial clone, no
    repository); an error where the repository should have answered (a missing or corrupt object, a special
    file, a refused configuration, git stopped): missing history never turns an error into a pass.
    """
    unavailable = source.history.unavailable(error)
    why = unavailable.why
    if unavailable.broken:
        return (
            f"{what}, but {why}; this could not be checked, so it is an error: repair the repository "
            "(git fsck) or make a fresh clone",
            Level.ERROR,
        )
    return f"{what}, but {why}; {unavailable.fix or FETCH_FIX}", None
