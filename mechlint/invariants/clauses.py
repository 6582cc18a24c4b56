"""Whether a step's text says that a comparison happens: a small, deterministic clause analysis.

A text is split into sentences (at ``. ! ? ; :`` and line breaks) and each
sentence into clauses (at commas and at the boundary words of the
vocabulary: "and", "if", "that", ...). In each clause it looks for a
*predicate*: an act of comparing ("compares", "looks up"), an outcome
("match", "found", "hit"), or an adjective of an outcome ("equal", "the same
as"; "the same key" only after a bearer such as "has" or "with"). The
predicate counts when an *argument* of the clause is the key: a noun phrase
whose head is a key noun (not "the key's age": its head is "age"), an entry
of the cache ("a cached record"), a place looked in after the predicate
("in its cache"), or "it" after a clause about a key.

Then scope, within the clause:

- negation before the predicate ("never checks the key", "skips the key
  check", "without comparing") means the act did not happen. Negated
  *outcomes* with the key as subject ("the keys do not match") still report a
  comparison. Two negations ("never fails to") cannot be judged.
- a modal ("could", "will"), a hypothetical ("if the keys were equal"), a
  future ("when a later request ...", "before the keys are compared") is not
  a comparison that happens.
- a real condition ("if the keys match") or an obligation ("must compare")
  cannot be judged: the verdict is ``undecided``, with the words.
- a question is read as its statement ("Do the keys match?"), unless the
  next sentence answers "No".

Clauses joined by "and" or "or" share the scope of the clause they follow;
a clause that "that" or "whether" starts shares its negation.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mechlint.invariants.vocabulary import Vocabulary, vocabulary
from mechlint.records import Record

YES, NO, UNDECIDED = "yes", "no", "undecided"

#: Words that are never part of a noun phrase's head: they end one.
FUNCTION = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "its",
        "it",
        "their",
        "them",
        "they",
        "his",
        "her",
        "he",
        "she",
        "we",
        "you",
        "i",
        "our",
        "your",
        "my",
        "me",
        "us",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "into",
        "onto",
        "with",
        "against",
        "among",
        "between",
        "within",
        "across",
        "over",
        "under",
        "about",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "having",
        "get",
        "gets",
        "got",
        "and",
        "or",
        "but",
        "so",
        "then",
        "than",
        "if",
        "when",
        "while",
        "whether",
        "which",
        "who",
        "whose",
        "where",
        "also",
        "again",
        "only",
        "just",
        "now",
        "each",
        "every",
        "all",
        "both",
        "any",
        "some",
        "one",
        "first",
        "last",
        "very",
        "there",
        "here",
        "too",
        "even",
        "still",
    ]
)
BE = frozenset(("is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"))
PRONOUNS = frozenset(("it", "them", "they", "this", "one"))
NOUNS = ("keys", "entries", "places")
COORDINATORS = frozenset(("and", "or"))
FUTURE_MARKERS = frozenset(("before", "until"))
TIME_MARKERS = frozenset(("when", "whenever", "once", "if", "after"))
COUNTERFACTUAL = frozenset(("were", "had"))
#: Words between a bearer and an adjective: "has exactly the same key".
DETERMINERS = frozenset(("a", "an", "the", "its", "their", "his", "her", "our", "your", "exactly", "precisely", "very"))

_TOKEN = re.compile(r"\d+(?:\.\d+)+|[A-Za-z0-9][A-Za-z0-9_-]*(?:['’][A-Za-z]+)?|[.!?;:,\n]")
_WORD = re.compile(r"[a-z0-9][a-z0-9_-]*")
_CONTRACTIONS = {
    "can't": ("can", "not"),
    "won't": ("will", "not"),
    "cannot": ("can", "not"),
    "shan't": ("shall", "not"),
}


class Judgement(Record):
    """The verdict on one text; ``words`` are the clause that decided it, ``reason`` why it does not count."""

    verdict: str
    words: str = ""
    reason: str = ""


class _Clause(Record):
    words: tuple[str, ...]
    start: int
    end: int
    marker: str


def judge(values: tuple[str, ...], text: str) -> Judgement:
    """The verdict on ``text`` with the vocabulary of a node's ``values``; cached per text."""
    return _judge(values, text)


@lru_cache(maxsize=8192)
def _judge(values: tuple[str, ...], text: str) -> Judgement:
    vocab = vocabulary(values)
    best = Judgement(NO)
    if vocab.predicates.isdisjoint(_WORD.findall(text.lower())):
        return best  # most steps: no word that could start a predicate
    for sentence, question, answered_no in _sentences(text):
        scope = ""
        previous: _Clause | None = None
        negated_before = False
        for clause in _clauses(sentence, vocab):
            if previous is None and not question and clause.words[0] in COUNTERFACTUAL:
                clause = clause._replace(marker="if")  # "Had the keys been equal, ...": a condition that did not hold
            if clause.marker in COORDINATORS and previous is not None:
                clause = clause._replace(marker=previous.marker if previous.marker not in COORDINATORS else scope)
            inherited = answered_no or (clause.marker in vocab.words["complements"] and negated_before)
            verdict, reason = _clause(clause, vocab, previous, inherited)
            shown = text[clause.start : clause.end].strip()
            if verdict == YES:
                return Judgement(YES, shown)
            if verdict == UNDECIDED and best.verdict != UNDECIDED:
                best = Judgement(UNDECIDED, shown, reason)
            elif reason and best.verdict == NO and not best.reason:
                best = Judgement(NO, shown, reason)
            negated_before = bool(_negations(clause.words, vocab))
            scope = clause.marker if clause.marker not in COORDINATORS else scope
            previous = clause
    return best


def _sentences(text: str) -> list[tuple[list[tuple[str, int, int]], bool, bool]]:
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
        for word in _words(token.lower()):
            out[-1].append((word, match.start(), match.end()))
    sentences = [sentence for sentence in out if sentence]
    asked = [question for sentence, question in zip(out, questions, strict=True) if sentence]
    return [
        (sentence, asked[index], asked[index] and index + 1 < len(sentences) and sentences[index + 1][0][0] == "no")
        for index, sentence in enumerate(sentences)
    ]


def _words(token: str) -> tuple[str, ...]:
    token = token.replace("’", "'")
    if token in _CONTRACTIONS:
        return _CONTRACTIONS[token]
    if token.endswith("n't"):
        return (token[:-3], "not")
    stem, apostrophe, ending = token.partition("'")
    if apostrophe and ending in ("ll", "d"):
        return (stem, "will" if ending == "ll" else "would")
    return (stem,) if apostrophe else (token,)


def _clauses(sentence: list[tuple[str, int, int]], vocab: Vocabulary) -> list[_Clause]:
    clauses: list[_Clause] = []
    current: list[tuple[str, int, int]] = []
    marker = ""

    def close() -> None:
        if current:
            clauses.append(_Clause(tuple(w for w, _, _ in current), current[0][1], current[-1][2], marker))

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
    merged: list[_Clause] = []
    for clause in clauses:  # "the stored tag and the page number match": one clause
        if clause.marker in COORDINATORS and merged and not _predicates(merged[-1].words, vocab):
            first = merged.pop()
            clause = _Clause(first.words + clause.words, first.start, clause.end, first.marker)
        merged.append(clause)
    return merged


def _object_clause(current: list[tuple[str, int, int]], word: str, vocab: Vocabulary) -> bool:
    """Whether ``word`` starts what an act of comparing acts on ("checks whether the key ..."): not a new clause."""
    words = tuple(w for w, _, _ in current)
    return vocab.has("complements", word) and _is(vocab, "acts", words, len(words) - 1)


def _phrase_at(words: tuple[str, ...], index: int, vocab: Vocabulary, field: str, gap: int = 0) -> bool:
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


def _negations(words: tuple[str, ...], vocab: Vocabulary) -> list[int]:
    found = []
    for index, word in enumerate(words):
        if word == "not" and words[index + 1 : index + 2] == ("only",):
            continue
        if vocab.has("negations", word) or _phrase_at(words, index, vocab, "negations"):
            found.append(index)
    return found


def _is(vocab: Vocabulary, field: str, words: tuple[str, ...], index: int, gap: int = 0) -> bool:
    return vocab.has(field, words[index]) or _phrase_at(words, index, vocab, field, gap)


def _predicates(words: tuple[str, ...], vocab: Vocabulary) -> list[tuple[int, str]]:
    """(index, kind) of each predicate: ``act``, ``outcome`` or ``alike`` (an adjective)."""
    found = []
    for index, word in enumerate(words):
        if vocab.has("alike", word):
            if _attributive(words, index) and not _borne(words, index, vocab):
                continue
            found.append((index, "alike"))
        elif _is(vocab, "acts", words, index, gap=3):
            found.append((index, "act"))
        elif _is(vocab, "outcomes", words, index, gap=3):
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
    return any(_is(vocab, "bearers", words, start) for start in range(max(at - 3, 0), at))


def _phrases(words: tuple[str, ...], vocab: Vocabulary, predicates: set[int]) -> list[tuple[int, int]]:
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


def _head(words: tuple[str, ...], run: tuple[int, int]) -> str:
    """The last word of a noun phrase that is not a label ("key K1": "key")."""
    labels = [w for w in words[run[0] : run[1]] if len(w) > 2 and not any(c.isdigit() for c in w)]
    return labels[-1] if labels else words[run[1] - 1]


def _key_argument(
    words: tuple[str, ...], vocab: Vocabulary, runs: list[tuple[int, int]], index: int, previous: _Clause | None
) -> int | None:
    """Where the key (or an entry, or a place looked in) is an argument of the predicate at ``index``."""
    for start, end in runs:
        head = _head(words, (start, end))
        if vocab.has("keys", head) or vocab.has("entries", head):
            return start
        participle = words[start].endswith("ed") and vocab.has("entries", words[start])
        if participle and end - start > 1 and words[start - 1 : start] and words[start - 1] in DETERMINERS:
            return start  # "a cached record"
        if vocab.has("places", head) and (
            start > index or (end == index and _bare(words[index], vocab)) or _passive(words, index)
        ):
            return start  # "looks up the name in its cache", "a cache hit"
    if previous is not None and any(word in PRONOUNS for word in words[index + 1 :]):
        earlier = _phrases(previous.words, vocab, {i for i, _ in _predicates(previous.words, vocab)})
        if earlier:
            head = _head(previous.words, earlier[-1])
            if vocab.has("keys", head) or vocab.has("entries", head):
                return len(words)  # "it", after a clause about the key
    return None


def _passive(words: tuple[str, ...], index: int) -> bool:
    """Whether the predicate at ``index`` is a passive ("the cache is searched"): its subject is what it acts on."""
    return words[index].endswith(("ed", "found")) and any(word in BE for word in words[max(index - 3, 0) : index])


def _bare(word: str, vocab: Vocabulary) -> bool:
    """Whether a predicate word is written as listed (a noun such as "hit", "lookup"), not inflected as a verb."""
    return word in vocab.listed["acts"] or word in vocab.listed["outcomes"]


def _any(words: tuple[str, ...], vocab: Vocabulary, field: str) -> str:
    """The first word (or phrase) of ``field`` in the clause, or ""."""
    for index, word in enumerate(words):
        if _is(vocab, field, words, index):
            return word
    return ""


def _clause(clause: _Clause, vocab: Vocabulary, previous: _Clause | None, inherited: bool) -> tuple[str, str]:
    """The verdict on one clause, and why it does not count (for a message), or ""."""
    words = clause.words
    predicates = _predicates(words, vocab)
    if not predicates:
        return NO, ""
    runs = _phrases(words, vocab, {index for index, _ in predicates})
    for index, kind in predicates:
        key = _key_argument(words, vocab, runs, index, previous)
        if key is not None:
            return _scope(clause, vocab, index, kind, key, inherited)
    compared = [_head(words, run) for run in runs]
    return NO, (f"what it compares is not the key ({', '.join(compared)})" if compared else "")


def _scope(clause: _Clause, vocab: Vocabulary, index: int, kind: str, key: int, inherited: bool) -> tuple[str, str]:
    words, marker = clause.words, clause.marker
    negations = _negations(words, vocab)
    before = [at for at in negations if at < index]
    between = [at for at in negations if index < at < key or key < index < at]
    if len(before) >= 2:
        return UNDECIDED, f"it has two negations ({', '.join(words[at] for at in before)})"
    modal = _any(words, vocab, "hypothetical")
    if modal:
        return NO, f"it may or will happen, not that it does ({modal!r})"
    if marker in FUTURE_MARKERS or ((marker in TIME_MARKERS or kind == "alike") and _any(words, vocab, "later")):
        return NO, f"it happens later ({marker!r})"
    if vocab.has("conditional", marker) and any(word in COUNTERFACTUAL for word in words):
        return NO, f"it is a hypothetical ({marker!r} ... {next(w for w in words if w in COUNTERFACTUAL)!r})"
    if inherited:
        return NO, "it is negated"
    if (before or between) and (kind == "act" or key > index):
        return NO, f"it is negated ({words[(before or between)[0]]!r})"
    if vocab.has("conditional", marker):
        return UNDECIDED, f"it is under a condition ({marker!r})"
    obliged = _any(words, vocab, "obligation")
    if obliged:
        return UNDECIDED, f"it says what must happen ({obliged!r})"
    return YES, ""
