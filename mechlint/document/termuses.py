"""The terms of a mechanism's prose: each word and short phrase, its folded key, and the capitals a start explains.

The facts ``plain/term-consistency`` decides on. :func:`term_uses` lists the
words and phrases of one string (up to three words, or a compound bridged by
one or two function words: "copy on write", "state of the art"), each with a
key folded from case, ``/``, ``-``, ``.`` and spaces, and with the words
whose leading capital a sentence, colon, title or label start may explain.
:func:`suspects` is its cheap over-approximation over a whole file.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from operator import add

from mechlint.document import prose
from mechlint.document.prose import CACHE_SIZE, analyze, word_set

FUNCTION_WORDS = word_set(
    "a an the in on at to of for by with up out off into onto over and or but is are be it its as no not "
    "any some every each all can may one this that these those from per via"
)
_FOLD_TABLE = str.maketrans({"/": None, "-": None, ".": None, " ": None, "’": "'"})


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


#: One word of a run: start, end, plain, folded, is a function word, letters, foldable.
_Item = tuple[int, int, str, str, bool, int, bool]


def _capitalised(token: str) -> bool:
    """Whether ``token`` has a capital only at its start ("Page", not "ClientHello" or "KV")."""
    rest = token[1:]
    return token[:1].isupper() and rest == rest.lower()


@lru_cache(maxsize=CACHE_SIZE)
def term_uses(text: str, heading: bool = False) -> tuple[tuple[str, str, int, tuple[int, int], int], ...]:
    """``(folded key, written form, number of words, span, foldable)`` of each word and short phrase of
    ``text``. ``foldable`` has bit ``i`` set when word ``i`` starts with a capital that may be there only
    because a sentence, a title or a label starts there (each word of a ``heading``)."""
    analysis = analyze(text)
    found: list[tuple[str, str, int, tuple[int, int], int]] = []
    every = prose.words(text)
    starts = [start for start, _ in every]
    for sentence_start, sentence_end in analysis.sentences:
        # each item: start, end, plain, folded, is a function word, letters, foldable
        run: list[_Item] = []
        first = True
        for start, end in every[bisect_left(starts, sentence_start) : bisect_left(starts, sentence_end)]:
            if text[start] == "`" or (analysis.code and not analysis.outside_code(start)):
                run = []
                first = False
                continue
            if run and not text[run[-1][1] : start].isspace():
                run = []
            token = text[start:end]
            plain = token.replace("’", "'")
            folded = fold(token)
            letters = sum(char.isalpha() for char in folded)
            at_start = first or heading or _after_colon(text, start)
            first = False
            item = (start, end, plain, folded, folded in FUNCTION_WORDS, letters, at_start and _capitalised(token))
            run = [*run[-3:], item]
            if letters >= 2:
                # a single word's leading capital is never a variant on its own: "Go", "Edge" are names too
                found.append((folded, plain, 1, (start, end), int(_capitalised(token))))
            for size in (2, 3, 4):
                if size > len(run):
                    break
                group = run[-size:]
                if any(item[4] for item in group):
                    if not _bridged(group) or (size == 3 and _literal_from(run, group)):
                        continue
                elif size == 4 or sum(item[5] for item in group) < 2:
                    continue
                key = "".join(item[3] for item in group)
                written = " ".join(item[2] for item in group)
                foldable = sum(1 << index for index, item in enumerate(group) if item[6])
                found.append((key, written, size, (group[0][0], end), foldable))
    return tuple(found)


def _after_colon(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows a colon ("Step 2: Page table walk"), where a capital may start."""
    index = start - 1
    while index >= 0 and text[index] in " \t":
        index -= 1
    return index >= 0 and text[index] == ":"


def _bridged(group: Sequence[_Item]) -> bool:
    """Whether ``group`` is a compound bridged by function words: "copy on write", "state of the art"."""
    ends = (group[0], group[-1])
    return all(not item[4] and item[5] >= 2 for item in ends) and all(item[4] for item in group[1:-1])


def _literal_from(
    run: Sequence[_Item],
    group: Sequence[_Item],
) -> bool:
    """Whether ``group`` ("end to end") is the tail of the literal phrase "from end to end"."""
    return len(run) > len(group) and run[-len(group) - 1][3] == "from" and group[1][3] == "to"


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
    # a compound bridged by function words ("copy on write") beside its hyphenated or joined spelling
    bridged = _bridged_keys(keys)
    found |= bridged & singles
    # a phrase with a word written with and without a capital ("Page Table", "page table")
    spellings = Counter(map(_fold_cached, {token.replace("’", "'") for token in distinct}))
    twice = {key for key, count in spellings.items() if count > 1}
    if twice:
        blanked = list(map(_BLANKED.get, keys, keys))
        found |= {
            a + b for a, b, x, y in zip(blanked, blanked[1:], keys, keys[1:], strict=False) if x in twice or y in twice
        }
        found |= {
            a + b + c
            for a, b, c, x, y, z in zip(blanked, blanked[1:], blanked[2:], keys, keys[1:], keys[2:], strict=False)
            if x in twice or y in twice or z in twice
        }
        found |= bridged
        found = {key for key in found if _BLANK not in key}
    return found


def _bridged_keys(keys: list[str]) -> set[str]:
    """The keys of every run of three or four tokens whose inner tokens, and only those, are function words."""
    words = [key not in FUNCTION_WORDS for key in keys]
    three = {
        a + b + c
        for a, b, c, p, q, r in zip(keys, keys[1:], keys[2:], words, words[1:], words[2:], strict=False)
        if p and r and not q
    }
    four = {
        a + b + c + d
        for a, b, c, d, p, q, r, t in zip(
            keys, keys[1:], keys[2:], keys[3:], words, words[1:], words[2:], words[3:], strict=False
        )
        if p and t and not q and not r
    }
    return three | four


def may_use(text: str, wanted: set[str]) -> bool:
    """Whether ``text`` may use a key of ``wanted``: a cheap test before :func:`term_uses`."""
    keys = list(map(_fold_cached, chain.from_iterable(analyze(text).tokens)))
    if not wanted.isdisjoint(keys):
        return True
    pairs, triples = _phrases(keys)
    return not (wanted.isdisjoint(pairs) and wanted.isdisjoint(triples) and wanted.isdisjoint(_bridged_keys(keys)))
