"""A parser of BCP 47 language tags (RFC 5646, section 2.1), subtag by subtag.

:func:`parse` returns the subtags of a well-formed tag by role, or the
sentence that says which subtag breaks the grammar; :func:`problem` returns
that sentence alone (``None`` for a well-formed tag). A repeated variant or
extension singleton is refused too (RFC 5646, 2.2.5 and 2.2.6). Only the
singleton ``x`` starts private use: ``xh`` (Xhosa) and ``xog`` are ordinary
language subtags. This module checks the grammar only: a language subtag of
4 to 8 letters ("english") is well-formed, and whether a subtag is
registered is the business of :mod:`mechlint.language.langregistry`.
"""

from __future__ import annotations

from mechlint.document.prose import word_set
from mechlint.records import Record

IRREGULAR = word_set(
    "en-gb-oed i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo i-navajo i-pwn i-tao i-tay "
    "i-tsu sgn-be-fr sgn-be-nl sgn-ch-de"
)
REGULAR = word_set("art-lojban cel-gaulish no-bok no-nyn zh-guoyu zh-hakka zh-min zh-min-nan zh-xiang")


class Tag(Record):
    """The subtags of a well-formed tag, by role, as written. ``grandfathered`` is set for a tag listed whole."""

    language: str = ""
    extlangs: tuple[str, ...] = ()
    script: str = ""
    region: str = ""
    variants: tuple[str, ...] = ()
    extensions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    private: tuple[str, ...] = ()
    grandfathered: str = ""

    def canonical(self) -> str:
        """The tag in the case RFC 5646 (2.1.1) recommends: ``en-Latn-GB``, ``sgn-BE-FR``."""
        if self.grandfathered:
            return "-".join(
                part.upper() if len(part) == 2 and i > 0 else part.lower()
                for i, part in enumerate(self.grandfathered.split("-"))
            )
        parts = [self.language.lower(), *(e.lower() for e in self.extlangs)]
        if self.script:
            parts.append(self.script.title())
        if self.region:
            parts.append(self.region.upper())
        parts.extend(v.lower() for v in self.variants)
        for singleton, subtags in self.extensions:
            parts.extend([singleton.lower(), *(s.lower() for s in subtags)])
        if self.private:
            parts.extend(["x", *(p.lower() for p in self.private)])
        return "-".join(parts)


def _alpha(s: str, low: int, high: int) -> bool:
    return low <= len(s) <= high and s.isascii() and s.isalpha()


def _digits(s: str, n: int) -> bool:
    return len(s) == n and s.isascii() and s.isdigit()


def _alnum(s: str, low: int, high: int) -> bool:
    return low <= len(s) <= high and s.isascii() and s.isalnum()


def _private_use(parts: list[str], start: int) -> tuple[tuple[str, ...], str | None]:
    rest = parts[start + 1 :]
    if not rest:
        return (), "the private-use singleton x must be followed by at least one subtag"
    for part in rest:
        if not _alnum(part, 1, 8):
            return (), f"the private-use subtag {part!r} must be 1 to 8 letters or digits"
    return tuple(rest), None


def problem(tag: str) -> str | None:
    """Why ``tag`` is not a well-formed BCP 47 tag, or ``None`` when it is."""
    return parse(tag)[1]


def parse(tag: str) -> tuple[Tag | None, str | None]:
    """``(subtags, None)`` for a well-formed ``tag``, or ``(None, why not)``."""
    if not tag:
        return None, "the tag is empty"
    if tag.strip() != tag:
        return None, "the tag has white space around it"
    lowered = tag.lower()
    if lowered in IRREGULAR or lowered in REGULAR:
        return Tag(grandfathered=tag), None
    parts = tag.split("-")
    if any(part == "" for part in parts):
        return None, "the tag has an empty subtag (two hyphens in a row, or a hyphen at an end)"
    for part in parts:
        if not (part.isascii() and part.isalnum()):
            return None, f"the subtag {part!r} must have only ASCII letters and digits, separated by hyphens"
    if parts[0].lower() == "x":
        alone, why = _private_use(parts, 0)
        return (None, why) if why else (Tag(private=alone), None)
    language = parts[0]
    if not _alpha(language, 2, 8):
        return None, f"the language subtag {language!r} must be 2 to 8 letters (for example en, de, fil)"
    index = 1
    extlangs: list[str] = []
    if len(language) <= 3:
        while index < len(parts) and _alpha(parts[index], 3, 3) and len(extlangs) < 3:
            extlangs.append(parts[index])
            index += 1
    script = region = ""
    if index < len(parts) and _alpha(parts[index], 4, 4):
        script = parts[index]
        index += 1
    if index < len(parts) and (_alpha(parts[index], 2, 2) or _digits(parts[index], 3)):
        region = parts[index]
        index += 1
    variants: list[str] = []
    while index < len(parts):
        part = parts[index]
        if not (_alnum(part, 5, 8) or (len(part) == 4 and part[0].isdigit())):
            break
        if part.lower() in (v.lower() for v in variants):
            return None, f"the variant {part!r} appears twice"
        variants.append(part)
        index += 1
    extensions: list[tuple[str, tuple[str, ...]]] = []
    private: tuple[str, ...] = ()
    while index < len(parts):
        part = parts[index].lower()
        if part == "x":
            private, why = _private_use(parts, index)
            if why:
                return None, why
            break
        if len(part) != 1:
            return None, (
                f"the subtag {parts[index]!r} is out of place (order: language, script, region, variants, extensions)"
            )
        if part in (singleton.lower() for singleton, _ in extensions):
            return None, f"the extension singleton {parts[index]!r} appears twice"
        singleton = parts[index]
        index += 1
        subtags: list[str] = []
        while index < len(parts) and len(parts[index]) >= 2:
            if not _alnum(parts[index], 2, 8):
                return None, f"the extension subtag {parts[index]!r} must be 2 to 8 letters or digits"
            subtags.append(parts[index])
            index += 1
        if not subtags:
            return None, f"the extension singleton {part!r} must be followed by a subtag of 2 to 8 characters"
        extensions.append((singleton, tuple(subtags)))
    return Tag(language, tuple(extlangs), script, region, tuple(variants), tuple(extensions), private), None
