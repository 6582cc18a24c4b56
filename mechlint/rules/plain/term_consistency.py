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

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import add

from mechlint import prose
from mechlint.document import Document
from mechlint.model import Finding, Level
from mechlint.prose import CACHE_SIZE, analyze, word_set
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
_FOLD_TABLE = str.maketrans({"/": None, "-": None, ".": None, " ": None, "’": "'"})


@dataclass(frozen=True, slots=True)
class Use:
    surface: str
    size: int
    pointer: str
    span: tuple[int, int]


def fold(token: str) -> str:
    """The key of a token: lower case, without ``/``, ``-``, ``.`` and spaces, apostrophes straight."""
    return token.lower().translate(_FOLD_TABLE)


def surface(token: str) -> str:
    """A token as written, with a leading capital alone folded and apostrophes made straight."""
    if "’" in token:
        token = token.replace("’", "'")
    rest = token[1:]
    if token[:1].isupper() and rest == rest.lower():
        token = token[0].lower() + rest
    return token


@lru_cache(maxsize=CACHE_SIZE)
def term_uses(text: str) -> tuple[tuple[str, str, int, tuple[int, int]], ...]:
    """``(folded key, written form, number of words, span)`` of each word and short phrase of ``text``."""
    analysis = analyze(text)
    found: list[tuple[str, str, int, tuple[int, int]]] = []
    every = prose.words(text)
    starts = [start for start, _ in every]
    for sentence_start, sentence_end in analysis.sentences:
        # each item: start, end, surface, plain, folded, is a function word, letters
        run: list[tuple[int, int, str, str, str, bool, int]] = []
        for start, end in every[bisect_left(starts, sentence_start) : bisect_left(starts, sentence_end)]:
            if text[start] == "`" or (analysis.code and not analysis.outside_code(start)):
                run = []
                continue
            if run and not text[run[-1][1] : start].isspace():
                run = []
            token = text[start:end]
            plain = token.replace("’", "'")
            folded = fold(token)
            letters = sum(char.isalpha() for char in folded)
            run = [*run[-2:], (start, end, surface(token), plain, folded, folded in FUNCTION_WORDS, letters)]
            last = run[-1]
            if letters >= 2:
                found.append((folded, last[2], 1, (start, end)))
            for size in (2, 3):
                if size > len(run):
                    break
                group = run[-size:]
                if any(item[5] for item in group) or sum(item[6] for item in group) < 2:
                    continue
                key = "".join(item[4] for item in group)
                written = " ".join([group[0][2], *(item[3] for item in group[1:])])
                found.append((key, written, size, (group[0][0], end)))
    return tuple(found)


#: Stands for a function word in the phrase keys of :func:`suspects`: no phrase is made across it.
_BLANK = "\x00"
_BLANKED = dict.fromkeys(FUNCTION_WORDS, _BLANK)
_BETWEEN = ("the",)
_fold_cached = lru_cache(maxsize=CACHE_SIZE * 4)(fold)
_surface_cached = lru_cache(maxsize=CACHE_SIZE * 4)(surface)


def _phrases(keys: list[str]) -> tuple[set[str], set[str]]:
    """The keys of every run of two and of three consecutive tokens."""
    joined = list(map(add, keys, keys[1:]))
    return set(joined), set(map(add, joined, keys[2:]))


def suspects(passages: Sequence[prose.Passage]) -> set[str]:
    """Keys that may be written in more than one way across ``passages``: the only ones worth a closer look.

    A cheap over-approximation of what :func:`term_uses` finds (it ignores
    sentence ends, code spans and letter counts), made of whole-file list and
    set operations instead of a loop over words: every key that
    :func:`term_uses` could report as a variant is in the result.
    """
    # the words of each string, with a function word between strings: as the other prose rules split them
    # (analysed once, shared), and labels, which only this rule reads, without splitting them into sentences
    tokens = list(
        chain.from_iterable(
            chain.from_iterable(
                (prose.TOKEN.findall(p.text), _BETWEEN) if p.kind == "label" else (*analyze(p.text).tokens, _BETWEEN)
                for p in passages
            )
        )
    )
    keys = list(map(_fold_cached, tokens))
    pairs, triples = _phrases(list(map(_BLANKED.get, keys, keys)))
    singles = {key for key in set(keys) if len(key) >= 2}
    # a phrase with a function word in it (its key holds _BLANK) is no key: dropped after the intersections
    found = {key for key in (singles & pairs) | (singles & triples) | (pairs & triples) if _BLANK not in key}
    distinct = set(tokens)
    forms = set(zip(map(_fold_cached, distinct), map(_surface_cached, distinct), strict=True))
    if len(forms) != len({key for key, _ in forms}):  # some key is written in two ways; find which
        seen: dict[str, str] = {}
        for key, form in forms:
            if seen.setdefault(key, form) != form and key in singles:
                found.add(key)
    return found


def _may_use(text: str, wanted: set[str]) -> bool:
    """Whether ``text`` may use a key of ``wanted``: a cheap test before :func:`term_uses`."""
    keys = list(map(_fold_cached, chain.from_iterable(analyze(text).tokens)))
    if not wanted.isdisjoint(keys):
        return True
    pairs, triples = _phrases(keys)
    return not (wanted.isdisjoint(pairs) and wanted.isdisjoint(triples))


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    passages = prose.of(document, labels=True)
    wanted = suspects(passages)
    if not wanted:
        return
    by_key: dict[str, list[Use]] = {}
    for passage in passages:
        if not _may_use(passage.text, wanted):
            continue
        pointer = passage.pointer
        for key, written, size, span in term_uses(passage.text):
            if key not in wanted:
                continue
            uses = by_key.get(key)
            if uses is None:
                by_key[key] = [Use(written, size, pointer, span)]
            elif uses[0].surface != written or uses[0].size != size or len(uses) > 1:
                uses.append(Use(written, size, pointer, span))
    for uses in by_key.values():
        if len(uses) < 2:
            continue
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
