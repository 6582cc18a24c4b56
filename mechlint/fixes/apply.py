"""Applying fixes to a file's bytes: in rounds, never overlapping, never into text that does not parse, never
adding a finding.

Each round lints the current bytes, takes the fixes that are wanted (safe, or
unsafe too) in file order, skipping any fix that overlaps or touches one
already taken (it is *deferred*: the next round, linted afresh, offers it
again), and applies them together. The fixed bytes must parse; if they do
not, the file keeps its bytes and a problem says why. They are linted again:
if some rule now finds more than it did, the round is redone one fix at a
time and each fix that adds a finding is reverted (and not offered again).
Rounds stop when no fix is left, when a round changes nothing, when the
bytes come back to an earlier state, or after :data:`MAX_ROUNDS` (as ruff's
loop is bounded).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from mechlint.document import load
from mechlint.model import Fix, Result
from mechlint.records import Record
from mechlint.safety.terminal import printable

__all__ = ["MAX_ROUNDS", "Applied", "FileFixes", "apply_fixes", "choose", "fix_bytes", "unified_diff"]

MAX_ROUNDS = 10

#: Lint bytes: the unsuppressed results, each with its fix.
Linter = Callable[[bytes], Sequence[Result]]


class Applied(Record):
    """A fix that was applied: the rule whose finding it fixed, where, and the fix."""

    rule_id: str
    pointer: str
    fix: Fix


class FileFixes(Record):
    """What fixing one file did: its bytes before and after, the fixes applied, and why some were not (each
    problem completes "not fixed: FILE: ")."""

    path: Path
    shown: str
    before: bytes
    after: bytes
    applied: tuple[Applied, ...] = ()
    problems: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def diff(self) -> str:
        return unified_diff(self.shown, self.before, self.after)


def _key(fix: Fix) -> tuple[object, ...]:
    return tuple((e.start, e.end, e.content) for e in fix.edits)


def choose(results: Iterable[Result], unsafe: bool, refused: set[tuple[object, ...]]) -> list[Applied]:
    """The fixes to apply together: wanted, not refused before, in file order, none touching another."""
    taken: list[Applied] = []
    spans: list[tuple[int, int]] = []
    seen: set[tuple[object, ...]] = set()
    wanted = [r for r in results if r.fix is not None and r.fix.edits and (r.fix.safe or unsafe)]
    for result in sorted(wanted, key=lambda r: (r.fix.edits[0].start if r.fix else 0, r.rule_id)):
        fix = result.fix
        assert fix is not None
        key = _key(fix)
        if key in seen or key in refused:
            continue
        if any(e.start <= end and start <= e.end for e in fix.edits for start, end in spans):
            continue  # deferred: it overlaps (or touches) an edit already taken; the next round offers it again
        seen.add(key)
        taken.append(Applied(result.rule_id, result.pointer, fix))
        spans.extend((e.start, e.end) for e in fix.edits)
    return taken


def apply_fixes(raw: bytes, fixes: Iterable[Fix]) -> bytes:
    """``raw`` with every edit of ``fixes`` applied (they must not overlap)."""
    edits = sorted((e for fix in fixes for e in fix.edits), key=lambda e: (e.start, e.end), reverse=True)
    out = bytearray(raw)
    for edit in edits:
        out[edit.start : edit.end] = edit.content.encode("utf-8")
    return bytes(out)


def _added(before: Sequence[Result], after: Sequence[Result]) -> list[str]:
    """The rules that find more after than before."""
    counted = Counter(r.rule_id for r in before)
    return sorted(rule for rule, count in Counter(r.rule_id for r in after).items() if count > counted[rule])


def fix_bytes(path: Path, shown: str, raw: bytes, lint: Linter, unsafe: bool) -> FileFixes:
    """Fix ``raw`` (the bytes of ``path``, shown as ``shown``) in rounds, as the module docstring says."""
    problems: list[str] = []
    applied: list[Applied] = []
    refused: set[tuple[object, ...]] = set()
    current = raw
    if not load(shown, raw).parsed:
        return FileFixes(path, shown, raw, raw, (), ("is not valid JSON; run mechlint check to see why",))
    results = lint(current)
    seen = {current}
    for _ in range(MAX_ROUNDS):
        taken = choose(results, unsafe, refused)
        if not taken:
            break
        after = apply_fixes(current, (a.fix for a in taken))
        if not load(shown, after).parsed:
            titles = "; ".join(f"{a.rule_id} at {a.pointer or '/'}: {a.fix.title}" for a in taken)
            problems.append(f"the fixed text would not parse, so nothing was written ({titles})")
            return FileFixes(path, shown, raw, raw, (), tuple(problems))
        after_results = lint(after)
        if _added(results, after_results):
            taken, after, after_results = _one_at_a_time(current, results, taken, lint, refused, problems)
            if not taken:
                continue  # every fix of the round is refused now: the next round offers the others, if any
        applied.extend(taken)
        current, results = after, after_results
        if current in seen:
            break  # back to an earlier state: fixes that undo each other
        seen.add(current)
    else:
        if choose(results, unsafe, refused):
            problems.append(f"fixes are left after {MAX_ROUNDS} rounds; run the fix again")
    return FileFixes(path, shown, raw, current, tuple(applied), tuple(problems))


def _one_at_a_time(
    current: bytes,
    results: Sequence[Result],
    taken: list[Applied],
    lint: Linter,
    refused: set[tuple[object, ...]],
    problems: list[str],
) -> tuple[list[Applied], bytes, Sequence[Result]]:
    """The fixes of ``taken`` that add no finding, applied one after another; each other one is refused."""
    kept: list[Applied] = []
    after, after_results = current, results
    for candidate in taken:
        trial = apply_fixes(current, [a.fix for a in (*kept, candidate)])
        trial_results = lint(trial)
        added = _added(results, trial_results)
        if added:
            refused.add(_key(candidate.fix))
            problems.append(
                f"{candidate.rule_id} at {candidate.pointer or '/'} ({candidate.fix.title}) "
                f"would add a finding of {', '.join(added)}"
            )
            continue
        kept.append(candidate)
        after, after_results = trial, trial_results
    return kept, after, after_results


def unified_diff(shown: str, before: bytes, after: bytes) -> str:
    """A unified diff of the change (``a/`` and ``b/`` names, as git writes them); line endings kept."""
    lines = difflib.unified_diff(
        before.decode("utf-8", "replace").splitlines(keepends=True),
        after.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=f"a/{printable(shown)}",  # a line break in a file name must not start a line
        tofile=f"b/{printable(shown)}",
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
