"""Derive ``rules/language/alpha3.json`` from the ISO 639-3 code table.

Usage::

    python scripts/refresh_iso639.py ISO639-3.JSON [OUTPUT]

``ISO639-3.JSON`` is the ISO 639-3 table as ``pycountry`` ships it
(``pycountry/databases/iso639-3.json`` inside its wheel: ``pip download
--no-deps pycountry`` and unzip it); no network is used. ``OUTPUT``
defaults to ``rules/language/alpha3.json`` next to this script's folder.

BCP 47 registers a language by its shortest ISO 639 code: English is ``en``,
never ``eng`` (RFC 5646, 2.2.1). An author who writes the three-letter code
(``eng``, ``xho``, or the ISO 639-2 bibliographic ``ger``) writes a tag the
IANA registry does not have; the output maps each such three-letter code to
the two-letter subtag to suggest, and nothing else.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent.parent / "rules" / "language" / "alpha3.json"


def alpha3_to_alpha2(table: Any) -> dict[str, str]:
    """Each three-letter code (terminological and bibliographic) of a language that has a two-letter code."""
    mapping: dict[str, str] = {}
    for entry in table["639-3"]:
        alpha2 = entry.get("alpha_2")
        if not alpha2:
            continue
        for field in ("alpha_3", "bibliographic"):
            code = entry.get(field)
            if isinstance(code, str) and len(code) == 3 and code.isalpha():
                mapping[code.lower()] = alpha2.lower()
    return dict(sorted(mapping.items()))


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    table = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    output = Path(argv[2]) if len(argv) == 3 else OUTPUT
    output.write_text(json.dumps(alpha3_to_alpha2(table), indent=0) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
