"""``check --fix``, ``--unsafe-fixes``, ``--diff`` and ``--show-fixes``: the fixing step before the check.

With ``--fix`` the wanted fixes are applied and written (atomically, per
file) and the check then reports what is left; with ``--diff`` a unified
diff of what would change is written on standard output, nothing is
written to the files, and the exit code is 1 when anything would change.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error
from mechlint.cli.output import write_output
from mechlint.config import Config
from mechlint.fixes.apply import FileFixes
from mechlint.safety.terminal import printable, printable_lines

__all__ = ["fix_step", "fixes_listing"]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fixes_listing(outcomes: Sequence[FileFixes], done: str = "Fixed") -> str:
    """``--show-fixes``: each file and how many findings of each rule were fixed in it (``done``: "Fixed", or
    "Would fix" for ``--diff``)."""
    changed = [o for o in outcomes if o.applied and o.changed]
    if not changed:
        return "No fixes applied.\n" if done == "Fixed" else "No fixes available.\n"
    lines = [f"{done} {_plural(sum(len(o.applied) for o in changed), 'problem')}:"]
    for outcome in changed:
        lines.append(f"- {printable(outcome.shown)}:")
        counts = Counter(applied.rule_id for applied in outcome.applied)
        lines.extend(f"    {count} × {rule_id}" for rule_id, count in sorted(counts.items()))
    return "\n".join(lines) + "\n"


def fix_step(
    targets: Sequence[str],
    config: Config,
    project_root: Path,
    source_root: Path | None,
    *,
    unsafe: bool,
    diff: bool,
    show_fixes: bool,
    quiet: int,
) -> int | None:
    """Fix (or, with ``diff``, show the fixes of) the files under ``targets``: the exit code when the command
    ends here (``--diff``, a file that cannot be written), ``None`` when the check goes on."""
    from mechlint.authoring.fixfiles import fix_files, write_fixed

    outcomes, skipped = fix_files(targets, config, project_root, source_root, unsafe)
    for reason in skipped:
        error(f"not fixed: {reason}")
    for outcome in outcomes:
        for problem in outcome.problems:
            error(f"not fixed: {printable(outcome.shown)}: {printable(problem)}")
    changed = [o for o in outcomes if o.changed]
    count = _plural(sum(len(o.applied) for o in changed), "problem")
    files = _plural(len(changed), "file")
    if diff:
        write_output(printable_lines("".join(o.diff() for o in changed)), None)
        if quiet < 2:
            sys.stderr.write(f"Would fix {count} in {files}.\n" if changed else "No fixes available.\n")
            if show_fixes and changed:
                sys.stderr.write(fixes_listing(outcomes, "Would fix"))
        return EXIT_FINDINGS if changed else EXIT_OK
    try:
        write_fixed(changed, project_root)
    except OSError as problem:
        error(f"cannot write a fixed file: {problem.strerror or problem} ({problem.filename})")
        return EXIT_USAGE
    if quiet < 2:
        if changed:
            sys.stderr.write(f"Fixed {count} in {files}.\n")
        if show_fixes:
            sys.stderr.write(fixes_listing(outcomes))
    return None
