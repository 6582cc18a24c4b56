"""Files that ship with mechlint: JSON Schemas and rule data.

In a wheel they live in ``mechlint/_data/`` (copied there from the top-level
``schemas/`` and ``rules/`` folders at build time); in a source checkout they
are read from those folders directly.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def data_folder(name: str) -> Path:
    """The folder of shipped data called ``name`` (``schemas`` or ``rules``)."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


@cache
def schema(name: str) -> dict[str, Any]:
    """A shipped JSON Schema, parsed once per process."""
    with open(data_folder("schemas") / name, encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded
