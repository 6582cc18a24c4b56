"""``mechlint fix``: safe, mechanical fixes, applied only to string values.

A fixer is a function from a document to :class:`StringEdit` values, keyed
by the rule it answers. Only fixes that cannot change meaning are here:
typography (apostrophes and quotes converted to the file's dominant style).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from mechlint.config import DEFAULT_EXCLUDE, Config
from mechlint.discovery import discover, read_file
from mechlint.document import Document, load
from mechlint.edit import StringEdit, apply_edits, write_atomically
from mechlint.engine import display_path
from mechlint.prose import passages
from mechlint.rules.plain import typography_consistency as typography
from mechlint.terminal import printable

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
    base = config.root if config.source else root
    cwd = Path.cwd()
    fixes: list[FileFix] = []
    skipped: list[str] = []
    for candidate in discover([Path(p) for p in paths], config.include, (*DEFAULT_EXCLUDE, *config.exclude), base):
        shown = display_path(candidate.path, cwd)
        raw = read_file(candidate.path, config.max_file_size, root)
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
