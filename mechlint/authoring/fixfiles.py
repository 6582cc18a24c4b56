"""Fixing mechanism files on disk: what ``check --fix`` and ``--diff`` run before the check that reports what is
left."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from mechlint.config import Config, EnabledRule
from mechlint.document import load
from mechlint.fixes.apply import FileFixes, fix_bytes
from mechlint.model import Result
from mechlint.provenance.services import RunServices
from mechlint.run.adoption import apply_suppressions
from mechlint.run.checking import run_rules
from mechlint.run.discovery import base_folder, mechanism_files, read_candidate
from mechlint.run.fixattach import placed_with_fixes
from mechlint.safety.paths import display_path, relative_to_base
from mechlint.safety.safeio import write_atomically

__all__ = ["fix_files", "lint_for_fixes", "write_fixed"]


def lint_for_fixes(
    raw: bytes, shown: str, location: Path | None, enabled: Sequence[EnabledRule], config: Config, relative: str
) -> list[Result]:
    """The unsuppressed results of ``raw``, each with its fix: what a round of fixing works from."""
    document = load(shown, raw)
    document.location = location
    findings, _ = run_rules(document, enabled)
    results = placed_with_fixes(document, findings, enabled)
    if config.suppressions:
        marked = apply_suppressions(results, relative, config.suppressions).results
        results = [r for r in marked if r.suppressed is None]
    return results


def fix_files(
    paths: Iterable[str], config: Config, root: Path, source_root: Path | None, unsafe: bool
) -> tuple[list[FileFixes], list[str]]:
    """What fixing every mechanism file under ``paths`` gives (nothing is written), and the files that could not
    be read."""
    cwd = Path.cwd()
    base = base_folder(config, root)
    services = RunServices(root=root, source_root=source_root, frozen_pattern=config.frozen_pattern())
    enabled = [e._replace(context=e.context._replace(services=services)) for e in config.enabled()]
    outcomes: list[FileFixes] = []
    skipped: list[str] = []
    try:
        for candidate in mechanism_files(paths, config, root):
            shown = display_path(candidate.path, cwd)
            raw = read_candidate(candidate, config, root)
            if isinstance(raw, str):
                skipped.append(f"{shown} {raw}")
                continue
            location = candidate.path.absolute()
            relative = relative_to_base(candidate.path, base) or shown

            def lint(
                data: bytes, shown: str = shown, location: Path = location, relative: str = relative
            ) -> list[Result]:
                return lint_for_fixes(data, shown, location, enabled, config, relative)

            outcomes.append(fix_bytes(candidate.path, shown, raw, lint, unsafe))
    finally:
        services.close()
    return outcomes, skipped


def write_fixed(outcomes: Iterable[FileFixes], root: Path) -> None:
    """Write each changed file atomically; a link inside ``root`` is written through, so the link stays."""
    for outcome in outcomes:
        if outcome.changed:
            write_atomically(outcome.path, outcome.after, root)
