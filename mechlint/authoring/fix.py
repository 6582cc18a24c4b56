"""``mechlint fix``: safe, mechanical fixes, applied only to string values.

A fixer is a function from a document to :class:`StringEdit` values, keyed
by the rule it answers. Only fixes that cannot change meaning are here:
typography (apostrophes and quotes converted to the file's dominant style).

The fixes the language server offers one at a time, as quick fixes the
author chooses, are pure functions here too (:func:`fix_id_mismatch`,
:func:`fix_unknown_target`, :func:`fix_word_choice`): they give the same
:class:`StringEdit` values whoever applies them.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from mechlint.authoring.edit import StringEdit, apply_edits, write_atomically
from mechlint.config import Config
from mechlint.document import Document, load
from mechlint.document.jsonscan import pointer_join
from mechlint.document.prose import code_spans, passages
from mechlint.document.views import all_steps, lit_entries, scenarios, strings, targets
from mechlint.language.plainlists import PlainLists
from mechlint.rules.plain import typography_consistency as typography
from mechlint.rules.reference.unknown_target import edit_distance
from mechlint.run.discovery import mechanism_files, read_candidate
from mechlint.safety.paths import display_path
from mechlint.safety.terminal import printable

Fixer = Callable[[Document], Iterator[StringEdit]]

_TO_STRAIGHT = {"‘": "'", "’": "'", "“": '"', "”": '"'}


def _curly(text: str, index: int) -> str:
    char = text[index]
    before = text[index - 1] if index else " "
    opening = before.isspace() or before in "([{—–-/"
    if char == "'":
        return "‘" if opening else "’"
    return "“" if opening else "”"


def fix_typography(document: Document) -> Iterator[StringEdit]:
    found = [(p, typography.marks(p.text)) for p in passages(document.data, labels=True)]
    counts = {"straight": 0, "curly": 0}
    order = [style for _, marks in found for _, style in marks]
    for style in order:
        counts[style] += 1
    if not counts["straight"] or not counts["curly"]:
        return
    style = typography.dominant(counts, order[0])
    for passage, marks in found:
        for index, mark_style in marks:
            if mark_style == style:
                continue
            char = passage.text[index]
            new = _TO_STRAIGHT[char] if style == "straight" else _curly(passage.text, index)
            yield StringEdit(passage.pointer, index, index + 1, new)


FIXERS: dict[str, Fixer] = {typography.META.id: fix_typography}


def fixed_text(document: Document, fixers: Iterable[Fixer]) -> str:
    """The document's text after every edit of ``fixers``: what ``mechlint fix`` writes."""
    edits = [edit for fixer in fixers for edit in fixer(document)]
    return apply_edits(document, edits) if edits else document.text


def fix_id_mismatch(document: Document, prefix: str = "mechanism-") -> Iterator[StringEdit]:
    """Each target ``id`` that is not ``prefix`` + its key becomes exactly that (``reference/id-mismatch``)."""
    for key, target in targets(document.data).items():
        target_id = target.get("id")
        if isinstance(target_id, str) and target_id != prefix + key:
            yield StringEdit(pointer_join(pointer_join("/targets", key), "id"), 0, len(target_id), prefix + key)


def only_candidate(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate closer to ``name`` than every other, if close enough to be a typo of it; else ``None``."""
    if len(name) > 200:
        return None
    names = list(candidates)
    folded = [c for c in names if c.lower() == name.lower()]
    if folded:
        return folded[0] if len(folded) == 1 else None
    limit = max(1, min(3, len(name) // 2))
    scored = [(edit_distance(name, c), c) for c in names if abs(len(c) - len(name)) <= limit]
    close = [(distance, c) for distance, c in scored if distance <= limit]
    best = min((distance for distance, _ in close), default=None)
    nearest = [c for distance, c in close if distance == best]
    return nearest[0] if len(nearest) == 1 else None


def fix_unknown_target(document: Document) -> Iterator[StringEdit]:
    """An unknown target key with exactly one close existing key becomes that key (``reference/unknown-target``)."""
    known = targets(document.data)
    if not known:
        return
    entries = [
        (key, pointer)
        for _, scenario, scenario_pointer in scenarios(document.data)
        for _, key, pointer in strings(scenario.get("unselected"), scenario_pointer + "/unselected")
    ]
    for *_, step, step_pointer in all_steps(document.data):
        entries.extend((key, pointer) for _, key, pointer in lit_entries(step, step_pointer))
    for key, pointer in entries:
        if key not in known:
            match = only_candidate(key, known)
            if match is not None:
                yield StringEdit(pointer, 0, len(key), match)


def _same_case(found: str, word: str) -> str:
    if len(found) > 1 and found.isupper():
        return word.upper()
    if found[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def fix_word_choice(document: Document, lists: PlainLists) -> Iterator[StringEdit]:
    """A listed word written in its listed form, with one plain alternative, becomes it (``plain/word-choice``).

    Inflected forms ("utilizes") and entries that offer a choice ("help, make
    possible") are left to the author; code spans are never touched.
    """
    for passage in passages(document.data):
        spans = code_spans(passage.text)
        for start, end, entry in lists.find(passage.text):
            found = passage.text[start:end]
            if any(low <= start < high for low, high in spans) or not _single(entry.use):
                continue
            if " ".join(found.lower().split()) != " ".join(entry.word.lower().split()):
                continue
            yield StringEdit(passage.pointer, start, end, _same_case(found, entry.use.strip()))


def _single(use: str) -> bool:
    return bool(use.strip()) and not any(mark in use for mark in ",;()/") and " or " not in f" {use} "


@dataclass(frozen=True, slots=True)
class FileFix:
    path: Path
    shown: str
    before: str
    after: str
    count: int

    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=f"a/{printable(self.shown)}",  # a line break in a file name must not start a line
            tofile=f"b/{printable(self.shown)}",
        )
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def fix_paths(paths: Iterable[str], config: Config, root: Path) -> tuple[list[FileFix], list[str]]:
    """The fixes for every mechanism file under ``paths``, and the files that could not be fixed."""
    enabled = {entry.rule.meta.id for entry in config.enabled()}
    fixers = [fixer for rule_id, fixer in FIXERS.items() if rule_id in enabled]
    cwd = Path.cwd()
    fixes: list[FileFix] = []
    skipped: list[str] = []
    for candidate in mechanism_files(paths, config, root):
        shown = display_path(candidate.path, cwd)
        raw = read_candidate(candidate, config, root)
        if isinstance(raw, str):
            skipped.append(f"{shown} {raw}")
            continue
        document = load(shown, raw)
        if not document.parsed:
            skipped.append(f"{shown} is not valid JSON; run mechlint check to see why")
            continue
        edits = [edit for fixer in fixers for edit in fixer(document)]
        if edits:
            after = apply_edits(document, edits)
            if after != document.text:
                fixes.append(FileFix(candidate.path, shown, document.text, after, len(edits)))
    return fixes, skipped


def write_fixes(fixes: Iterable[FileFix], root: Path | None = None) -> None:
    """Write each fixed file; a file that is a link inside ``root`` is written through, so the link stays."""
    for fix in fixes:
        write_atomically(fix.path, fix.after.encode("utf-8"), root)
