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
- a question is read as its statement ("Do the keys match?"); a "No" that
  answers it negates it as "not" would ("Do the keys match? No." still
  reports a comparison, "Does it compare the keys? No." does not).

Clauses joined by "and" or "or" share the scope of the clause they follow;
a clause that "that" or "whether" starts shares its negation.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mechlint.invariants import phrases as words_of
from mechlint.invariants.phrases import BE, DETERMINERS, FUNCTION, listed_at, noun_phrases
from mechlint.invariants.sentences import COORDINATORS, Clause, clauses, sentences
from mechlint.invariants.vocabulary import Vocabulary, vocabulary
from mechlint.records import Record

YES, NO, UNDECIDED = "yes", "no", "undecided"

PRONOUNS = frozenset(("it", "them", "they", "this", "one"))
FUTURE_MARKERS = frozenset(("before", "until"))
TIME_MARKERS = frozenset(("when", "whenever", "once", "if", "after"))
COUNTERFACTUAL = frozenset(("were", "had"))
PREPOSITIONS = frozenset(("of", "to", "in", "on", "at", "by", "for", "from", "with", "than", "as", "into", "onto"))
#: Nouns of the story's time: "in a later step" is not this step.
TIME_NOUNS = frozenset(("step", "steps", "stage", "phase", "round", "moment", "time"))
#: Why a question the next sentence answers "No" is not a comparison ("Does it compare the keys? No.").
_ANSWERED_NO = "it is negated (the answer 'No')"
_WORD = re.compile(r"[a-z0-9][a-z0-9_-]*")


class Judgement(Record):
    """The verdict on one text; ``words`` are the clause that decided it, ``reason`` why it does not count."""

    verdict: str
    words: str = ""
    reason: str = ""


def judge(values: tuple[str, ...], text: str) -> Judgement:
    """The verdict on ``text`` with the vocabulary of a node's ``values``; cached per text."""
    return _judge(values, text)


@lru_cache(maxsize=8192)
def _judge(values: tuple[str, ...], text: str) -> Judgement:
    vocab = vocabulary(values)
    best = Judgement(NO)
    if vocab.predicates.isdisjoint(_WORD.findall(text.lower())):
        return best  # most steps: no word that could start a predicate
    for sentence, question, answered_no in sentences(text):
        scope = ""
        previous: Clause | None = None
        negated_before = False
        later_time = ""  # the later word of a "when" clause before ("When a later request arrives, ..."), or ""
        for clause in clauses(sentence, vocab):
            if previous is None and not question and clause.words[0] in COUNTERFACTUAL:
                clause = clause._replace(marker="if")  # "Had the keys been equal, ...": a condition that did not hold
            if clause.marker in COORDINATORS and previous is not None:
                clause = clause._replace(marker=previous.marker if previous.marker not in COORDINATORS else scope)
            inherited = clause.marker in vocab.words["complements"] and negated_before
            verdict, reason = _clause(clause, vocab, previous, _Context(inherited, answered_no, later_time))
            shown = text[clause.start : clause.end].strip()
            if verdict == YES:
                return Judgement(YES, shown)
            if verdict == UNDECIDED and best.verdict != UNDECIDED:
                best = Judgement(UNDECIDED, shown, reason)
            elif reason and best.verdict == NO and not best.reason:
                best = Judgement(NO, shown, reason)
            negated_before = bool(words_of.negations(clause.words, vocab))
            if clause.marker in TIME_MARKERS:
                later_time = _any(clause.words, vocab, "later") or later_time
            scope = clause.marker if clause.marker not in COORDINATORS else scope
            previous = clause
    return best


class _Context(Record):
    """What the clauses before say of a clause's scope."""

    inherited: bool  # the clause before negates it ("never checks that the key matches")
    answered_no: bool  # it is a question the next sentence answers "No"
    later_time: str  # a "when" clause before it is about a later time ("When a later request arrives, ..."): its word


class _Arguments(Record):
    """The noun phrases of a clause that may be the key, found once per clause (not once per predicate)."""

    key: int | None  # where the first phrase headed by a key or an entry starts
    places: tuple[tuple[int, int], ...]  # the phrases headed by a place, as (start, end)
    pronoun: int  # where the last pronoun is (-1: none)
    about_key: bool  # whether the clause before ends on the key ("it" may be the key)


def _arguments(
    words: tuple[str, ...], vocab: Vocabulary, runs: list[tuple[int, int]], previous: Clause | None
) -> _Arguments:
    key = None
    places = []
    for start, end in runs:
        head = words_of.head(words, (start, end))
        # "a cached record", "cached block matches ...": a participle that starts the clause or follows a determiner
        # (not "B has stored blocks", where it is the verb)
        participle = words[start].endswith("ed") and vocab.has("entries", words[start])
        adjective = start == 0 or words[start - 1] in DETERMINERS or vocab.has("boundaries", words[start - 1])
        if vocab.has("keys", head) or vocab.has("entries", head) or (participle and end - start > 1 and adjective):
            key = start if key is None else key
        elif vocab.has("places", head):
            places.append((start, end))
    pronoun = max((at for at, word in enumerate(words) if word in PRONOUNS), default=-1)
    about_key = False
    if previous is not None and pronoun >= 0:
        earlier = noun_phrases(previous.words, vocab, {i for i, _ in words_of.predicates(previous.words, vocab)})
        if earlier:
            head = words_of.head(previous.words, earlier[-1])
            about_key = vocab.has("keys", head) or vocab.has("entries", head)
    return _Arguments(key, tuple(places), pronoun, about_key)


def _key_argument(words: tuple[str, ...], vocab: Vocabulary, found: _Arguments, index: int) -> int | None:
    """Where the key (or an entry, or a place looked in) is an argument of the predicate at ``index``."""
    if found.key is not None:
        return found.key
    passive = _passive(words, index, vocab)
    for start, end in found.places:  # "looks up the name in its cache", "a cache hit", "the TLB is searched"
        if start > index or (end == index and _bare(words[index], vocab)) or passive:
            return start
    if found.about_key and found.pronoun > index:
        return len(words)  # "it", after a clause about the key
    return None


def _passive(words: tuple[str, ...], index: int, vocab: Vocabulary) -> bool:
    """Whether the predicate at ``index`` is a passive ("the cache is searched"): its subject is what it acts on.

    A form of "be" stands before the participle with only function words, negations and adverbs in -ly between
    ("is not then quickly searched"), or starts a question ("Is the TLB table searched?")."""
    if not words[index].endswith(("ed", "found")):
        return False
    if words[0] in BE:
        return True
    for word in reversed(words[:index]):
        if word in BE:
            return True
        if not (word in FUNCTION or word.endswith("ly") or vocab.has("negations", word)):
            return False
    return False


def _bare(word: str, vocab: Vocabulary) -> bool:
    """Whether a predicate word is written as listed (a noun such as "hit", "lookup"), not inflected as a verb."""
    return word in vocab.listed["acts"] or word in vocab.listed["outcomes"]


def _later_step(words: tuple[str, ...], vocab: Vocabulary) -> bool:
    """Whether the clause is about a later time of the story: "in a later step", "at the next stage", or a later word
    that ends it as an adverb ("the keys are compared later"; not "with another", "the next")."""
    return any(
        vocab.has("later", word)
        and (
            words[index + 1] in TIME_NOUNS
            if index + 1 < len(words)
            else index > 0 and words[index - 1] not in DETERMINERS and words[index - 1] not in PREPOSITIONS
        )
        for index, word in enumerate(words)
    )


def _any(words: tuple[str, ...], vocab: Vocabulary, field: str) -> str:
    """The first word (or phrase) of ``field`` in the clause, or ""."""
    for index, word in enumerate(words):
        if listed_at(vocab, field, words, index):
            return word
    return ""


def _clause(clause: Clause, vocab: Vocabulary, previous: Clause | None, context: _Context) -> tuple[str, str]:
    """The verdict on one clause, and why it does not count (for a message), or ""."""
    words = clause.words
    predicates = words_of.predicates(words, vocab)
    if not predicates:
        return NO, ""
    runs = noun_phrases(words, vocab, {index for index, _ in predicates})
    found = _arguments(words, vocab, runs, previous)
    for index, kind in predicates:
        key = _key_argument(words, vocab, found, index)
        if key is not None:
            return _scope(clause, vocab, index, kind, key, context)
    compared = [words_of.head(words, run) for run in runs]
    return NO, (f"what it compares is not the key ({', '.join(compared)})" if compared else "")


def _scope(clause: Clause, vocab: Vocabulary, index: int, kind: str, key: int, context: _Context) -> tuple[str, str]:
    words, marker, answered_no = clause.words, clause.marker, context.answered_no
    negations = words_of.negations(words, vocab)
    before = [at for at in negations if at < index]
    between = [at for at in negations if index < at < key or key < index < at]
    # "Do the keys match? No." reads as "the keys do not match": the answer negates the predicate, as "not" would
    if len(before) + answered_no >= 2:
        denied = [words[at] for at in before] + (["the answer No"] if answered_no else [])
        return UNDECIDED, f"it has two negations ({', '.join(denied)})"
    modal = _any(words, vocab, "hypothetical")
    if modal:
        return NO, f"it may or will happen, not that it does ({modal!r})"
    later = _any(words, vocab, "later")
    if marker in FUTURE_MARKERS:
        return NO, f"it happens later ({marker!r})"
    if (later and (marker in TIME_MARKERS or kind == "alike" or _later_step(words, vocab))) or context.later_time:
        return NO, f"it happens later ({later or context.later_time!r})"
    if vocab.has("conditional", marker) and any(word in COUNTERFACTUAL for word in words):
        return NO, f"it is a hypothetical ({marker!r} ... {next(w for w in words if w in COUNTERFACTUAL)!r})"
    if context.inherited:
        return NO, "it is negated"
    if (before or between or answered_no) and (kind == "act" or key > index):
        return NO, f"it is negated ({words[(before or between)[0]]!r})" if before or between else _ANSWERED_NO
    if vocab.has("conditional", marker):
        return UNDECIDED, f"it is under a condition ({marker!r})"
    obliged = _any(words, vocab, "obligation")
    if obliged:
        return UNDECIDED, f"it says what must happen ({obliged!r})"
    return YES, ""
