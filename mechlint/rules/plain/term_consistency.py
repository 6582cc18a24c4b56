"""Reports one term written in more than one way in one file.

No list is needed: words and short phrases (up to three words, not across
punctuation) are compared after folding case and removing ``/``, ``-``,
``.`` and spaces. Forms that are then equal but written differently are
variants: "KV" and "K/V", "cache key" and "cache-key". A capital only at the
start of a word (because a sentence or a heading starts there) is no
variant: "Request B" and "request A" use the same word. Phrases made with
function words ("in to" and "into") are left alone, and so are numbers.
Target and state labels count too. The finding points at the first use of
the second variant, and the message names each variant and where it first
appears.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.prose import code_spans, passages, sentences, word_set, words
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.views import quote, readable_path

META = RuleMeta(
    id="plain/term-consistency",
    level=Level.WARNING,
    summary='One term is written in variant spellings in one file ("KV" and "K/V").',
    why=(
        "A reader cannot know that two spellings mean one thing; Simplified Technical English asks for one "
        "term for one thing. Variants also break search."
    ),
    location="the first use of the second variant, narrowed to it",
    examples=(
        Example(fires=True, where="/caption", json='"The cache-key check comes first. Then the cache key matches."'),
        Example(fires=False, where="/caption", json='"Request B waits. The key of request B matches."'),
    ),
    tags=("plain-language", "consistency"),
)

FUNCTION_WORDS = word_set(
    "a an the in on at to of for by with up out off into onto over and or but is are be it its as no not "
    "any some every each all can may one this that these those from per via"
)
_FOLD = re.compile(r"[/\-.\s]")


@dataclass(frozen=True, slots=True)
class Use:
    surface: str
    size: int
    pointer: str
    span: tuple[int, int]


def surface(token: str) -> str:
    """A token as written, with a leading capital alone folded and apostrophes made straight."""
    token = token.replace("’", "'")
    if token[:1].isupper() and not any(char.isupper() for char in token[1:]):
        token = token[0].lower() + token[1:]
    return token


def _uses(text: str, pointer: str) -> Iterator[tuple[str, Use]]:
    code = code_spans(text)
    for start, end in sentences(text):
        run: list[tuple[int, int]] = []
        for word in words(text, start, end):
            if text[word[0]] == "`" or any(low <= word[0] < high for low, high in code):
                run = []
                continue
            if run and not text[run[-1][1] : word[0]].isspace():
                run = []
            run = [*run[-2:], word]
            for size in range(1, len(run) + 1):
                group = run[-size:]
                tokens = [text[a:b] for a, b in group]
                if size > 1 and any(t.lower() in FUNCTION_WORDS for t in tokens):
                    continue
                written = " ".join(surface(t) if i == 0 else t.replace("’", "'") for i, t in enumerate(tokens))
                key = _FOLD.sub("", written.lower())
                if sum(char.isalpha() for char in key) < 2:
                    continue
                yield key, Use(written, size, pointer, (group[0][0], group[-1][1]))


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    by_key: dict[str, list[Use]] = {}
    for passage in passages(document.data, labels=True):
        for key, use in _uses(passage.text, passage.pointer):
            by_key.setdefault(key, []).append(use)
    for uses in by_key.values():
        single = {use.surface for use in uses if use.size == 1}
        sizes = {use.size for use in uses}
        if len(single) < 2 and len(sizes) < 2:
            continue
        first: dict[str, Use] = {}
        for use in uses:
            if len(sizes) >= 2 or use.size == 1:
                first.setdefault(use.surface, use)
        if len(first) < 2:
            continue
        variants = list(first.values())
        named = ", ".join(f"{quote(v.surface)} (first in {readable_path(v.pointer)})" for v in variants)
        second = variants[1]
        yield META.finding(
            second.pointer,
            f"one term is written {len(variants)} ways: {named}; choose one spelling",
            span=second.span,
        )
