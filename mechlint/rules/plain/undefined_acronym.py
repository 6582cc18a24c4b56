"""Reports an acronym that the file does not define and the allow list does not know.

An acronym is a word of two or more capital letters, optionally with digits,
``/``, ``&`` or ``-`` (``TTFT``, ``K/V``, ``FP16``, ``UTF-8``), and an
optional plural "s". A single capital ("request A") is a name, not an
acronym. It counts as defined when the file's prose anywhere has
"words (ABC)" or "ABC (words)". ``K/V`` and ``KV`` are the same acronym.
Each undefined acronym is reported once, where it first appears. The allow
list ships in ``rules/plain/acronyms.toml``; extend it with the ``allow``
option or a word-list file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from mechlint import prose
from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.plainlists import acronym_key
from mechlint.prose import CACHE_SIZE, code_spans, in_code
from mechlint.rules import Example, Option, RuleContext, RuleMeta
from mechlint.views import quote

META = RuleMeta(
    id="plain/undefined-acronym",
    level=Level.WARNING,
    summary="An acronym is neither defined in the file nor on the allow list.",
    why=(
        "An unexplained acronym stops a reader who does not know it (WCAG 2.2, 3.1.4 Abbreviations; "
        "Simplified Technical English asks to explain abbreviations)."
    ),
    location="the string, narrowed to the first use of the acronym",
    options=(Option("allow", "strings", [], "more acronyms to accept without a definition"),),
    examples=(
        Example(fires=True, where="/caption", json='"The TTFT is short."'),
        Example(fires=False, where="/caption", json='"The time to first token (TTFT) is short."'),
        Example(fires=False, where="/caption", json='"The GPU keeps the blocks."', note="on the allow list"),
    ),
    tags=("plain-language",),
)

ACRONYM_HINT = re.compile(r"[A-Z][^a-z\s]*[A-Z]")
ACRONYM = re.compile(r"(?<![\w/&-])([A-Z][A-Z0-9]*(?:[/&-][A-Z0-9]+)*)(s?)(?![\w/&-])")


@lru_cache(maxsize=CACHE_SIZE)
def acronyms(text: str) -> tuple[tuple[int, int, str], ...]:
    return tuple(_acronyms(text))


def _acronyms(text: str) -> Iterator[tuple[int, int, str]]:
    if not ACRONYM_HINT.search(text):
        return
    code = code_spans(text)
    for match in ACRONYM.finditer(text):
        word = match.group(1)
        if sum(char.isupper() for char in word) < 2 or in_code(code, match.start()):
            continue
        yield match.start(), match.end(1), word


#: After an acronym: ``) `` closing "words (ABC)", or `` (words words`` opening "ABC (words)".
_CLOSES = re.compile(r"\s*\)")
_OPENS_WORDS = re.compile(r"\s*\(\s*[A-Za-z][A-Za-z-]*\s+[A-Za-z-]")


def _after_a_word(text: str, end: int) -> bool:
    """``text[:end]`` ends with two letters and then only non-word characters (as ``[A-Za-z]{2,}\\W*$``)."""
    while end > 0 and not (text[end - 1].isalnum() or text[end - 1] == "_"):
        end -= 1
    return end >= 2 and text[end - 2 : end].isascii() and text[end - 2 : end].isalpha()


@lru_cache(maxsize=CACHE_SIZE)
def definitions(text: str) -> frozenset[str]:
    # Each test looks only at the characters next to the acronym: never a copy of the text before or after it.
    found = set()
    for start, end, word in acronyms(text):
        before = start
        while before > 0 and text[before - 1].isspace():
            before -= 1
        if (
            before > 0 and text[before - 1] == "(" and _CLOSES.match(text, end) and _after_a_word(text, before - 1)
        ) or (_OPENS_WORDS.match(text, end)):
            found.add(acronym_key(word))
    return frozenset(found)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    whole = prose.joined(document)
    # one pass over the file's prose finds the strings that may have an acronym
    hinted = whole.having(ACRONYM_HINT)
    texts = whole.passages if hinted is None else [whole.passages[index] for index in hinted]
    allowed = context.lists.allow | {acronym_key(item) for item in context.options["allow"]}
    used = {acronym_key(word) for passage in texts for _, _, word in acronyms(passage.text)}
    if used <= allowed:  # every acronym is on the allow list: no need to look for definitions
        return
    defined: set[str] = set()
    for passage in texts:
        defined |= definitions(passage.text)
    reported: set[str] = set()
    for passage in texts:
        for start, end, word in acronyms(passage.text):
            key = acronym_key(word)
            if key in allowed or key in defined or key in reported:
                continue
            reported.add(key)
            yield META.finding(
                passage.pointer,
                f"the acronym {quote(word)} is not defined in this file; write it out once, as in "
                f'"words ({word})", or add it to the allow list',
                span=(start, end),
            )
