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
    from mechlint.document.edit import write_atomically

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


def placeholder_count(value: Any) -> int:
    """How many strings of ``value`` are placeholders."""
    from mechlint.document.placeholder import is_placeholder

    if isinstance(value, str):
        return int(is_placeholder(value))
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return sum(placeholder_count(item) for item in items)
