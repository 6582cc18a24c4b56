"""The fast path of ``check``: a small parser that knows exactly the options of ``check``, without typer.

A pre-commit hook runs ``mechlint check FILE...`` on every commit, and typer
(with click) takes longer to import than checking a file. :func:`parse_check`
reads the common ``check`` invocations; anything it does not fully understand
(``--help``, an unknown option, an option without its value) gives ``None``, and the console
script (:mod:`mechlint.cli.entry`) hands the arguments to typer, which prints
its usual help and errors. Values (a format's name, a level, a number) are
checked by :func:`~mechlint.cli.run_check.run_check`, so both parsers give the
same message for a mistake in one. The typer declaration is its plain twin,
beside it in :mod:`mechlint.cli.check`; ``tests/test_entry.py`` checks that both
parsers know the same options, parse every command line the fast one accepts
into the same options (a property test), and give the same output;
``benchmarks/fast_paths.py`` measures the start-up it saves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mechlint.cli.run_check import CheckOptions

__all__ = ["OPTIONS", "parse_check"]

#: option name → (field of CheckOptions, kind); kinds: value, list, flag, no-flag, count.
OPTIONS: dict[str, tuple[str, str]] = {
    "--format": ("output_format", "value"),
    "-f": ("output_format", "value"),
    "--output": ("outputs", "list"),
    "-o": ("outputs", "list"),
    "--select": ("select", "list"),
    "--ignore": ("ignore", "list"),
    "--fail-on": ("fail_on", "value"),
    "--config": ("config_file", "value"),
    "--root": ("root", "value"),
    "--color": ("color", "flag"),
    "--no-color": ("color", "no-flag"),
    "--show-suppressed": ("show_suppressed", "flag"),
    "--no-show-suppressed": ("show_suppressed", "no-flag"),
    "--baseline": ("baseline", "value"),
    "--update-baseline": ("update_baseline", "flag"),
    "--no-update-baseline": ("update_baseline", "no-flag"),
    "--since": ("since", "value"),
    "--changed-files": ("changed_files", "flag"),
    "--jobs": ("jobs", "value"),
    "-j": ("jobs", "value"),
    "--cache": ("cache", "flag"),
    "--no-cache": ("cache", "no-flag"),
    "--show-source": ("show_source", "flag"),
    "--no-show-source": ("show_source", "no-flag"),
    "--statistics": ("statistics", "flag"),
    "--quiet": ("quiet", "count"),
    "-q": ("quiet", "count"),
    "--stdin-filename": ("stdin_filename", "value"),
    "--fix": ("fix", "flag"),
    "--no-fix": ("fix", "no-flag"),
    "--unsafe-fixes": ("unsafe_fixes", "flag"),
    "--no-unsafe-fixes": ("unsafe_fixes", "no-flag"),
    "--diff": ("diff", "flag"),
    "--show-fixes": ("show_fixes", "flag"),
    "--no-show-fixes": ("show_fixes", "no-flag"),
}
#: Short flags written together that count: ``-qq`` is ``-q -q``.
_COUNTED = {"-qq": ("quiet", 2)}
_PATHS = {"config_file", "root", "baseline", "stdin_filename"}


def parse_check(argv: list[str]) -> CheckOptions | None:
    """The options of ``check ARGS``, or ``None`` when typer should parse them instead."""
    values: dict[str, Any] = {"paths": [], "outputs": [], "select": [], "ignore": []}
    index = 0
    only_paths = False
    while index < len(argv):
        argument = argv[index]
        index += 1
        if only_paths or not argument.startswith("-") or argument == "-":
            values["paths"].append(argument)
            continue
        if argument == "--":
            only_paths = True
            continue
        if argument in _COUNTED:
            field_name, times = _COUNTED[argument]
            values[field_name] = values.get(field_name, 0) + times
            continue
        name, equals, inline = argument.partition("=")
        if name not in OPTIONS or (equals and not name.startswith("--")):
            return None
        field_name, kind = OPTIONS[name]
        if kind == "count":
            if equals:
                return None
            values[field_name] = values.get(field_name, 0) + 1
            continue
        if kind in ("flag", "no-flag"):
            if equals:
                return None
            values[field_name] = kind == "flag"
            continue
        if equals:
            value = inline
        elif index < len(argv):
            value = argv[index]
            index += 1
        else:
            return None
        if kind == "list":
            values[field_name].append(value)
        elif field_name in _PATHS:
            values[field_name] = Path(value)
        else:  # --format, --fail-on and --jobs are checked by run_check, for both parsers alike
            values[field_name] = value
    return CheckOptions(**values)
