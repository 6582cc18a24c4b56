"""Shipped data prepared before the run, and the way a run takes it.

Written by ``python -m mechlint.authoring.prebuild``.

A check of one file used to spend a noticeable part of its time on the files
that ship with mechlint: the word lists and the built-in invariants (TOML,
validated against their schemas) and the mechanism schema (compiled into
Python by :mod:`mechlint.schema.fastschema`). :mod:`mechlint.authoring.prebuild` does that work
once and writes the results here (``data.py``, one module per schema), so a
run imports them, bytecode cached like any module.

A prebuilt value is used only while the file it came from, and what made
the value from it (the schema that validated a data file, or
``fastschema.py``, which compiled a schema), still have the bytes it was
built from: their SHA-256 is kept beside the value and compared with the
files (reading and hashing them is cheap beside parsing them). A value whose
sources changed (an edited install, a checkout between two commits) is made
again from the files, as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mechlint.resources import data_folder

__all__ = [
    "COMPILER",
    "PREBUILT_SCHEMAS",
    "built_from",
    "prebuilt_data",
    "prebuilt_schema",
    "shipped_bytes",
    "validating_schema",
]

#: The shipped schemas compiled ahead, with the module (here) each one is written to.
PREBUILT_SCHEMAS = {"mechanism.schema.json": "mechanism_schema"}
#: The compiler of the schemas: a prebuilt schema module is what this file made of the schema.
COMPILER = Path(__file__).resolve().parent.parent / "schema" / "fastschema.py"


def shipped_bytes(relative: str) -> bytes | None:
    """The bytes of a shipped file, named from its data folder (``rules/plain/words.toml``); ``None`` if unreadable."""
    folder, _, name = relative.partition("/")
    try:
        return (data_folder(folder) / name).read_bytes()
    except OSError:
        return None


def validating_schema(relative: str) -> str:
    """The schema (in ``schemas/``) a shipped data file (``rules/…``) is validated with."""
    return "invariants.schema.json" if relative.startswith("rules/invariants/") else "word-lists.schema.json"


def built_from(relative: str, raw: bytes | None = None) -> str | None:
    """The digest of what a prebuilt value of the shipped file ``relative`` (``rules/…``, ``schemas/…``) is made of.

    The file's bytes (``raw``, when already read), and what made the value from
    them: the schema that validated a data file, or :mod:`mechlint.schema.fastschema`,
    which compiled a schema. ``None`` when one of them cannot be read.
    """
    if relative.startswith("schemas/"):
        try:
            maker: bytes | None = COMPILER.read_bytes()
        except OSError:
            maker = None
    else:
        maker = shipped_bytes(f"schemas/{validating_schema(relative)}")
    raw = shipped_bytes(relative) if raw is None else raw
    if raw is None or maker is None:
        return None
    digest = hashlib.sha256()
    for part in (raw, maker):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def prebuilt_data(relative: str) -> tuple[Any, str] | None:
    """The validated data of a shipped TOML file and its text; ``None`` if it was not prebuilt from these bytes.

    The data is shared by every caller: read it, never change it.
    """
    from mechlint.prebuilt.data import FILES

    entry = FILES.get(relative)
    raw = shipped_bytes(relative) if entry is not None else None
    if entry is None or raw is None or built_from(relative, raw) != entry[0]:
        return None
    return entry[1], raw.decode("utf-8")


def prebuilt_schema(name: str) -> Callable[[Any], bool] | None:
    """The compiled ``check`` of a shipped schema; ``None`` if not prebuilt from the schema and compiler as they are."""
    module_name = PREBUILT_SCHEMAS.get(name)
    digest = built_from(f"schemas/{name}") if module_name is not None else None
    if digest is None:
        return None
    module = __import__(f"mechlint.prebuilt.{module_name}", fromlist=["check"])
    check: Callable[[Any], bool] = module.check
    return check if digest == module.DIGEST else None
