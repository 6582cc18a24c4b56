"""The words a clause analysis reads with: which verbs compare, which nouns are "the key", which words negate.

Verbs are given in their plain form ("compare"; irregular forms such as
"found" as words of their own) and nouns in the singular: the regular
inflections are added. Grammar words are taken as written.

An invariant file names them in a definition's ``[...clause]`` table (see
``docs/invariants.md``); the grammar words (negation, modality, clause
boundaries) have defaults here that a file may replace. Each list is kept as
written, so that a :class:`Vocabulary` travels as a tuple of strings (a
formula node's values) and is built once per distinct tuple.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from mechlint.records import Record

#: The lists a clause table may give, in the order they are kept in a node's values.
#: The first five say what the comparison is; the rest are grammar, with defaults.
FIELDS = (
    "acts",
    "outcomes",
    "keys",
    "entries",
    "places",
    "alike",
    "bearers",
    "negations",
    "hypothetical",
    "conditional",
    "obligation",
    "later",
    "boundaries",
    "complements",
)
REQUIRED = ("acts", "outcomes", "keys")
#: Lists of verbs, and of nouns, whose regular inflections (and plurals) are added; the others are taken as written.
VERBS = ("acts", "outcomes", "bearers")
NOUNS = ("keys", "entries", "places")
#: Lists of grammar words: none of them is ever part of a noun phrase.
GRAMMAR = ("negations", "hypothetical", "conditional", "obligation", "boundaries")

DEFAULTS: Mapping[str, tuple[str, ...]] = {
    "entries": (),
    "places": (),
    # adjectives of an outcome: "the keys are equal", "B has the same key"
    "alike": ("same", "equal", "identical", "different", "matching", "mismatched", "unequal", "distinct"),
    # "the same key" is a comparison after these (has the same key), not after any verb (derive the same keys)
    "bearers": ("have", "has", "had", "share", "with", "carry", "bear", "hold", "held", "hash to", "map to"),
    "negations": (
        "not", "never", "no", "none", "nothing", "nobody", "no one", "neither", "nor", "without", "skip", "skips",
        "skipped", "skipping", "fail to", "fails to", "failed to", "failing to", "instead of", "rather than",
        "no longer", "omit", "omits", "omitted", "bypass", "bypasses", "bypassed", "ignore", "ignores", "ignored",
        "left out", "leaves out",
    ),
    # a comparison that may or will happen, or would under a condition that does not hold: not one that happens
    "hypothetical": (
        "can", "could", "would", "may", "might", "will", "shall", "going to", "suppose", "supposing", "imagine",
        "assume", "assuming",
    ),
    # a comparison under a real condition: the step may or may not do it; the analysis cannot decide
    "conditional": ("if", "unless"),
    # a comparison that is required: the step says it must happen, not that it does
    "obligation": ("must", "should", "need to", "needs to", "has to", "have to", "ought to", "supposed to"),
    # "when a later request ..." is about a future step, not this one
    "later": ("later", "next", "future", "subsequent", "another", "afterwards"),
    "boundaries": (
        "and", "but", "or", "so", "then", "while", "whereas", "because", "although", "though", "since",
        "after", "before", "until", "when", "whenever", "once", "if", "unless", "which", "that", "whether",
        "where",
    ),
    # a clause these start says what the clause before it says of it: it shares that clause's negation
    "complements": ("that", "whether"),
}  # fmt: skip


class Vocabulary(Record):
    """The word forms of each list: single words as a set, phrases of several words as tuples."""

    words: Mapping[str, frozenset[str]]
    phrases: Mapping[str, tuple[tuple[str, ...], ...]]
    #: The single words of each list as written, without the inflections.
    listed: Mapping[str, frozenset[str]]
    #: The first words of each list's phrases: a word that starts none is looked up once.
    starts: Mapping[str, frozenset[str]]
    #: Every word of the grammar lists, and every first word of their phrases: never part of a noun phrase.
    grammar: frozenset[str]
    #: Every word that may start a predicate: a text with none of them is judged without reading it.
    predicates: frozenset[str]

    def has(self, field: str, word: str) -> bool:
        return word in self.words[field]


def values_of(table: Mapping[str, Iterable[str]]) -> tuple[str, ...]:
    """A clause table as a node's values: one ``field=word|word`` string per list, defaults filled in."""
    out = []
    for field in FIELDS:
        words = table.get(field)
        chosen = tuple(words) if words is not None else DEFAULTS.get(field, ())
        out.append(f"{field}=" + "|".join(" ".join(word.lower().split()) for word in chosen))
    return tuple(out)


@lru_cache(maxsize=64)
def vocabulary(values: tuple[str, ...]) -> Vocabulary:
    """The vocabulary a node's values describe, built once for each distinct vocabulary."""
    words: dict[str, frozenset[str]] = {}
    phrases: dict[str, tuple[tuple[str, ...], ...]] = {}
    listed: dict[str, frozenset[str]] = {}
    for item in values:
        field, _, joined = item.partition("=")
        entries = [entry.split() for entry in joined.split("|") if entry.strip()]
        inflect = _plurals if field in NOUNS else _forms if field in VERBS else _literal
        listed[field] = frozenset(entry[0] for entry in entries if len(entry) == 1)
        words[field] = frozenset(form for entry in entries if len(entry) == 1 for form in inflect(entry[0]))
        phrases[field] = tuple(
            (form, *entry[1:]) for entry in entries if len(entry) > 1 for form in sorted(inflect(entry[0]))
        )
    starts = {field: frozenset(phrase[0] for phrase in found) for field, found in phrases.items()}
    grammar = frozenset().union(*(words[field] | starts[field] for field in GRAMMAR))
    predicates = frozenset().union(*(words[field] | starts[field] for field in ("acts", "outcomes", "alike")))
    return Vocabulary(words, phrases, listed, starts, grammar, predicates)


def _literal(word: str) -> set[str]:
    return {word}


def _plurals(word: str) -> set[str]:
    forms = {word, word + "s", word + "es"}
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        forms.add(word[:-1] + "ies")
    return forms


def _forms(word: str) -> set[str]:
    """The regular inflections of a verb (and of a noun: its plural); irregular ones are listed as words."""
    forms = _plurals(word) | {word + "ed", word + "d", word + "ing", word + word[-1:] + "ed", word + word[-1:] + "ing"}
    if word.endswith("e"):
        forms.add(word[:-1] + "ing")
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        forms.add(word[:-1] + "ied")
    return forms


def show_clause(name: str, table: Mapping[str, Iterable[str]]) -> str:
    """A clause table as TOML lines, for ``mechlint rule`` (the lists it gives; the defaults are not repeated)."""
    lines = [f"[invariant.define.{name}.clause]"]
    for field in FIELDS:
        if field in table:
            lines.append(f"{field} = [" + ", ".join(f'"{word}"' for word in table[field]) + "]")
    return "\n".join(lines)
