"""Fixes of the ``a11y/`` rules: the registered form of a language tag, an alt without "Image of", a step long
enough to read."""

from __future__ import annotations

import re

from mechlint.document import Document
from mechlint.fixes.edits import make_fix, replace_in_string, replace_value
from mechlint.model import Finding, Fix
from mechlint.rules import RuleContext
from mechlint.views import as_object, quote

__all__ = ["alt_redundant", "language", "reading_time"]


def language(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """The tag the registry says is meant (``en_US`` → ``en-US``, ``eng`` → ``en``, ``iw`` → ``he``).

    Safe when every subtag of the new tag is the registered form of one the author wrote (case, separators,
    a three-letter code's two-letter twin, a deprecated subtag's preferred value, a language's name);
    unsafe when a variant had to be guessed as the nearest registered one.
    """
    from mechlint import langregistry
    from mechlint.bcp47 import parse

    tag = (as_object(document.data) or {}).get("language")
    if not isinstance(tag, str):
        return None
    likely = langregistry.likely(tag)
    if likely is None:
        return None
    written, _ = parse(re.sub(r"[\s_]+", "-", tag.strip()))
    guessed = written is None or any(
        v.lower() not in langregistry.registry().subtags["variant"] for v in written.variants
    )
    change = replace_in_string(document, "/language", 0, len(tag), likely)
    return make_fix(document, "unsafe" if guessed else "safe", f"Write the tag as {quote(likely)}", [change])


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


_LEAST = re.compile(r"make it at least (\d+) ms")


def reading_time(document: Document, finding: Finding, context: RuleContext) -> Fix | None:
    """Unsafe: the step's duration raised to the least readable one the rule computed (the text may be what
    should change instead)."""
    least = _LEAST.search(finding.message)
    if least is None:
        return None
    change = replace_value(document, finding.pointer, least.group(1))
    return make_fix(document, "unsafe", f"Raise the duration to {least.group(1)} ms", [change])
