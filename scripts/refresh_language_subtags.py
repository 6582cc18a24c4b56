"""Derive ``rules/language/subtags.json`` from the IANA Language Subtag Registry.

Usage::

    python scripts/refresh_language_subtags.py REGISTRY [OUTPUT]

``REGISTRY`` is the registry as IANA publishes it (the record-jar text file
``language-subtag-registry``), or the same records as a JSON array (as the
``language-tags`` package ships them in ``data/json/registry.json``).
``OUTPUT`` defaults to ``rules/language/subtags.json`` next to this script's
folder; the language names go beside it, in ``names.json``. No network is
used: download the registry yourself, or take the copy a package ships
(``pip download --no-deps language-tags``), then run this.

The output keeps only what ``a11y/language`` needs, compactly: the subtags of
each type (ranges such as ``qaa..qtz`` expanded), the prefix of each extended
language subtag, the preferred value of each deprecated subtag and of each
deprecated grandfathered or redundant tag, and a table from single-word English
language names ("english") to their subtag, for suggestions.
"""

from __future__ import annotations

import json
import string
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent.parent / "rules" / "language" / "subtags.json"
SUBTAG_TYPES = ("language", "extlang", "script", "region", "variant")


def records(text: str) -> Iterator[dict[str, list[str]]]:
    """The records of the record-jar text (RFC 5646, 3.1.1): fields, continuation lines folded."""
    for chunk in text.split("\n%%"):
        record: dict[str, list[str]] = {}
        last: str | None = None
        for line in chunk.splitlines():
            if not line.strip() or line.startswith("%%"):
                continue
            if line[0].isspace() and last is not None:
                record[last][-1] += " " + line.strip()
                continue
            name, _, value = line.partition(":")
            last = name.strip()
            record.setdefault(last, []).append(value.strip())
        if record:
            yield record


def json_records(items: Iterable[dict[str, Any]]) -> Iterator[dict[str, list[str]]]:
    """The same records from a JSON array whose values are strings or lists of strings."""
    for item in items:
        yield {key: value if isinstance(value, list) else [str(value)] for key, value in item.items()}


def expand(subtag: str) -> list[str]:
    """``qaa..qtz`` as every subtag in the range; any other subtag alone."""
    if ".." not in subtag:
        return [subtag]
    low, high = subtag.split("..")
    alphabet = string.digits if low.isdigit() else string.ascii_lowercase
    found: list[str] = []

    def walk(prefix: str, position: int) -> None:
        if position == len(low):
            if low.lower() <= prefix <= high.lower():
                found.append(prefix)
            return
        for char in alphabet:
            candidate = prefix + char
            if low.lower()[: position + 1] <= candidate <= high.lower()[: position + 1]:
                walk(candidate, position + 1)

    walk("", 0)
    return found


def derive(items: Iterable[dict[str, list[str]]]) -> dict[str, Any]:
    """The compact table ``mechlint.language.langregistry`` reads."""
    subtags: dict[str, set[str]] = {kind: set() for kind in SUBTAG_TYPES}
    extlang_prefix: dict[str, str] = {}
    deprecated: dict[str, dict[str, str]] = {kind: {} for kind in (*SUBTAG_TYPES, "tag")}
    names: dict[str, set[str]] = {}
    file_date = ""
    for record in items:
        if "File-Date" in record:
            file_date = record["File-Date"][0]
        kind = record.get("Type", [""])[0]
        preferred = record.get("Preferred-Value", [""])[0]
        if kind in ("grandfathered", "redundant"):
            tag = record["Tag"][0].lower()
            if "Deprecated" in record:
                deprecated["tag"][tag] = preferred
            continue
        if kind not in subtags:
            continue
        for subtag in expand(record["Subtag"][0]):
            subtag = subtag.lower()
            subtags[kind].add(subtag)
            if kind == "extlang":
                extlang_prefix[subtag] = record.get("Prefix", [""])[0].lower()
            if "Deprecated" in record:
                deprecated[kind][subtag] = preferred
            elif kind == "language" and ".." not in record["Subtag"][0]:
                for description in record.get("Description", []):
                    name = description.lower()
                    if name.isascii() and name.isalpha():
                        names.setdefault(name, set()).add(subtag)
    # a name shared by several languages suggests the shortest code, and only if that one is unique
    chosen: dict[str, str] = {}
    for name, codes in names.items():
        shortest = min(len(code) for code in codes)
        best = sorted(code for code in codes if len(code) == shortest)
        if len(best) == 1:
            chosen[name] = best[0]
    return {
        "file-date": file_date,
        **{kind: " ".join(sorted(values)) for kind, values in subtags.items()},
        "extlang-prefix": dict(sorted(extlang_prefix.items())),
        "deprecated": {kind: dict(sorted(values.items())) for kind, values in deprecated.items()},
        "names": dict(sorted(chosen.items())),
    }


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__, file=sys.stderr)
        return 2
    source = Path(argv[0])
    text = source.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        items = list(json_records(json.loads(text)))
        meta = source.with_name("meta.json")  # language-tags keeps the File-Date beside the records
        if meta.is_file():
            items.insert(0, {"Type": [""], **json_records([json.loads(meta.read_text(encoding="utf-8"))]).__next__()})
        table = derive(items)
    else:
        table = derive(records(text))
    output = Path(argv[1]) if len(argv) == 2 else OUTPUT
    output.parent.mkdir(parents=True, exist_ok=True)
    names = table.pop("names")  # only needed to suggest a tag: a file of its own, read only then
    output.write_text(json.dumps(table, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    output.with_name("names.json").write_text(json.dumps(names, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    print(f"{output}: registry of {table['file-date'] or 'unknown date'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
