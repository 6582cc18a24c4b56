"""Code actions: quick fixes built from the fixes of :mod:`mechlint.authoring.fix` and :mod:`mechlint.authoring.pin`.

Each action's edit is computed on the buffer as it is, with the same
:class:`~mechlint.authoring.edit.StringEdit` values and :func:`~mechlint.authoring.edit.apply_edits`
as ``mechlint fix``, so applying it gives exactly the bytes the command
would write. ``source.fixAll.mechlint`` applies what ``mechlint fix`` applies
(the safe fixes); the other quick fixes (a guessed target key, a reworded
phrase, an id, a new pin) are offered one at a time, and pinning is never
part of "fix all".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from lsprotocol import types

from mechlint.authoring.edit import StringEdit, apply_edits
from mechlint.authoring.fix import (
    FIXERS,
    fix_id_mismatch,
    fix_typography,
    fix_unknown_target,
    fix_word_choice,
    fixed_text,
)
from mechlint.document import Document
from mechlint.document.jsonscan import string_offsets
from mechlint.lsp.checker import Checked
from mechlint.lsp.positions import TextIndex
from mechlint.model import Result
from mechlint.rules.plain import typography_consistency, word_choice
from mechlint.rules.provenance import digest_mismatch, stale_source, unpinned_source
from mechlint.rules.reference import id_mismatch, unknown_target

FIX_ALL = "source.fixAll.mechlint"
PIN_RULES = (unpinned_source.META.id, digest_mismatch.META.id, stale_source.META.id)
QUICK_FIX = types.CodeActionKind.QuickFix


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    kind: str
    text: str
    result: Result | None = None
    preferred: bool = False


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


def _edited(document: Document, edits: Iterable[StringEdit]) -> str | None:
    text = apply_edits(document, list(edits))
    return text if text != document.text else None


def _at_result(document: Document, index: TextIndex, result: Result, edits: Iterable[StringEdit]) -> list[StringEdit]:
    """The edits of the string the result is about, narrowed to its span when it has one."""
    mine = [edit for edit in edits if edit.pointer == result.pointer]
    span = document.scan().values.get(result.pointer)
    if span is None or len(mine) < 2:
        return mine
    offsets = string_offsets(document.text, *span)
    start = index.region_offsets(result.region)[0]
    return [edit for edit in mine if offsets[edit.start] <= start < max(offsets[edit.end], offsets[edit.start] + 1)]


def fixes_for(
    checked: Checked, index: TextIndex, results: Sequence[Result], pin: Callable[[], str | None]
) -> Iterator[Fix]:
    """Every quick fix for ``results`` (findings of ``checked``), then the fix-all action."""
    document = checked.document
    if not document.parsed:
        return
    config = checked.config
    options = config.options if config is not None else {}
    lists = config.word_lists if config is not None else None
    typography = list(fix_typography(document))
    pinned: str | None = None
    for result in results:
        rule = result.rule_id
        if rule == typography_consistency.META.id:
            text = _edited(document, [edit for edit in typography if edit.pointer == result.pointer])
            if text is not None:
                yield Fix("Fix the quotes and apostrophes of this string", QUICK_FIX, text, result, preferred=True)
            text = _edited(document, typography)
            if text is not None:
                yield Fix("Fix the quotes and apostrophes of the whole file", QUICK_FIX, text, result)
        elif rule == id_mismatch.META.id:
            prefix = options.get(rule, {}).get("prefix", id_mismatch.META.option("prefix").default)
            edits = _at_result(document, index, result, fix_id_mismatch(document, str(prefix)))
            text = _edited(document, edits)
            if text is not None and edits:
                yield Fix(f"Set the id to {edits[0].replacement!r}", QUICK_FIX, text, result, preferred=True)
        elif rule == unknown_target.META.id:
            edits = _at_result(document, index, result, fix_unknown_target(document))
            text = _edited(document, edits)
            if text is not None and edits:
                yield Fix(f"Change to {edits[0].replacement!r}", QUICK_FIX, text, result, preferred=True)
        elif rule == word_choice.META.id:
            from mechlint.language.plainlists import shipped

            edits = _at_result(document, index, result, fix_word_choice(document, lists or shipped()))
            text = _edited(document, edits)
            if text is not None and edits:
                yield Fix(f"Use {edits[0].replacement!r}", QUICK_FIX, text, result, preferred=True)
        elif rule in PIN_RULES:
            pinned = pinned if pinned is not None else (pin() or "")
            if pinned and pinned != document.text:
                yield Fix("Pin every source to its current bytes (mechlint pin)", QUICK_FIX, pinned, result)
    if config is not None:
        enabled = set(checked.rules)
        text = fixed_text(document, [fixer for rule_id, fixer in FIXERS.items() if rule_id in enabled])
        if text != document.text:
            yield Fix("Fix every safe mechlint problem (as mechlint fix)", FIX_ALL, text)


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
        edit = types.WorkspaceEdit(changes={uri: [text_edit(index.text, fix.text, index)]})
        actions.append(
            types.CodeAction(
                title=fix.title,
                kind=fix.kind,
                diagnostics=[diagnostic_of(fix.result)] if fix.result is not None else None,
                edit=edit,
                is_preferred=fix.preferred or None,
            )
        )
    return actions
