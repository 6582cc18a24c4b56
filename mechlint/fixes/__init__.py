"""Fixes: the mechanical remedy of a finding, safe or unsafe, from one place.

Every rule whose remedy is mechanical has a *fixer* here: a function
``(document, finding, context) -> Fix | None`` that builds the
:class:`~mechlint.model.Fix` of one finding (byte-minimal edits of the file,
see :mod:`mechlint.fixes.edits`). The engine attaches each finding's fix to
its result (:func:`mechlint.run.fixattach.with_fixes`), so the reports mark
it and carry it, the language server offers it as a code action, and
``check --fix`` applies it (:mod:`mechlint.fixes.apply`): one set of
functions for all of them.

:data:`FIXABLE` names each fixer and the kind of its fix without importing
it, so a run without findings of these rules never loads them.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mechlint.document import Document
    from mechlint.model import Finding, Fix
    from mechlint.rules import RuleContext

    Fixer = Callable[[Document, Finding, RuleContext], Fix | None]

__all__ = ["FIXABLE", "fix_line", "fixer_of"]

#: rule id → (the kind of its fix as the rule's documentation says it, the fixer as ``module:function``).
FIXABLE: dict[str, tuple[str, str]] = {
    "plain/typography-consistency": ("safe", "plain:typography"),
    "reference/id-mismatch": ("safe", "reference:id_mismatch"),
    "reference/kind-mismatch": ("safe", "reference:kind_mismatch"),
    "a11y/language": ("safe (unsafe when the tag is a guess)", "a11y:language"),
    "a11y/language-deprecated": ("safe", "a11y:language"),
    "provenance/gone-source": ("safe (when the renamed file holds the pinned bytes)", "provenance:gone_source"),
    "provenance/unpinned-source": ("unsafe", "provenance:pin_current"),
    "provenance/stale-source": ("unsafe", "provenance:pin_current"),
    "reference/unknown-target": ("unsafe", "reference:unknown_target"),
    "reference/unselected-active": ("unsafe", "reference:unselected_active"),
    "reference/unused-target": ("unsafe", "reference:unused_target"),
    "plain/word-choice": ("unsafe", "plain:word_choice"),
    "plain/term-consistency": ("unsafe", "plain:term_consistency"),
    "a11y/alt-redundant": ("unsafe", "a11y:alt_redundant"),
    "a11y/reading-time": ("unsafe", "a11y:reading_time"),
}


def fix_line(rule_id: str) -> str:
    """The "Fix" line of a rule's documentation page: the kind of its fix and what it does, or that it has none."""
    named = FIXABLE.get(rule_id)
    if named is None:
        return "none: the remedy needs the author's words or judgement"
    fixer = fixer_of(rule_id)
    paragraph = " ".join((fixer.__doc__ or "").split("\n\n")[0].split()) if fixer is not None else ""
    what = paragraph.partition(": ")[2] if paragraph.startswith(("Safe", "Unsafe")) else paragraph
    applied = "`check --fix`" if named[0].startswith("safe") else "`check --fix --unsafe-fixes`"
    return f"**{named[0]}**, applied by {applied}: {what}"


def fixer_of(rule_id: str) -> Fixer | None:
    """The fixer of ``rule_id``'s findings, imported on first use; ``None`` for a rule without one."""
    named = FIXABLE.get(rule_id)
    if named is None:
        return None
    module, _, function = named[1].partition(":")
    fixer: Fixer = getattr(import_module(f"mechlint.fixes.{module}"), function)
    return fixer
