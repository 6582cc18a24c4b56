"""Fixes of the ``plain/`` rules: quotes in the file's style, the plain word, the file's own spelling of a term."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mechlint.document import Document
from mechlint.document.edit import StringEdit
from mechlint.document.views import quote
from mechlint.fixes.edits import make_fix, replace_in_string
from mechlint.model import Finding, Fix
from mechlint.rules import RuleContext

if TYPE_CHECKING:
    from mechlint.language.plainlists import Substitution
    from mechlint.rules.plain.term_consistency import Use

__all__ = ["inflect_like", "term_consistency", "typography", "word_choice"]


def _typography_edits(document: Document) -> dict[str, list[StringEdit]]:
    from mechlint.fixes.typography import fix_typography

    by_string: dict[str, list[StringEdit]] = {}
    for edit in fix_typography(document):
        by_string.setdefault(edit.pointer, []).append(edit)
    return by_string


def typography(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Safe: every apostrophe and quote of the string turned to the file's dominant style."""
    edits = document.derived(_typography_edits).get(finding.pointer, [])
    changes = [replace_in_string(document, e.pointer, e.start, e.end, e.replacement) for e in edits]
    return make_fix(document, "safe", "Use the file's quotes and apostrophes in this string", changes)


def _sibilant(word: str) -> bool:
    return word.endswith(("s", "x", "z", "ch", "sh"))


def inflect_like(found: str, word: str, use: str) -> str | None:
    """``use`` in the form ``found`` takes of the listed ``word`` (``utilizes`` of ``utilize`` → ``uses``), or
    ``None`` for a form this cannot make regularly: the past tense (``bought``, ``got``), left to the author."""
    first, space, rest = use.partition(" ")
    head = found.lower().split(" ", 1)[0]
    base = word.lower().split(" ", 1)[0]
    if head == base:
        made = first
    elif head in (base + "s", base + "es", base[:-1] + "ies"):
        if first.endswith("y") and len(first) > 1 and first[-2] not in "aeiou":
            made = first[:-1] + "ies"
        else:
            made = first + ("es" if _sibilant(first) else "s")
    elif head in (base + "ing", base[:-1] + "ing"):
        made = (first[:-1] if first.endswith("e") and not first.endswith("ee") else first) + "ing"
    else:
        return None
    return made + space + rest


def _same_case(found: str, word: str) -> str:
    if len(found) > 1 and found.isupper():
        return word.upper()
    if found[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _single(use: str) -> bool:
    return bool(use.strip()) and not any(mark in use for mark in ",;()/") and " or " not in f" {use} "


def _prose_by_pointer(document: Document) -> dict[str, str]:
    from mechlint.document.prose import passages

    return {passage.pointer: passage.text for passage in passages(document.data)}


def _word_hits(document: Document) -> dict[str, dict[tuple[int, int], Substitution]]:
    return {}


def word_choice(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: the listed word becomes its one plain alternative, in the same form and case (``Utilizes`` →
    ``Uses``); an entry that offers a choice ("help, make possible") is left to the author."""
    if finding.span is None:
        return None
    start, end = finding.span
    text = document.derived(_prose_by_pointer).get(finding.pointer)
    if text is None:
        return None
    hits = document.derived(_word_hits)
    if finding.pointer not in hits:  # the list searched once per string, not once per finding in it
        hits[finding.pointer] = {(s, t): e for s, t, e in context.lists.find(text)}
    entry = hits[finding.pointer].get((start, end))
    if entry is None or not _single(entry.use):
        return None
    found = text[start:end]
    made = inflect_like(" ".join(found.split()), entry.word, entry.use.strip())
    if made is None:
        return None
    replacement = _same_case(found, made)
    change = replace_in_string(document, finding.pointer, start, end, replacement)
    return make_fix(document, "unsafe", f"Use {quote(replacement)}", [change])


def _variant_groups(document: Document) -> list[tuple[list[Use], list[Use]]]:
    from mechlint.rules.plain.term_consistency import variant_groups

    return list(variant_groups(document))


def term_consistency(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: every use of the odd spelling becomes the spelling the file uses most; a capital that a sentence
    start explains stays."""
    from mechlint.rules.plain.term_consistency import model as spelling

    for odd, norm in document.derived(_variant_groups):
        if (odd[0].pointer, odd[0].span) != (finding.pointer, finding.span):
            continue
        model = spelling(norm)
        changes = []
        for use in odd:
            wanted = model
            if use.written[:1].isupper() and use.foldable & 1:
                wanted = model[:1].upper() + model[1:]
            changes.append(replace_in_string(document, use.pointer, use.span[0], use.span[1], wanted))
        return make_fix(document, "unsafe", f"Write {quote(odd[0].written)} as {quote(model)}", changes)
    return None
