"""``mechlint new`` (a first mechanism file with placeholders) and ``mechlint schema`` (the editor schema)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from mechlint.cli.output import write_output

__all__ = ["new_file", "print_schema", "run_new"]


def new_file(
    path: Annotated[Path, typer.Argument(help="The mechanism file to create; it must not exist.")],
    title: Annotated[Optional[str], typer.Option(help="The title (default: a placeholder).")] = None,  # noqa: UP045
    language: Annotated[str, typer.Option(help="The BCP 47 language tag of the prose.")] = "en",
    schema: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help='The "$schema" value, a URL or a relative path (default: the published URL; "" for none).'),
    ] = None,
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Use this configuration file.")] = None,  # noqa: UP045
) -> None:
    """Write a new mechanism file to fill in. It is valid, has TODO placeholders and never overwrites a file."""
    raise typer.Exit(run_new(path, title, language, schema, config_file))


def print_schema() -> None:
    """Print the JSON Schema of mechanism files. Save it in the repository for an editor that should not fetch it."""
    from mechlint.resources import data_folder

    write_output((data_folder("schemas") / "mechanism.schema.json").read_text(encoding="utf-8"), None)


def run_new(path: Path, title: str | None, language: str, schema_ref: str | None, config_file: Path | None) -> int:
    """``mechlint new``: write the file, say what to do next; the exit code."""
    import json
    import os
    import sys

    from mechlint.authoring.new import PLACEHOLDER_RULE, NewFileError, create, placeholder_count, render, template
    from mechlint.catalog.docs import DOCS_URL
    from mechlint.cli.exits import EXIT_OK, EXIT_USAGE, config_error
    from mechlint.cli.exits import error as _error
    from mechlint.cli.stdin import project_root_for
    from mechlint.config import load_config
    from mechlint.errors import ConfigError
    from mechlint.model import Level
    from mechlint.run.discovery import is_mechanism_file
    from mechlint.run.engine import lint_bytes
    from mechlint.safety.terminal import printable

    absolute = Path(os.path.abspath(path))
    shown = printable(str(path))
    if "\x00" in str(path) or absolute.name in ("", ".", ".."):
        _error(f"{shown!r} is not a file name; nothing written")
        return EXIT_USAGE
    for option, value in (("--title", title), ("--language", language), ("--schema", schema_ref)):
        try:
            (value or "").encode("utf-8")
        except UnicodeEncodeError:
            _error(f"{option} is not valid UTF-8 text; {shown} not written")
            return EXIT_USAGE
    if title is not None and not title.strip():
        _error(f"--title is blank; leave it out for a placeholder. {shown} not written")
        return EXIT_USAGE
    try:
        config = load_config(config_file, start=absolute.parent)
    except ConfigError as error:
        config_error(error)
        return EXIT_USAGE
    data = render(template(title, language, schema_ref))
    given = {"/title", "/language", "/$schema"}  # the values that came from the command line
    found = lint_bytes(data, shown, config)
    wrong = [r for r in found if r.pointer in given and r.level >= Level.ERROR and r.rule_id != PLACEHOLDER_RULE]
    if wrong:
        for result in wrong:
            _error(f"{result.message} [{result.rule_id}]")
        _error(f"{shown} not written")
        return EXIT_USAGE
    try:
        written = create(path, data)
    except NewFileError as error:
        _error(printable(str(error)))
        return EXIT_USAGE
    for folder in written.created_folders:
        sys.stderr.write(f"Created the folder {printable(os.path.relpath(folder))}.\n")
    count = placeholder_count(json.loads(data))
    listed = any(e.rule.meta.id == PLACEHOLDER_RULE for e in config.enabled())
    left = f"`mechlint check {shown}` lists what is left" if listed else f"search for TODO ({PLACEHOLDER_RULE} is off)"
    sys.stderr.write(
        f"Wrote {shown}: fill in its {count} placeholders (TODO: …); {left}. The format, key by key: "
        f"{DOCS_URL}/format.md\n"
    )
    if not is_mechanism_file(absolute, config, project_root_for(absolute.parent)):
        patterns = ", ".join(config.include) or "none"
        sys.stderr.write(
            f"mechlint: warning: {shown} does not match the include patterns ({patterns}) or is excluded, so "
            "`mechlint check` on a folder will skip it; put it in a mechanisms/ folder, name it *.mechanism.json, "
            "or add it to include.\n"
        )
    return EXIT_OK
