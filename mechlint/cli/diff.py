"""``mechlint diff``: what changed in each source since its pin, as a unified diff, for review before ``pin``.

Exit codes, as ``diff`` and ``git diff --exit-code`` give them: 0 no source
differs from its pin, 1 at least one does (whether or not its pinned bytes
could be found), 2 a usage error or a file that cannot be read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mechlint.cli.exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error
from mechlint.cli.inputs import RootOption, provenance_or_exit
from mechlint.records import Record

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Provenance
    from mechlint.provenance.source import Source
    from mechlint.review.drift import Drift
    from mechlint.review.render import Cited, Reviewed

__all__ = ["diff", "reviewed_sources"]

FORMATS = ("text", "json")


def diff(
    files: Annotated[
        Optional[list[Path]],  # noqa: UP045 - typer needs Optional on Python 3.11
        typer.Argument(
            metavar="PATHS",
            help="Mechanism files and folders (walked as check walks them), or source files: only their diffs are "
            "shown (default: the current folder).",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help="Output format: text or json.")
    ] = "text",
    color: Annotated[Optional[bool], typer.Option("--color/--no-color", help="Colour the diff.")] = None,  # noqa: UP045
    root: RootOption = None,
) -> None:
    """Show what changed in each source since its pin: where the pinned bytes are, and a diff to the current ones.

    Exit 0 when every source holds its pinned bytes, 1 when one differs, 2 on a usage error.
    """
    from mechlint.cli.output import use_color, write_output
    from mechlint.cli.pin import _mechanism_files as mechanism_files  # the files pin and check would read

    if output_format not in FORMATS:
        error(f"unknown format {output_format!r}; use one of: {', '.join(FORMATS)}")
        raise typer.Exit(EXIT_USAGE)
    named = [path for path in files or [] if _names_a_source(path)]
    found = mechanism_files([path for path in files or [] if path not in named] or [Path(".")])
    provenance = provenance_or_exit(root)
    matched: set[str] = set()
    try:
        reviewed, problems, uncompared = reviewed_sources(found, provenance, _only(named, matched))
        for path in named:  # a name that is nowhere and that no changed source has is a mistake, as in git diff
            if not os.path.lexists(path) and os.path.abspath(path) not in matched:
                problems.append(f"{path}: no such file or folder, and no changed source has that path")
        if output_format == "json":
            write_output(_json(reviewed, uncompared), None)
        else:
            painted = use_color(color)
            write_output("".join(_text(r, painted) for r in reviewed), None)
    finally:
        provenance.close()
    for problem in problems:
        error(problem)
    if uncompared and output_format == "text":
        _say_not_compared(uncompared)
    if reviewed and output_format == "text":
        count = f"{len(reviewed)} source{'s differ' if len(reviewed) != 1 else ' differs'}"
        typer.echo(f"{count} from the pin: review the change, then run mechlint pin.", err=True)
    if problems:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FINDINGS if reviewed else EXIT_OK)


def _names_a_source(path: Path) -> bool:
    """A path that is no folder and no JSON file names a source (present or deleted), as ``git diff PATH`` does."""
    return not path.is_dir() and path.suffix.lower() != ".json"


def _only(named: list[Path], matched: set[str]) -> Callable[[Source, Drift], bool] | None:
    """Which drifts to show when source files are named: those whose file (then or now) is one of them (each
    name that chose one goes into ``matched``)."""
    if not named:
        return None
    wanted = {os.path.abspath(path) for path in named}

    def chosen(source: Source, drift: Drift) -> bool:
        base = source.repository.base
        paths = (drift.path, drift.current_path, drift.pinned_path)
        hits = {os.path.abspath(os.path.join(base, path)) for path in paths if path} & wanted
        matched.update(hits)
        return bool(hits)

    return chosen


class Uncompared(Record):
    """A source that does not hold its pinned bytes but has nothing to diff: why, and where it is cited."""

    path: str
    why: str
    cited: list[Cited]


def reviewed_sources(
    found: list[tuple[Path, bytes]], provenance: Provenance, only: Callable[[Source, Drift], bool] | None = None
) -> tuple[list[Reviewed], list[str], list[Uncompared]]:
    """Every drifted source of these mechanism files (those ``only`` chooses), once each, with the places that cite
    it; the problems; and the sources that cannot be compared with a pin (none when ``only`` chooses)."""
    from mechlint.document import load
    from mechlint.review.drift import drift_of, not_compared
    from mechlint.review.render import Cited, review

    drifts: dict[int, tuple[Source, Drift, list[Cited]]] = {}
    uncompared: dict[int, Uncompared] = {}
    problems: list[str] = []
    for path, raw in found:
        shown = path.as_posix()
        document = load(shown, raw)
        if not document.parsed:
            problems.append(f"{shown}: is not valid JSON; run mechlint check to see why")
            continue
        for sourced in provenance.sources(document.data, path.absolute()):
            source = sourced.source
            cited = Cited(shown, sourced.pointer)
            if id(source) in uncompared:
                uncompared[id(source)].cited.append(cited)
                continue
            known = drifts.get(id(source))
            if known is None:
                drift = drift_of(source)
                if drift is None:
                    if only is None and (why := not_compared(source)):
                        uncompared[id(source)] = Uncompared(source.path, why, [cited])
                    continue
                if only is not None and not only(source, drift):
                    continue
                known = drifts[id(source)] = (source, drift, [])
            known[2].append(cited)
    reviewed = [review(drift, tuple(cited)) for _, drift, cited in drifts.values()]
    return reviewed, problems, list(uncompared.values())


def _say_not_compared(uncompared: list[Uncompared]) -> None:
    """On standard error: the sources with nothing to diff, so that silence never reads as "all pinned"."""
    from mechlint.document.views import quote
    from mechlint.safety.terminal import printable

    count = len(uncompared)
    lines = [
        f"{count} source{'s' if count != 1 else ''} cannot be compared with a pin (mechlint check reports "
        f"{'each' if count != 1 else 'it'}):"
    ]
    lines += [printable(f"  {quote(u.path, 200)}: {u.why}") for u in uncompared]
    typer.echo("\n".join(lines), err=True)


def _text(reviewed: Reviewed, color: bool) -> str:
    from mechlint.review.render import as_terminal

    return as_terminal(reviewed, color)


def _json(reviewed: list[Reviewed], uncompared: list[Uncompared]) -> str:
    import json

    from mechlint.review.render import JSON_VERSION, as_data
    from mechlint.safety.terminal import inert_json

    data = {
        "version": JSON_VERSION,
        "changed": len(reviewed),
        "sources": [as_data(r) for r in reviewed],
        "not_compared": [
            {"path": u.path, "why": u.why, "cited_by": [{"file": c.file, "pointer": c.pointer} for c in u.cited]}
            for u in uncompared
        ],
    }
    return inert_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"
