"""Rule data files (TOML in ``rules/`` or named by the configuration), read and validated.

Every data file is untrusted: it is read as UTF-8 TOML, checked against its
JSON Schema in ``schemas/``, and any mistake becomes a :class:`ConfigError`
that names the file, the line where it can be found, and what was expected.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from mechlint.errors import ConfigError

MAX_DATA_FILE = 1024 * 1024


def line_of(text: str, needle: str, offset: int = 0) -> int | None:
    """The 1-based line of the first ``needle`` in ``text`` (plus ``offset`` characters)."""
    position = text.find(needle)
    if position < 0:
        return None
    return text.count("\n", 0, position + offset) + 1


def read_toml(path: Path, what: str) -> tuple[dict[str, Any], str]:
    """Parse one TOML file; ``what`` names it in messages ("the invariant file")."""
    from mechlint.safeio import NotReadable, read_regular

    try:
        text = read_regular(path, MAX_DATA_FILE).decode("utf-8")
        return tomllib.loads(text), text
    except NotReadable as error:
        raise ConfigError(f"{what} {error.reason}", path) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{what} is not UTF-8", path) from None
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        raise ConfigError(f"not valid TOML: {error}", path, int(match.group(1)) if match else None) from None


def check_schema(data: Any, schema_name: str, path: Path, text: str) -> None:
    """Raise a :class:`ConfigError` for the first way ``data`` breaks the shipped schema."""
    from mechlint.fastschema import shipped

    fast = shipped(schema_name)
    if fast is not None and fast(data):
        return  # valid; jsonschema is imported only to explain a mistake
    from jsonschema import Draft202012Validator

    from mechlint.resources import schema
    from mechlint.rules.schema.violation import describe_errors

    validator = Draft202012Validator(schema(schema_name))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for finding in describe_errors(errors):
        problem = finding.message.replace("the document", "the file")
        key = re.search(r"\"([^\"]+)\"", problem)
        raise ConfigError(problem, path, line_of(text, key.group(1)) if key else None)
