"""Fixes of the ``a11y/`` rules: the registered form of a language tag, an alt without "Image of", a step long
enough to read."""

from __future__ import annotations

import re

from mechlint.document import Document
from mechlint.document.views import as_object, quote
from mechlint.fixes.edits import make_fix, replace_in_string, replace_value
from mechlint.model import Finding, Fix
from mechlint.rules import RuleContext
from mechlint.rules.a11y.reading_time import shortfalls

__all__ = ["alt_redundant", "language", "reading_time"]


def language(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Safe, or unsafe when the tag is a guess: the tag the registry says is meant (``en_US`` → ``en-US``,
    ``eng`` → ``en``, ``iw`` → ``he``).

    Safe when the new tag is the one registered form of what the author wrote: the same subtags with
    the registry's case and hyphens, a three-letter code's two-letter twin, a deprecated subtag's (or
    tag's) preferred value. Unsafe when it is a guess: a language's name (``english``), a common
    mistake of a region (``UK``), the nearest registered variant.
    """
    from mechlint.language import langregistry

    tag = (as_object(document.data) or {}).get("language")
    if not isinstance(tag, str):
        return None
    likely = langregistry.likely(tag)
    if likely is None:
        return None
    kind = "safe" if _registered_form(tag, likely) else "unsafe"
    change = replace_in_string(document, "/language", 0, len(tag), likely)
    return make_fix(document, kind, f"Write the tag as {quote(likely)}", [change])


def _registered_form(tag: str, likely: str) -> bool:
    """Whether ``likely`` is ``tag`` in the registry's form, subtag by subtag (see :func:`language`)."""
    from mechlint.language.bcp47 import parse
    from mechlint.language.langregistry import registry
    from mechlint.text.lookalike import skeleton

    table = registry()
    repaired = re.sub(r"-{2,}", "-", re.sub(r"[\s_]+", "-", skeleton(tag).strip())).strip("-")
    if table.deprecated["tag"].get(repaired.lower(), "").lower() == likely.lower():
        return True
    written, new = parse(repaired)[0], parse(likely)[0]
    if written is None or new is None or written.grandfathered or new.grandfathered:
        return False

    def same(kind: str, old: str, now: str) -> bool:
        return old.lower() == now.lower() or table.deprecated[kind].get(old.lower(), "").lower() == now.lower()

    language = written.language.lower()
    if written.extlangs and not new.extlangs and new.language.lower() == written.extlangs[0].lower():
        language = new.language.lower()  # zh-yue → yue: the registry prefers the extended language alone
    elif written.extlangs != new.extlangs and [e.lower() for e in written.extlangs] != [
        e.lower() for e in new.extlangs
    ]:
        return False
    return (
        (same("language", language, new.language) or table.alpha3.get(language, "").lower() == new.language.lower())
        and same("script", written.script, new.script)
        and same("region", written.region, new.region)
        and len(written.variants) == len(new.variants)
        and all(same("variant", old, now) for old, now in zip(written.variants, new.variants, strict=True))
        and str(written.extensions).lower() == str(new.extensions).lower()
        and [p.lower() for p in written.private] == [p.lower() for p in new.private]
    )


def alt_redundant(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: "Image of …" dropped from the start of ``alt``, the rest capitalised; an alt that repeats the
    title needs new words, which no fix can write."""
    alt = (as_object(document.data) or {}).get("alt")
    if finding.span is None or not isinstance(alt, str):
        return None
    end = finding.span[1]
    rest = alt[end:].lstrip()
    if not rest:
        return None
    cut = len(alt) - len(rest) + 1  # the opening words, the space after them and the first letter
    change = replace_in_string(document, "/alt", 0, cut, rest[0].upper())
    return make_fix(document, "unsafe", f"Start alt with {quote(rest[:1].upper() + rest[1:30])}", [change])


def reading_time(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: the step's duration raised to the least readable one the rule computed (the text may be what
    should change instead)."""
    # computed again with the run's options (reading_time.shortfalls), never read back from the message
    least = next((s.least for s in shortfalls(document, context) if s.pointer == finding.pointer), None)
    if least is None:
        return None
    change = replace_value(document, finding.pointer, str(least))
    return make_fix(document, "unsafe", f"Raise the duration to {least} ms", [change])
