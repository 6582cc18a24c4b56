"""``mechlint new PATH``: a new mechanism file with placeholders for the author to fill in.

The file is valid: it passes every rule except ``schema/placeholder``, which
lists each ``TODO: …`` left to write with what belongs there. It has the
smallest shape that shows every part of the format: a source, a limitation,
two boxes joined by an arrow, one state field and one scenario of two steps.
It never overwrites anything: the path is created exclusively (an existing
file, folder or link, even a broken one, is refused), then written through
a temporary file in the same folder and a rename.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mechlint.resources import schema
from mechlint.rules.schema.placeholder import META as PLACEHOLDER_META

PLACEHOLDER_RULE = PLACEHOLDER_META.id


class NewFileError(Exception):
    """The file cannot be written (it exists, a value is wrong): a usage error."""


def schema_url() -> str:
    """The published URL (``$id``) of the mechanism schema."""
    return str(schema("mechanism.schema.json")["$id"])


def template(title: str | None = None, language: str = "en", schema_ref: str | None = None) -> dict[str, Any]:
    """The new document; ``schema_ref`` is the ``$schema`` value (default: the published URL; "" leaves it out)."""
    step = {"duration": 6000, "paths": []}
    document: dict[str, Any] = {
        "$schema": schema_url() if schema_ref is None else schema_ref,
        "version": 1,
        "language": language,
        "title": title or "TODO: the title, one line",
        "description": "TODO: what the mechanism shows, in one or two sentences",
        "caption": "TODO: the caption under the diagram; say what the playback does not show",
        "alt": "TODO: what happens in the diagram, in order, for people who cannot see it",
        "sources": [
            {
                "path": "TODO: the path of the file this explains, from the repository root",
                "description": "TODO: what the mechanism takes from this file",
            }
        ],
        "limitations": ["TODO: one thing the reader must not conclude from the playback"],
        "targets": {
            "first": {"id": "mechanism-first", "kind": "node", "label": "TODO: first box"},
            "second": {"id": "mechanism-second", "kind": "node", "label": "TODO: second box"},
            "link": {"id": "mechanism-link", "kind": "edge", "label": "TODO: the arrow"},
        },
        "stateLabels": {"stage": "TODO: the name of the state field"},
        "scenarios": [
            {
                "id": "main",
                "title": "TODO: the scenario's title",
                "description": "TODO: what this scenario shows",
                "initial": {"stage": "TODO: the state before the first step"},
                "unselected": [],
                "steps": [
                    {
                        "title": "TODO: what happens first",
                        "description": "TODO: the caption of the first step",
                        **step,
                        "active": ["first"],
                        "state": {"stage": "TODO: the state during the first step"},
                    },
                    {
                        "title": "TODO: what happens next",
                        "description": "TODO: the caption of the second step",
                        **step,
                        "active": ["second"],
                        "paths": ["link"],
                        "state": {"stage": "TODO: the state during the second step"},
                    },
                ],
            }
        ],
    }
    if not document["$schema"]:
        del document["$schema"]
    return document


def render(document: dict[str, Any]) -> bytes:
    """The file's bytes: two-space indentation, UTF-8, a final newline (as the seed is written)."""
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@dataclass(frozen=True, slots=True)
class Written:
    path: Path
    created_folders: tuple[Path, ...]


def create(path: Path, data: bytes) -> Written:
    """Write ``data`` to ``path``, which must not exist; missing folders above it are created."""
    from mechlint.authoring.edit import write_atomically

    if os.path.lexists(path):
        raise NewFileError(f"{path} already exists; mechlint new never overwrites a file")
    absolute = Path(os.path.abspath(path))
    missing = [folder for folder in reversed(absolute.parents) if not os.path.lexists(folder)]
    try:
        for folder in missing:
            folder.mkdir()
        handle = os.open(absolute, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except FileExistsError:
        raise NewFileError(f"{path} already exists; mechlint new never overwrites a file") from None
    except (OSError, ValueError) as error:
        raise NewFileError(f"cannot create {path}: {getattr(error, 'strerror', None) or error}") from None
    os.close(handle)  # the name is ours now; the bytes arrive whole, through a rename
    try:
        write_atomically(absolute, data)
    except BaseException as error:  # Ctrl-C too: the empty name we reserved is not left behind
        absolute.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise NewFileError(f"cannot write {path}: {error.strerror or error}") from None
        raise
    return Written(path, tuple(missing))


def _placeholders(value: Any) -> int:
    """How many strings of ``value`` are placeholders."""
    from mechlint.document.placeholder import is_placeholder

    if isinstance(value, str):
        return int(is_placeholder(value))
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return sum(_placeholders(item) for item in items)


def run_new(path: Path, title: str | None, language: str, schema_ref: str | None, config_file: Path | None) -> int:
    """``mechlint new``: write the file, say what to do next; the exit code."""
    import sys

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
    count = _placeholders(json.loads(data))
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
