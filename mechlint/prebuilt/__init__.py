"""Shipped data prepared before the run (written by ``python -m mechlint.prebuild``), and the way a run takes it.

A check of one file used to spend a noticeable part of its time on the files
that ship with mechlint: the word lists and the built-in invariants (TOML,
validated against their schemas) and the mechanism schema (compiled into
Python by :mod:`mechlint.fastschema`). :mod:`mechlint.prebuild` does that work
once and writes the results here (``data.py``, one module per schema), so a
run imports them, bytecode cached like any module.

A prebuilt value is used only while the file it came from still has the
bytes it was built from: the SHA-256 of each file is kept beside its value
and compared with the file's bytes (reading and hashing them is cheap beside
parsing them). A file that changed (an edited install, a checkout between
two commits) is read and validated as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from mechlint.resources import data_folder

__all__ = ["PREBUILT_SCHEMAS", "prebuilt_data", "prebuilt_schema", "shipped_bytes"]

#: The shipped schemas compiled ahead, with the module (here) each one is written to.
PREBUILT_SCHEMAS = {"mechanism.schema.json": "mechanism_schema"}


def shipped_bytes(relative: str) -> bytes | None:
    """The bytes of a shipped file, named from its data folder (``rules/plain/words.toml``); ``None`` if unreadable."""
    folder, _, name = relative.partition("/")
    try:
        return (data_folder(folder) / name).read_bytes()
    except OSError:
        return None


def prebuilt_data(relative: str) -> tuple[Any, str] | None:
    """The validated data of a shipped TOML file and its text; ``None`` if it was not prebuilt from these bytes.

    The data is shared by every caller: read it, never change it.
    """
    from mechlint.prebuilt.data import FILES

    entry = FILES.get(relative)
    raw = shipped_bytes(relative) if entry is not None else None
    if entry is None or raw is None or hashlib.sha256(raw).hexdigest() != entry[0]:
        return None
    return entry[1], raw.decode("utf-8")


def prebuilt_schema(name: str) -> Callable[[Any], bool] | None:
    """The compiled ``check`` of a shipped schema; ``None`` if it was not prebuilt from the file as it is."""
    module_name = PREBUILT_SCHEMAS.get(name)
    raw = shipped_bytes(f"schemas/{name}") if module_name is not None else None
    if raw is None:
        return None
    module = __import__(f"mechlint.prebuilt.{module_name}", fromlist=["check"])
    check: Callable[[Any], bool] = module.check
    return check if hashlib.sha256(raw).hexdigest() == module.DIGEST else None
