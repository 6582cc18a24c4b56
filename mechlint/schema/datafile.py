"""Rule data files (TOML in ``rules/`` or named by the configuration), read and validated.

Every data file is untrusted: it is read as UTF-8 TOML, checked against its
JSON Schema in ``schemas/``, and any mistake becomes a :class:`ConfigError`
that names the file, the line where it can be found, and what was expected.
"""

from __future__ import annotations

import re
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


#: Arrays and tables nested deeper than this are refused (tomllib recurses once a level; no rule file needs 10).
MAX_TOML_DEPTH = 64


def _deep_line(text: str) -> int | None:
    """The line where brackets outside strings and comments first nest deeper than :data:`MAX_TOML_DEPTH`."""
    depth, quote, line, index = 0, "", 1, 0
    while index < len(text):
        char = text[index]
        if char == "\n":
            line += 1
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        elif char in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return line
        elif char in "]}":
            depth = max(depth - 1, 0)
        index += 1
    return None


def _too_deep(data: Any) -> bool:
    """Whether tables and arrays nest deeper than :data:`MAX_TOML_DEPTH` (iteratively: no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_TOML_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """``tomllib.loads``, with nesting bounded: too deep is a :class:`ConfigError` naming the line."""
    import tomllib  # only here: a run without a configuration file reads no TOML (see mechlint.prebuilt)

    try:
        data = tomllib.loads(text)
    except RecursionError:
        data = None
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        raise ConfigError(f"not valid TOML: {error}", path, int(match.group(1)) if match else None) from None
    if data is None or _too_deep(data):
        raise ConfigError(
            f"arrays and tables are nested more than {MAX_TOML_DEPTH} levels deep; flatten them", path, _deep_line(text)
        )
    return data


def read_toml(path: Path, what: str) -> tuple[dict[str, Any], str]:
    """Parse one TOML file; ``what`` names it in messages ("the invariant file")."""
    from mechlint.safety.safeio import NotReadable, read_regular

    try:
        text = read_regular(path, MAX_DATA_FILE).decode("utf-8")
    except NotReadable as error:
        raise ConfigError(f"{what} {error.reason}", path) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{what} is not UTF-8", path) from None
    return parse_toml(text, path), text


def check_schema(data: Any, schema_name: str, path: Path, text: str) -> None:
    """Raise a :class:`ConfigError` for the first way ``data`` breaks the shipped schema."""
    from mechlint.schema.fastschema import shipped

    fast = shipped(schema_name)
    if fast is not None and fast(data):
        return  # valid; jsonschema is imported only to explain a mistake
    from mechlint.resources import schema
    from mechlint.schema.ecmavalidator import validator_class
    from mechlint.schema.schema_errors import describe_errors

    validator = validator_class()(schema(schema_name))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    for finding in describe_errors(errors, rule_id=""):  # only its message is kept, in a ConfigError
        problem = finding.message.replace("the document", "the file")
        key = re.search(r"\"([^\"]+)\"", problem)
        raise ConfigError(problem, path, line_of(text, key.group(1)) if key else None)
