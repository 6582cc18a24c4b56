"""A parser of BCP 47 language tags (RFC 5646, section 2.1), subtag by subtag.

:func:`problem` returns ``None`` for a well-formed tag, or a sentence that
says which subtag breaks the grammar. It also refuses a repeated variant or
extension singleton (RFC 5646, 2.2.5 and 2.2.6). It does not check the IANA
registry: ``xq`` is well-formed even though no language has that code. The
one exception: a primary language subtag of 4 to 8 letters ("english") is
grammatical but reserved, and none is registered, so it is refused.
"""

from __future__ import annotations

from mechlint.prose import word_set

IRREGULAR = word_set(
    "en-gb-oed i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo i-navajo i-pwn i-tao i-tay "
    "i-tsu sgn-be-fr sgn-be-nl sgn-ch-de"
)
REGULAR = word_set("art-lojban cel-gaulish no-bok no-nyn zh-guoyu zh-hakka zh-min zh-min-nan zh-xiang")


def _alpha(s: str, low: int, high: int) -> bool:
    return low <= len(s) <= high and s.isascii() and s.isalpha()


def _digits(s: str, n: int) -> bool:
    return len(s) == n and s.isascii() and s.isdigit()


def _alnum(s: str, low: int, high: int) -> bool:
    return low <= len(s) <= high and s.isascii() and s.isalnum()


def _private_use(parts: list[str], start: int) -> str | None:
    rest = parts[start + 1 :]
    if not rest:
        return "the private-use singleton x must be followed by at least one subtag"
    for part in rest:
        if not _alnum(part, 1, 8):
            return f"the private-use subtag {part!r} must be 1 to 8 letters or digits"
    return None


def problem(tag: str) -> str | None:
    """Why ``tag`` is not a well-formed BCP 47 tag, or ``None`` when it is."""
    if not tag:
        return "the tag is empty"
    if tag.strip() != tag:
        return "the tag has white space around it"
    lowered = tag.lower()
    if lowered in IRREGULAR or lowered in REGULAR:
        return None
    parts = tag.split("-")
    if any(part == "" for part in parts):
        return "the tag has an empty subtag (two hyphens in a row, or a hyphen at an end)"
    for part in parts:
        if not (part.isascii() and part.isalnum()):
            return f"the subtag {part!r} must have only ASCII letters and digits, separated by hyphens"
    if lowered.startswith("x"):
        return _private_use(parts, 0) if parts[0].lower() == "x" else f"{parts[0]!r} is not a language subtag"
    index = 0
    language = parts[0]
    if not (_alpha(language, 2, 3) or _alpha(language, 5, 8) or _alpha(language, 4, 4)):
        return f"the language subtag {language!r} must be 2 to 8 letters (for example en, de, fil)"
    if len(language) >= 4:
        return (
            f"the language subtag {language!r} has {len(language)} letters; such subtags are reserved and "
            "none is registered, so use the 2- or 3-letter code"
        )
    index = 1
    if len(language) <= 3:
        extlangs = 0
        while index < len(parts) and _alpha(parts[index], 3, 3) and extlangs < 3:
            index += 1
            extlangs += 1
    if index < len(parts) and _alpha(parts[index], 4, 4):
        index += 1
    if index < len(parts) and (_alpha(parts[index], 2, 2) or _digits(parts[index], 3)):
        index += 1
    variants: set[str] = set()
    while index < len(parts):
        part = parts[index]
        if not (_alnum(part, 5, 8) or (len(part) == 4 and part[0].isdigit())):
            break
        if part.lower() in variants:
            return f"the variant {part!r} appears twice"
        variants.add(part.lower())
        index += 1
    singletons: set[str] = set()
    while index < len(parts):
        part = parts[index].lower()
        if part == "x":
            return _private_use(parts, index)
        if len(part) != 1:
            return (
                f"the subtag {parts[index]!r} is out of place (order: language, script, region, variants, extensions)"
            )
        if part in singletons:
            return f"the extension singleton {parts[index]!r} appears twice"
        singletons.add(part)
        index += 1
        count = 0
        while index < len(parts) and len(parts[index]) >= 2:
            if not _alnum(parts[index], 2, 8):
                return f"the extension subtag {parts[index]!r} must be 2 to 8 letters or digits"
            index += 1
            count += 1
        if count == 0:
            return f"the extension singleton {part!r} must be followed by a subtag of 2 to 8 characters"
    return None
