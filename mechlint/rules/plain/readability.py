"""Reports prose whose Flesch–Kincaid grade is above the limit.

All the file's prose (not labels) is scored together, and only when it has
at least 100 words: shorter texts give unstable grades. The grade is
``0.39 × words per sentence + 11.8 × syllables per word − 15.59``, with
syllables counted by rules and a small table of exceptions (no download, no
network). Words without letters, like numbers, are not scored.

The formula and the syllable rules are made for English, so only a file
whose ``language`` is English (``en``, ``en-GB``, …) is scored; German or
French prose, with its longer words, would get a grade that means nothing.
A file without a usable ``language`` is scored (``a11y/language`` reports
the tag).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from mechlint.document import Document, prose
from mechlint.document.prose import CACHE_SIZE, analyze, has_letter, syllables_cached
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="plain/readability",
    level=Level.NOTE,
    summary="The Flesch–Kincaid grade of the file's prose is above the limit.",
    why=(
        "WCAG 2.2 (3.1.5 Reading Level, AAA) asks for text that a reader with lower secondary education "
        "(about grade 9) can read, or a simpler version."
    ),
    location="the document",
    options=(
        Option("max-grade", "number", 9, "the highest grade allowed"),
        Option("min-words", "integer", 100, "score only files with at least this many words", minimum=1),
    ),
    examples=(
        Example(
            fires=True,
            where="/limitations",
            json='["' + "Implementation-specific considerations necessitate additional computational "
            "infrastructure, substantially complicating deterministic reproducibility characteristics. " * 8 + '"]',
        ),
        Example(fires=False, where="/limitations", json='["The run is an example."]'),
    ),
    tags=("plain-language",),
)


@lru_cache(maxsize=CACHE_SIZE)
def counts(text: str) -> tuple[int, int, int]:
    """Sentences, words and syllables of one string (words without letters are not scored)."""
    sentence_count = word_count = syllable_count = 0
    for sentence_words in analyze(text).tokens:
        found = list(filter(has_letter, sentence_words))
        if found:
            sentence_count += 1
            word_count += len(found)
            syllable_count += sum(map(syllables_cached, map(str.lower, found)))
    return sentence_count, word_count, syllable_count


def grade(texts: list[str]) -> tuple[float, int]:
    """The Flesch–Kincaid grade of ``texts`` and their number of words."""
    sentence_count = word_count = syllable_count = 0
    for text in texts:
        s, w, y = counts(text)
        sentence_count, word_count, syllable_count = sentence_count + s, word_count + w, syllable_count + y
    if not word_count:
        return 0.0, 0
    return 0.39 * word_count / sentence_count + 11.8 * syllable_count / word_count - 15.59, word_count


def is_english(data: object) -> bool:
    """True unless the document's ``language`` tag names a language other than English."""
    language = data.get("language") if isinstance(data, dict) else None
    if not isinstance(language, str):
        return True
    primary = re.split(r"[-_]", language.strip(), maxsplit=1)[0].lower()
    return primary == "en" or re.fullmatch(r"[a-z]{2,8}", primary) is None


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    if not is_english(document.data):
        return
    score, count = grade([p.text for p in prose.of(document)])
    if count >= context.options["min-words"] and score > context.options["max-grade"]:
        yield META.finding(
            "",
            f"the prose reads at Flesch–Kincaid grade {score:.1f} ({count} words), "
            f"above {context.options['max-grade']:g}; "
            "use shorter sentences and shorter words",
        )
