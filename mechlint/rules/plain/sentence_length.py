"""Reports a sentence with more words than the limit.

Words are counted as Simplified Technical English counts them: a hyphenated
word, an identifier (``P=4``, ``K/V``), a code span and a number with its
unit (``3000 ms``) are each one word. Sentences end at ``.``, ``!`` or ``?``
followed by a capital, a digit or an opening quote; abbreviations ("e.g.",
"i.e."), decimals, versions and ellipses do not end a sentence. Step text
(step titles, descriptions and state values) is procedural and gets the
shorter limit; all other prose is descriptive.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document, prose
from mechlint.document.prose import analyze
from mechlint.document.views import quote
from mechlint.model import Finding, Level
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="plain/sentence-length",
    level=Level.WARNING,
    summary="A sentence is longer than the limit (20 words in step text, 25 elsewhere).",
    why=(
        "Long sentences are hard to follow for people reading in a second language or reading slowly. "
        "Simplified Technical English (ASD-STE100) sets at most 20 words for procedural sentences and 25 "
        "for descriptive ones."
    ),
    location="the string, narrowed to the long sentence",
    options=(
        Option("step-words", "integer", 20, "the most words in a sentence of step text", minimum=1),
        Option("text-words", "integer", 25, "the most words in a sentence of other prose", minimum=1),
    ),
    examples=(
        Example(
            fires=True,
            where="/scenarios/0/steps/0/description",
            json=(
                '"A prefills the two full blocks of the prompt, and the scheduler writes both of them into the '
                'cache so that a later request with the same prefix can use them."'
            ),
        ),
        Example(
            fires=False, where="/scenarios/0/steps/0/description", json='"A prefills two blocks. The cache keeps them."'
        ),
    ),
    tags=("plain-language",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    step_limit: int = context.options["step-words"]
    text_limit: int = context.options["text-words"]
    for passage in prose.of(document):
        limit = step_limit if passage.kind == "step" else text_limit
        analysis = analyze(passage.text)
        if max(map(len, analysis.tokens), default=0) <= limit:
            continue
        for (start, end), sentence_words in zip(analysis.sentences, analysis.tokens, strict=True):
            count = len(sentence_words)
            if count > limit:
                kind = "step text" if passage.kind == "step" else "descriptive text"
                yield META.finding(
                    passage.pointer,
                    f"the sentence {quote(passage.text[start:end], 40)} has {count} words, more than {limit} "
                    f"for {kind}; split it or say less",
                    span=(start, end),
                )
