"""The words of a clause: its predicates of comparing, its noun phrases and their heads, its negations.

Read with a :class:`~mechlint.invariants.vocabulary.Vocabulary`; used by
:mod:`mechlint.invariants.clauses`, which explains the analysis.
"""

from __future__ import annotations

from mechlint.invariants.vocabulary import Vocabulary

#: Words that are never part of a noun phrase's head: they end one.
FUNCTION = frozenset((
    "a", "an", "the", "this", "that", "these", "those", "its", "it", "their", "them", "they", "his", "her", "he",
    "she", "we", "you", "i", "our", "your", "my", "me", "us", "of", "to", "in", "on", "at", "by", "for", "from",
    "into", "onto", "with", "against", "among", "between", "within", "across", "over", "under", "about", "as", "is",
    "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "has", "have", "had", "having",
    "get", "gets", "got", "and", "or", "but", "so", "then", "than", "if", "when", "while", "whether", "which", "who",
    "whose", "where", "also", "again", "only", "just", "now", "each", "every", "all", "both", "any", "some", "one",
    "first", "last", "very", "there", "here", "too", "even", "still",
))  # fmt: skip
BE = frozenset(("is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"))
NOUNS = ("keys", "entries", "places")
#: Words between a bearer and an adjective: "has exactly the same key".
DETERMINERS = frozenset(("a", "an", "the", "its", "their", "his", "her", "our", "your", "exactly", "precisely", "very"))


def phrase_at(words: tuple[str, ...], index: int, vocab: Vocabulary, field: str, gap: int = 0) -> bool:
    """Whether a phrase of ``field`` starts at ``index`` (its later words up to ``gap`` words apart)."""
    if words[index] not in vocab.starts[field]:
        return False
    for phrase in vocab.phrases[field]:
        if words[index] != phrase[0]:
            continue
        at = index
        for part in phrase[1:]:
            window = words[at + 1 : at + 2 + gap]
            if part not in window:
                break
            at += 1 + window.index(part)
        else:
            return True
    return False


def negations(words: tuple[str, ...], vocab: Vocabulary) -> list[int]:
    found = []
    for index, word in enumerate(words):
        if word == "not" and words[index + 1 : index + 2] == ("only",):
            continue
        if vocab.has("negations", word) or phrase_at(words, index, vocab, "negations"):
            found.append(index)
    return found


def listed_at(vocab: Vocabulary, field: str, words: tuple[str, ...], index: int, gap: int = 0) -> bool:
    return vocab.has(field, words[index]) or phrase_at(words, index, vocab, field, gap)


def predicates(words: tuple[str, ...], vocab: Vocabulary) -> list[tuple[int, str]]:
    """(index, kind) of each predicate: ``act``, ``outcome`` or ``alike`` (an adjective)."""
    found = []
    for index, word in enumerate(words):
        if vocab.has("alike", word):
            if _attributive(words, index) and not _borne(words, index, vocab):
                continue
            found.append((index, "alike"))
        elif listed_at(vocab, "acts", words, index, gap=3):
            found.append((index, "act"))
        elif listed_at(vocab, "outcomes", words, index, gap=3):
            found.append((index, "outcome"))
    return found


def _attributive(words: tuple[str, ...], index: int) -> bool:
    """Whether the adjective at ``index`` is inside a noun phrase ("the same key"), not its predicate."""
    after = words[index + 1 : index + 2]
    return bool(after) and after[0] not in FUNCTION


def _borne(words: tuple[str, ...], index: int, vocab: Vocabulary) -> bool:
    """Whether the adjective's noun phrase follows a bearer ("has the same key"), or starts the clause."""
    at = index
    while at > 0 and words[at - 1] in DETERMINERS:
        at -= 1
    if at == 0 or (at == 1 and vocab.has("boundaries", words[0])):
        return True
    return any(listed_at(vocab, "bearers", words, start) for start in range(max(at - 3, 0), at))


def noun_phrases(words: tuple[str, ...], vocab: Vocabulary, predicates: set[int]) -> list[tuple[int, int]]:
    """The noun phrases as (start, end) of runs of content words; a run after "of" belongs to the one before."""
    runs: list[tuple[int, int]] = []
    start = None
    for index, word in enumerate((*words, "")):
        content = word and word not in FUNCTION and index not in predicates and word not in vocab.grammar
        if content and start is not None and _ends_phrase(words, index, vocab):
            runs.append((start, index))
            start = None
            continue
        if content and start is None:
            start = index
        elif not content and start is not None:
            of = start - 1
            while of > 0 and words[of] in DETERMINERS:
                of -= 1
            attached = of >= 1 and words[of] == "of" and of - 1 not in predicates and runs
            if not attached:
                runs.append((start, index))
            start = None
    return runs


def _ends_phrase(words: tuple[str, ...], index: int, vocab: Vocabulary) -> bool:
    """Whether the word at ``index`` cannot go on the phrase before it: it follows a plural noun of the vocabulary
    ("the keys byte by byte"), or it ends in -s after a singular one, a verb ("the key succeeds")."""
    before, word = words[index - 1], words[index]
    nouns = [field for field in NOUNS if vocab.has(field, before)]
    if not nouns or any(vocab.has(field, word) for field in NOUNS):
        return False
    plural = before not in vocab.listed[nouns[0]]
    return plural or (word.endswith(("s", "ed")) and not word.endswith("ss"))


def head(words: tuple[str, ...], run: tuple[int, int]) -> str:
    """The last word of a noun phrase that is not a label ("key K1": "key")."""
    labels = [w for w in words[run[0] : run[1]] if len(w) > 2 and not any(c.isdigit() for c in w)]
    return labels[-1] if labels else words[run[1] - 1]
