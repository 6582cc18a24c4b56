"""Reports a source that does not match the working tree when the history
needed to classify it is missing: a shallow clone, a partial clone, a folder
that is no git repository, or a repository git refuses to read
(``safe.directory``). The message names the verdicts it could not judge
(``provenance/stale-source`` or ``provenance/digest-mismatch`` for a changed
file; ``provenance/missing-source``, ``provenance/gone-source`` or
``provenance/digest-mismatch`` for a gone one) and how to get the history: in
a shallow or partial clone, fetch it (in GitHub Actions: ``actions/checkout``
with ``fetch-depth: 0``); outside any git repository, provenance needs one
(run mechlint in a clone). mechlint never fetches anything itself.

What to fetch depends on the clone: a shallow clone lacks older commits
(``git fetch --unshallow``); a partial clone (``--filter=blob:none``) has
every commit but lacks the objects it did not need, and its fetch keeps the
filter unless told otherwise (``git fetch --refetch --no-filter``); a clone
that is both needs both. A source outside a sparse checkout whose bytes in
HEAD a partial clone left out is not gone: its bytes are unknown.

Those are documented setups, so the finding is a warning there. When the
repository should have answered and could not (a missing or corrupt object,
a FIFO or a device where git reads a file, a configuration git cannot be kept
from such as an ``include``, git making no progress for 5 seconds), the same
finding is an **error**, whatever level is configured (turn the rule off to
accept that): missing history never turns an error into a pass. The message
names what could not be checked and why: in a complete clone, a version of
the source's history that git has no object for is such an error, since it
may be the version that holds the pinned bytes, and so is a path whose
history git fails to list, which is never called missing on a guess. One source gets one finding: a frozen
copy whose file is gone needs history twice (for its own bytes and for its
claim about the original path), and says both in one message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.provenance.pinned import BEYOND_CLONE, FAILED, NO_HISTORY, SUBMODULE
from mechlint.records import Record
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.rules.provenance import OLD_SVG, POST_V2, SHALLOW_CLONE, line_endings, source_example, sources

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


#: What a folder outside any git repository is told: the history is not missing from a clone, there is none.
REPOSITORY_FIX = (
    "provenance needs a git repository (its history tells a stale pin from a wrong one, and a deleted source from "
    "a mistyped path): run mechlint in a clone of the repository that holds the sources"
)
#: The verdicts that need history, by what is known of the source.
CHANGED = ("provenance/stale-source", "provenance/digest-mismatch")
GONE = ("provenance/missing-source", "provenance/gone-source", "provenance/digest-mismatch")
GONE_FROZEN = ("provenance/missing-source", "provenance/frozen-resolved", "provenance/digest-mismatch")
CLAIM = ("provenance/frozen-copy-mismatch",)


class _Unknown(Record):
    """One question history could not answer: what was found, the verdicts left open, and a level (or ``None``)."""

    what: str
    undecided: tuple[str, ...]
    level: Level | None
    why: str
    #: How to let history answer (what to fetch, what to allow), or "" (then :func:`_fix` says).
    fix: str = ""


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for pointer, source in sources(document, context):
        found = list(_unknowns(source))
        if not found:
            continue
        levels = [unknown.level for unknown in found if unknown.level is not None]
        yield META.finding(pointer + "/path", _message(source, found), level=max(levels) if levels else None)


def _message(source: Source, found: list[_Unknown]) -> str:
    """What could not be checked, why, which verdicts that leaves open, and what to do."""
    what = "; and ".join(dict.fromkeys(unknown.what for unknown in found))
    whys = list(dict.fromkeys(unknown.why for unknown in found if unknown.why))
    if not whys:
        return what  # nothing history could tell (a submodule's own history is not read)
    undecided = list(dict.fromkeys(rule for unknown in found for rule in unknown.undecided))
    if any(unknown.level is Level.ERROR for unknown in found):
        return (
            f"{what}, but {' and '.join(whys)}; this could not be checked, so it is an error: repair the repository "
            "(git fsck) or make a fresh clone"
        )
    judged = f"mechlint could not judge {_either(undecided)}" if undecided else ""
    fixes = [unknown.fix for unknown in found if unknown.fix]
    return f"{what}, but {' and '.join(whys)}; {judged}{'; ' if judged else ''}{fixes[0] if fixes else _fix(source)}"


def _either(rules: list[str]) -> str:
    if len(rules) == 1:
        return rules[0]
    return ", ".join(rules[:-1]) + " or " + rules[-1]


#: What a complete clone is told when git failed without the repository being broken (git itself missing, say):
#: nothing is missing from the clone, so fetching is not the way.
RETRY_FIX = "run mechlint again once git can read the repository (git status says what stops it)"


def _fix(source: Source) -> str:
    """How to let history answer when :meth:`History.unavailable` names no fix of its own: in a complete clone,
    let git read it; outside any repository, work in a clone (a shallow or partial clone's fetch is its own)."""
    history = source.history
    if history.exists:
        return RETRY_FIX
    if source.repository.toplevel is None:
        return REPOSITORY_FIX
    return "provenance needs git to read this repository's history"


def _unknowns(source: Source) -> Iterator[_Unknown]:
    """What could not be checked for want of history, each with the least level to report it at."""
    shown = quote(source.path, 200)
    gone = GONE_FROZEN if source.original is not None else GONE
    if not source.pinned_well and source.absent and not source.unsafe and not source.in_history:
        error = source.history_error
        if error is not None or not source.history.complete:
            what = f"nothing is at {shown} in the working tree"
            if error is not None:
                what += f", and looking up its history failed ({error})"
            yield _unavailable(source, what, gone[:2], error)
    pinned = source.pinned
    if pinned is not None and pinned.kind == SUBMODULE:
        yield _Unknown(
            what=(
                f"{shown} does not match the pinned sha256, and it is inside the submodule "
                f"{quote(pinned.folder, 200)}, whose history mechlint does not read; check it in that repository"
            ),
            undecided=(),
            level=None,
            why="",
        )
    elif pinned is not None and pinned.kind == NO_HISTORY:
        undecided: tuple[str, ...]
        if source.present and source.state is not None:
            what = f"the bytes of {shown} do not have the pinned sha256 (they have {source.state.sha256[:12]}…)"
            undecided = CHANGED
        else:
            what, undecided = f"nothing is at {shown} in the working tree", gone
        yield _unavailable(source, what + line_endings(source), undecided)
    elif pinned is not None and pinned.kind == FAILED:
        undecided = CHANGED if source.present else gone
        yield _unavailable(source, f"looking up {shown} failed ({pinned.error})", undecided, pinned.error)
    elif pinned is not None and pinned.kind == BEYOND_CLONE:
        missing = "the pinned bytes are not in the history this clone has"
        if source.present:
            yield _unavailable(source, f"the pinned bytes of {shown} are not in the history this clone has", CHANGED)
        elif source.left_out:  # in HEAD, but neither checked out nor fetched
            left_out = "is outside the sparse checkout, and neither its bytes in HEAD nor the pinned ones are in"
            left_out += " this clone"
            yield _unavailable(source, f"{shown} {left_out}", CHANGED)
        else:
            yield _unavailable(source, f"nothing is at {shown} and {missing}", gone)
    claim = source.claim
    if claim is not None and claim.original is not None:
        what = f"{shown} is a frozen copy of {quote(claim.original, 200)}"
        if claim.kind == NO_HISTORY:
            yield _unavailable(source, f"{what}, whose bytes can only be checked in history", CLAIM)
        elif claim.kind == FAILED:
            yield _unavailable(source, f"{what}, and looking it up failed ({claim.error})", CLAIM, claim.error)
        elif claim.kind == BEYOND_CLONE:
            yield _unavailable(source, f"{what}, and its pinned bytes are not in the history this clone has", CLAIM)


def _unavailable(source: Source, what: str, undecided: tuple[str, ...], error: GitError | None = None) -> _Unknown:
    """History could not answer. A warning where that is a documented setup (a shallow or partial clone, no
    repository); an error where the repository should have answered (a missing or corrupt object, a special
    file, a refused configuration, git stopped): missing history never turns an error into a pass.
    """
    unavailable = source.history.unavailable(error)
    level = Level.ERROR if unavailable.broken else None
    return _Unknown(what=what, undecided=undecided, level=level, why=unavailable.why, fix=unavailable.fix)
