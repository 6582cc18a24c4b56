"""Code actions: the fixes of :mod:`mechlint.fixes`, as quick fixes and as ``source.fixAll.mechlint``.

Each finding's quick fix is its result's :class:`~mechlint.model.Fix`, the
one ``check --fix`` applies and the reports carry, turned into text edits of
the buffer as it is: a safe fix is the preferred action, an unsafe one is
offered for the author to choose. ``source.fixAll.mechlint`` applies every
safe fix in rounds, exactly as ``check --fix`` does, so it gives the bytes
the command would write. Pinning every source of the file at once (as
``mechlint pin``) stays an explicit quick fix of a digest mismatch, never part
of "fix all".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from lsprotocol import types

from mechlint.document import Document
from mechlint.lsp.checker import Checked
from mechlint.lsp.positions import TextIndex
from mechlint.model import Fix as ResultFix
from mechlint.model import Result
from mechlint.rules.provenance import digest_mismatch

FIX_ALL = "source.fixAll.mechlint"
PIN_RULES = (digest_mismatch.META.id,)
QUICK_FIX = types.CodeActionKind.QuickFix


@dataclass(frozen=True, slots=True)
class Fix:
    """One code action: its title and kind, and either the buffer's new text or the edits that make it."""

    title: str
    kind: str
    text: str | None = None
    result: Result | None = None
    preferred: bool = False
    edits: tuple[tuple[int, int, str], ...] = ()


def text_edit(before: str, after: str, index: TextIndex) -> types.TextEdit:
    """One edit that turns ``before`` into ``after``: the changed span between their common ends."""
    limit = min(len(before), len(after))
    start = 0
    while start < limit and before[start] == after[start]:
        start += 1
    end = 0
    while end < limit - start and before[-1 - end] == after[-1 - end]:
        end += 1
    old_end, new_end = len(before) - end, len(after) - end
    if start and before[start - 1] == "\r" and before[start : start + 1] == "\n":
        start -= 1  # never split a "\r\n"
    if old_end < len(before) and before[old_end - 1 : old_end] == "\r" and before[old_end] == "\n":
        old_end, new_end = old_end + 1, new_end + 1
    return types.TextEdit(index.range_of(start, old_end), after[start:new_end])


def character_edits(document: Document, fix: ResultFix) -> tuple[tuple[int, int, str], ...]:
    """The fix's byte edits as character offsets of the document's text."""
    raw = document.raw

    def characters(offset: int) -> int:
        return offset if document.text.isascii() else len(raw[:offset].decode("utf-8", "surrogatepass"))

    return tuple((characters(edit.start), characters(edit.end), edit.content) for edit in fix.edits)


def fixes_for(
    checked: Checked,
    results: Sequence[Result],
    fix_all: Callable[[], str | None],
    pin: Callable[[], str | None],
) -> Iterator[Fix]:
    """Every quick fix for ``results`` (findings of ``checked``), then the fix-all action."""
    document = checked.document
    if not document.parsed:
        return
    pinned: str | None = None
    for result in results:
        if result.fix is not None:
            title = result.fix.title if result.fix.safe else f"{result.fix.title} (unsafe fix)"
            edits = character_edits(document, result.fix)
            yield Fix(title, QUICK_FIX, result=result, preferred=result.fix.safe, edits=edits)
        elif result.rule_id in PIN_RULES:
            pinned = pinned if pinned is not None else (pin() or "")
            if pinned and pinned != document.text:
                yield Fix("Pin every source to its current bytes (mechlint pin)", QUICK_FIX, pinned, result)
    if checked.config is not None and any(r.fix is not None and r.fix.safe for r in checked.results):
        text = fix_all()
        if text is not None and text != document.text:
            yield Fix("Fix every safe mechlint problem (as check --fix)", FIX_ALL, text)


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether an action of ``kind`` answers a request limited to ``only`` (kinds are hierarchical)."""
    return not only or any(kind == base or kind.startswith(base + ".") for base in only)


def code_actions(
    fixes: Iterable[Fix],
    index: TextIndex,
    uri: str,
    diagnostic_of: Callable[[Result], types.Diagnostic],
    only: Sequence[str] | None,
) -> list[types.CodeAction]:
    actions = []
    for fix in fixes:
        if not wanted(fix.kind, only):
            continue
        if fix.text is not None:
            changes = [text_edit(index.text, fix.text, index)]
        else:
            changes = [types.TextEdit(index.range_of(start, end), content) for start, end, content in fix.edits]
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=fix.kind,
                diagnostics=[diagnostic_of(fix.result)] if fix.result is not None else None,
                edit=types.WorkspaceEdit(changes={uri: changes}),
                is_preferred=fix.preferred or None,
            )
        )
    return actions
