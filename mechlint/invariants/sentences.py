"""A step's text as sentences of words, and each sentence as clauses (see :mod:`mechlint.invariants.clauses`)."""

from __future__ import annotations

import re

from mechlint.invariants.phrases import BE, listed_at, predicates
from mechlint.invariants.vocabulary import Vocabulary
from mechlint.records import Record

COORDINATORS = frozenset(("and", "or"))
#: Words that only a clause has, never a noun phrase: "B does not prefill, and ..." is a clause of its own.
FINITE = BE | frozenset(("do", "does", "did", "has", "have", "had", "not", "never"))

_TOKEN = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9][A-Za-z0-9_-]*(?:['’][A-Za-z]+)?|[.!?;:,\n]")
_CONTRACTIONS = {
    "can't": ("can", "not"),
    "won't": ("will", "not"),
    "cannot": ("can", "not"),
    "shan't": ("shall", "not"),
}


class Clause(Record):
    words: tuple[str, ...]
    start: int
    end: int
    marker: str


def sentences(text: str) -> list[tuple[list[tuple[str, int, int]], bool, bool]]:
    """Sentences as tokens (word, start, end), each with whether it is a question and the next one answers "No"."""
    out: list[list[tuple[str, int, int]]] = [[]]
    questions = [False]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ".!?;:\n":
            questions[-1] = token == "?"
            if out[-1]:
                out.append([])
                questions.append(False)
            continue
        if token == ",":
            out[-1].append((",", match.start(), match.end()))
            continue
        for word in split_word(token.lower()):
            out[-1].append((word, match.start(), match.end()))
    sentences = [sentence for sentence in out if sentence]
    asked = [question for sentence, question in zip(out, questions, strict=True) if sentence]
    return [
        (sentence, asked[index], asked[index] and index + 1 < len(sentences) and sentences[index + 1][0][0] == "no")
        for index, sentence in enumerate(sentences)
    ]


def split_word(token: str) -> tuple[str, ...]:
    token = token.replace("’", "'")
    if token in _CONTRACTIONS:
        return _CONTRACTIONS[token]
    if token.endswith("n't"):
        return (token[:-3], "not")
    stem, apostrophe, ending = token.partition("'")
    if apostrophe and ending in ("ll", "d"):
        return (stem, "will" if ending == "ll" else "would")
    return (stem,) if apostrophe else (token,)


def clauses(sentence: list[tuple[str, int, int]], vocab: Vocabulary) -> list[Clause]:
    clauses: list[Clause] = []
    current: list[tuple[str, int, int]] = []
    marker = ""

    def close() -> None:
        if current:
            clauses.append(Clause(tuple(w for w, _, _ in current), current[0][1], current[-1][2], marker))

    for word, start, end in sentence:
        if word == ",":
            close()
            current, marker = [], ""
        elif vocab.has("boundaries", word) and current and not _object_clause(current, word, vocab):
            close()
            current, marker = [(word, start, end)], word
        else:
            if not current and vocab.has("boundaries", word):
                marker = word
            current.append((word, start, end))
    close()
    merged: list[Clause] = []
    for clause in clauses:  # "the stored tag and the page number match": one clause
        if clause.marker in COORDINATORS and merged and _subject(merged[-1].words, vocab):
            first = merged.pop()
            clause = Clause(first.words + clause.words, first.start, clause.end, first.marker)
        merged.append(clause)
    return merged


def _subject(words: tuple[str, ...], vocab: Vocabulary) -> bool:
    """Whether a clause before "and" is only a noun phrase, a subject shared with what follows ("the stored tag"):
    it has no predicate of comparing, and no auxiliary or "not" that would make it a clause of its own."""
    return FINITE.isdisjoint(words) and not predicates(words, vocab)


def _object_clause(current: list[tuple[str, int, int]], word: str, vocab: Vocabulary) -> bool:
    """Whether ``word`` starts what a predicate of comparing is about ("checks whether the key ...", "finds that
    the hashes ..."): not a new clause."""
    words = tuple(w for w, _, _ in current)
    last = len(words) - 1
    return vocab.has("complements", word) and any(
        listed_at(vocab, field, words, last) for field in ("acts", "outcomes")
    )
