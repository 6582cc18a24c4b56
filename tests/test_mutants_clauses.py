"""Tests written for the survivors of the mutation runs (``scripts/mutate.py``) on the clause analysis.

The modules are ``mechlint.invariants.sentences``, ``mechlint.invariants.wording``,
``mechlint.invariants.clauses``, ``mechlint.invariants.phrases`` and
``mechlint.invariants.vocabulary``: what decides whether a step's text says
that it compares the cache key (``docs/invariants.md``). Where a sentence an
author could write was the better test, it is a line of
``tests/data/key-comparisons.txt`` instead; the tests here pin the parts'
exact results (tokens, clauses, messages, pointers) that the table cannot see.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import Config, load_config
from mechlint.invariants.clauses import NO, UNDECIDED, YES, Judgement, judge
from mechlint.invariants.phrases import head, listed_at, negations, noun_phrases, phrase_at, predicates
from mechlint.invariants.sentences import clauses, sentences, split_word
from mechlint.invariants.vocabulary import FIELDS, show_clause, values_of, vocabulary

from .test_clause_analysis import NOTE, _values

# --- sentences ---


def test_a_text_without_a_final_stop_is_a_statement() -> None:
    assert sentences("Compare the keys") == [([("compare", 0, 7), ("the", 8, 11), ("keys", 12, 16)], False, False)]


def test_each_sentence_knows_whether_it_is_a_question_and_whether_no_answers_it() -> None:
    text = "B stores it. Do the keys match? No"
    assert sentences(text) == [
        ([("b", 0, 1), ("stores", 2, 8), ("it", 9, 11)], False, False),
        ([("do", 13, 15), ("the", 16, 19), ("keys", 20, 24), ("match", 25, 30)], True, True),
        ([("no", 32, 34)], False, False),
    ]


def test_only_the_next_sentence_answers_a_question() -> None:
    text = "No entry is stored. Is the key compared? It is. No."
    assert [(question, answered) for _, question, answered in sentences(text)] == [
        (False, False),
        (True, False),
        (False, False),
        (False, False),
    ]


def test_commas_stay_in_the_sentence_and_contractions_are_split() -> None:
    text = "It can't, it won't; it'll match, it'd differ and B's key doesn't."
    assert [[word for word, _, _ in tokens] for tokens, _, _ in sentences(text)] == [
        ["it", "can", "not", ",", "it", "will", "not"],
        ["it", "will", "match", ",", "it", "would", "differ", "and", "b", "key", "does", "not"],
    ]


def test_split_word() -> None:
    assert [split_word(word) for word in ("cannot", "shan't", "isn’t", "we'll", "he'd", "a's", "key")] == [
        ("can", "not"),
        ("shall", "not"),
        ("is", "not"),
        ("we", "will"),
        ("he", "would"),
        ("a",),
        ("key",),
    ]


# --- a question answered "No" ---


def test_a_no_negates_the_question_as_not_would() -> None:
    values = _values()
    assert [judge(values, text) for text in ANSWERED] == [
        Judgement(YES, "Do the keys match"),
        Judgement(NO, "Does the cache compare the keys", "it is negated (the answer 'No')"),
        Judgement(UNDECIDED, "Does the cache never check the key", "it has two negations (never, the answer No)"),
    ]


ANSWERED = (
    "Do the keys match? No.",  # the keys do not match: a comparison, a miss
    "Does the cache compare the keys? No.",  # it does not compare them
    "Does the cache never check the key? No.",  # two negations
)


# --- clauses ---


def _clauses(text: str) -> list[tuple[str, str]]:
    vocab = vocabulary(_values())
    return [(text[c.start : c.end], c.marker) for tokens, _, _ in sentences(text) for c in clauses(tokens, vocab)]


def test_a_sentence_is_cut_at_commas_and_boundaries_but_not_inside_what_a_predicate_is_about() -> None:
    text = (
        "If the keys match, B reuses them and the cache finds that the tags agree but never checks whether it is fresh."
    )
    assert _clauses(text) == [
        ("If the keys match", "if"),
        ("B reuses them and the cache finds that the tags agree", ""),  # the part before "and" has no predicate
        ("but never checks whether it is fresh", "but"),
    ]


def test_and_joins_a_clause_to_the_one_before_only_when_that_one_has_no_predicate() -> None:
    text = "The router compares the prompts, and the stored tag and the page number match."
    assert _clauses(text) == [
        ("The router compares the prompts", ""),
        ("and the stored tag and the page number match", "and"),
    ]


# --- wording: the note on text that cannot be judged ---


def test_the_note_points_into_a_state_value_and_underlines_the_words(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = copy.deepcopy(seed_data)
    data["scenarios"][0]["steps"][2].update(
        title="B and the entry",
        description="B waits.",
        state={"stage/phase~1": "Step three. If the keys match, B can use the blocks.", "artifact": "The entry"},
    )
    path = _write(tmp_path, data)
    results = lint([path], Config(root=tmp_path).with_flags(select=["invariant"]), root=tmp_path).results
    assert [(r.rule_id, r.pointer) for r in results] == [(NOTE, "/scenarios/0/steps/2/state/stage~1phase~01")]
    region = results[0].region
    line = path.read_text(encoding="utf-8").splitlines()[region.start_line - 1]
    assert (region.start_line, line[region.start_column - 1 : region.end_column - 1]) == (
        region.end_line,
        "If the keys match",
    )


CHECKS_KEY = """
[[invariant]]
name = "reuse-after-key-check"
summary = "A block is used again only at or after a step that checks its key."
formula = 'path("reuse*") implies once(checks_key)'

[invariant.define.checks_key.clause]
acts = ["compare"]
outcomes = ["match"]
keys = ["key"]
"""


def test_the_note_on_the_step_it_decides_names_a_definition_without_says(
    tmp_path: Path, seed_data: dict[str, Any]
) -> None:
    (tmp_path / "checks.toml").write_text(CHECKS_KEY, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["checks.toml"]\n', encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant/reuse-after-key-check", NOTE])
    data = copy.deepcopy(seed_data)
    steps = data["scenarios"][0]["steps"]
    steps[2].update(title="B and the entry", description="B waits.", state={"stage": "Waiting"})
    steps[3].update(title="Use the blocks", description="If the keys match, B reuses the blocks.", state={})
    results = lint([_write(tmp_path, data)], config, root=tmp_path).results
    assert [(r.rule_id, r.pointer, r.message) for r in results] == [
        (
            NOTE,
            "/scenarios/0/steps/3/description",
            'in scenario "compatible-hit", steps[3] ("Use the blocks") is taken as a step that satisfies checks_key '
            'for invariant/reuse-after-key-check, but "If the keys match" could not be judged: it is under a '
            "condition ('if')",
        )
    ]


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    folder = tmp_path / "mechanisms"
    folder.mkdir(exist_ok=True)
    path = folder / "mechanism.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_the_wording_hint_names_a_definition_without_says(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    table = CHECKS_KEY.replace(
        "\n[invariant.define.checks_key.clause]", EXAMPLE + "\n[invariant.define.checks_key.clause]"
    )
    (tmp_path / "checks.toml").write_text(table, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["checks.toml"]\n', encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant/reuse-after-key-check", NOTE])
    data = copy.deepcopy(seed_data)
    steps = data["scenarios"][0]["steps"]
    steps[2].update(title="B and the entry", description="The cache never compares the key.", state={})
    steps[3].update(title="Use the blocks", description="B reuses the blocks.", state={})
    results = lint([_write(tmp_path, data)], config, root=tmp_path).results
    assert [(r.pointer, r.message) for r in results] == [
        (
            "/scenarios/0/steps/3",
            'in scenario "compatible-hit", reuse0 and reuse1 are animated in steps[3] ("Use the blocks"), but no step '
            "up to this one satisfies checks_key; a step counts when its title, description or state says that it "
            'satisfies checks_key, e.g. "the key of B is compared with the stored key" (steps[2] ("B and the entry") '
            "does not count: \"The cache never compares the key\": it is negated ('never'))",
        )
    ]


@pytest.mark.parametrize(
    ("where", "said"),
    [
        (0, ' (steps[0] ("A prefills the prefix") does not count: "The cache never compares the key": it is negated '
         "('never'))"),
        (1, ' (steps[1] ("Keep the cache entries") does not count: "The cache never compares the key": it is '
         "negated ('never'))"),
        (3, ""),  # nor is the failing step itself
        (4, ""),  # nor a step after it
    ],
)  # fmt: skip
def test_the_near_miss_is_the_nearest_step_before(
    tmp_path: Path, seed_data: dict[str, Any], where: int, said: str
) -> None:
    table = CHECKS_KEY.replace(
        "\n[invariant.define.checks_key.clause]", EXAMPLE + "\n[invariant.define.checks_key.clause]"
    )
    (tmp_path / "checks.toml").write_text(table, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["checks.toml"]\n', encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant/reuse-after-key-check", NOTE])
    data = copy.deepcopy(seed_data)
    steps = data["scenarios"][0]["steps"]
    steps[2].update(title="B and the entry", description="B waits.", state={})
    steps[3].update(title="Use the blocks", description="B reuses the blocks.", state={})
    steps[where].update(description="The cache never compares the key.", state={})
    results = lint([_write(tmp_path, data)], config, root=tmp_path).results
    assert [(r.pointer, r.message) for r in results] == [
        (
            "/scenarios/0/steps/3",
            'in scenario "compatible-hit", reuse0 and reuse1 are animated in steps[3] ("Use the blocks"), but no step '
            "up to this one satisfies checks_key; a step counts when its title, description or state says that it "
            'satisfies checks_key, e.g. "the key of B is compared with the stored key"' + said,
        )
    ]


EXAMPLE = """
[invariant.define.checks_key]
example = "the key of B is compared with the stored key"
"""


# --- clauses: the verdict, the words that decided it and why ---


@pytest.mark.parametrize(
    ("text", "verdict", "words", "reason"),
    [
        ("It never checks the key.", NO, "It never checks the key", "it is negated ('never')"),
        (
            "The scheduler compares the prompt, not the key.",
            NO,
            "The scheduler compares the prompt",
            "what it compares is not the key (scheduler, prompt)",
        ),
        (
            "A later request with an equal key could use it.",
            NO,
            "A later request with an equal key could use it",
            "it may or will happen, not that it does ('could')",
        ),
        ("Before the keys are compared, B waits.", NO, "Before the keys are compared", "it happens later ('before')"),
        (
            "In a later step the keys are compared.",
            NO,
            "In a later step the keys are compared",
            "it happens later ('later')",
        ),
        (
            "When a later request arrives, its key is compared with the stored keys.",
            NO,
            "its key is compared with the stored keys",
            "it happens later ('later')",
        ),
        (
            "Had the keys been equal, B would reuse the block.",
            NO,
            "Had the keys been equal",
            "it is a hypothetical ('if' ... 'had')",
        ),
        (
            "If the keys were equal, B would reuse it.",
            NO,
            "If the keys were equal",
            "it is a hypothetical ('if' ... 'were')",
        ),
        (
            "The server must compare the keys.",
            UNDECIDED,
            "The server must compare the keys",
            "it says what must happen ('must')",
        ),
        ("If the keys match, B reuses them.", UNDECIDED, "If the keys match", "it is under a condition ('if')"),
        (
            "The server never fails to compare the keys.",
            UNDECIDED,
            "The server never fails to compare the keys",
            "it has two negations (never, fails)",
        ),
        (
            "The key's age is compared with the TTL.",
            NO,
            "The key's age is compared with the TTL",
            "what it compares is not the key (age, ttl)",
        ),
        (
            "The server does not check that the key matches.",
            NO,
            "The server does not check that the key matches",
            "it is negated ('not')",
        ),
        (
            "The server does not check whether the tags match.",
            NO,
            "The server does not check whether the tags match",
            "it is negated ('not')",
        ),
        (
            "The key is stored, and the scheduler compares it with B's key.",
            YES,
            "and the scheduler compares it with B's key",
            "",
        ),
        ("The cache is searched.", YES, "The cache is searched", ""),
        ("B looks up the name in its cache.", YES, "B looks up the name in its cache", ""),
        ("A cache hit.", YES, "A cache hit", ""),
        ("The keys do not match.", YES, "The keys do not match", ""),
        (  # "it" names no key: no clause before it is about one
            "The scheduler compares it with B's prompt.",
            NO,
            "The scheduler compares it with B's prompt",
            "what it compares is not the key (scheduler, prompt)",
        ),
        (  # the place is the subject of an active verb, not of a passive: it is not what is compared
            "The cache compared B's prompt with A's prompt.",
            NO,
            "The cache compared B's prompt with A's prompt",
            "what it compares is not the key (cache, prompt, prompt)",
        ),
        (  # "another" ending the clause is a pronoun here, not an adverb of time
            "The scheduler compares the key with another.",
            YES,
            "The scheduler compares the key with another",
            "",
        ),
        ("The TLB is not quickly searched.", NO, "The TLB is not quickly searched", "it is negated ('not')"),
        (  # nor is "the next"
            "The scheduler compares each key with the next.",
            YES,
            "The scheduler compares each key with the next",
            "",
        ),
        (  # "of keys" belongs to "the age": its head is "age"
            "The age of keys is compared with the TTL.",
            NO,
            "The age of keys is compared with the TTL",
            "what it compares is not the key (age, ttl)",
        ),
        ("It is not true that the keys match.", NO, "that the keys match", "it is negated"),
    ],
)
def test_a_judgement_names_the_clause_and_the_reason(text: str, verdict: str, words: str, reason: str) -> None:
    assert judge(_values(), text) == Judgement(verdict, words, reason)


# --- phrases: predicates, negations, noun phrases and their heads ---


@pytest.mark.parametrize(
    ("text", "found", "negated", "phrases"),
    [
        ("the worker never looks the key up", [(3, "act")], [2], [((1, 2), "worker"), ((5, 7), "key")]),
        ("the worker looks the cached key up", [(2, "act")], [], [((1, 2), "worker"), ((4, 7), "key")]),
        ("the worker looks the old cached key up", [], [], [((1, 3), "looks"), ((4, 8), "key")]),
        ("the cache does not only store the key", [], [], [((1, 2), "cache"), ((5, 6), "store"), ((7, 8), "key")]),
        (
            "the server fails to compare the key instead of the tag",
            [(4, "act")],
            [2, 7],
            [((1, 2), "server"), ((6, 7), "key")],
        ),
        ("no one compares the key", [(2, "act")], [0], [((4, 5), "key")]),
        ("b has the same key as a", [(3, "alike")], [], [((0, 1), "b"), ((4, 5), "key")]),
        (
            "b hashes to exactly the same key",
            [(5, "alike")],
            [],
            [((0, 2), "hashes"), ((3, 4), "exactly"), ((6, 7), "key")],
        ),
        ("both sides derive the same keys", [], [], [((1, 3), "derive"), ((4, 6), "keys")]),
        ("same key as a", [(0, "alike")], [], [((1, 2), "key")]),
        ("and the same key is found", [(2, "alike"), (5, "outcome")], [], [((3, 4), "key")]),
        ("the version of the key is compared", [(6, "act")], [], [((1, 2), "version")]),
        ("the lookup of the key succeeds", [(1, "act")], [], [((4, 5), "key")]),
        ("the keys byte by byte are compared", [(6, "act")], [], [((1, 2), "keys"), ((4, 5), "byte")]),
        ("the key succeeds", [], [], [((1, 2), "key")]),
        ("the block 0x2a key k1 matches", [(5, "outcome")], [], [((1, 5), "key")]),
        ("the cache entries are searched", [(4, "act")], [], [((1, 3), "entries")]),
        ("the stored hashes differ", [(3, "outcome")], [], [((1, 3), "hashes")]),
        ("the key is the same", [(4, "alike")], [], [((1, 2), "key")]),
    ],
)
def test_the_words_of_a_clause(
    text: str, found: list[tuple[int, str]], negated: list[int], phrases: list[tuple[tuple[int, int], str]]
) -> None:
    vocab = vocabulary(_values())
    words = tuple(text.split())
    runs = noun_phrases(words, vocab, {index for index, _ in found})
    assert (predicates(words, vocab), negations(words, vocab), [(run, head(words, run)) for run in runs]) == (
        found,
        negated,
        phrases,
    )


# --- vocabulary: the word forms of a clause table ---

TABLE = {
    "acts": ["compare", "Look  Up", "copy", "stop", "play"],
    "outcomes": ["match"],
    "keys": ["key", "entry", "ray"],
    "negations": ["not", "fail to"],
}


def test_a_table_becomes_a_nodes_values_with_the_defaults_filled_in() -> None:
    values = values_of(TABLE)
    assert values[:5] == (
        "acts=compare|look up|copy|stop|play",
        "outcomes=match",
        "keys=key|entry|ray",
        "entries=",
        "places=",
    )
    assert values[7] == "negations=not|fail to"
    assert values[9] == "conditional=if|unless"
    assert [value.partition("=")[0] for value in values] == list(FIELDS)


def test_verbs_and_nouns_get_their_regular_forms() -> None:
    vocab = vocabulary(values_of(TABLE))
    acts, keys = vocab.words["acts"], vocab.words["keys"]
    forms = {"compare", "compares", "compared", "comparing", "copy", "copies", "copied", "copying", "stop", "stops"}
    forms |= {"stopped", "stopping", "play", "plays", "played", "playing"}
    assert forms <= acts and not {"plaies", "plaied"} & acts
    assert {"matches", "matched", "matching"} <= vocab.words["outcomes"]
    assert {"key", "keys", "entry", "entries", "ray", "rays"} <= keys and "raies" not in keys
    assert vocab.words["negations"] == {"not"}  # grammar words are taken as written
    assert (vocab.has("acts", "copied"), vocab.has("keys", "copied")) == (True, False)


def test_phrases_are_kept_apart_with_the_forms_of_their_first_word() -> None:
    vocab = vocabulary(values_of(TABLE))
    assert vocab.listed["acts"] == {"compare", "copy", "stop", "play"}
    assert vocab.phrases["acts"] == tuple(
        (form, "up") for form in ("look", "lookd", "looked", "lookes", "looking", "lookked", "lookking", "looks")
    )
    assert vocab.starts["acts"] == {form for form, _ in vocab.phrases["acts"]}
    assert (vocab.phrases["negations"], vocab.starts["negations"]) == ((("fail", "to"),), {"fail"})
    assert {"fail", "not", "if", "must", "need", "could"} <= vocab.grammar and "compare" not in vocab.grammar
    assert {"compares", "looks", "matched", "same"} <= vocab.predicates and not {
        "key",
        "not",
        "fail",
    } & vocab.predicates


def test_a_clause_table_is_shown_as_written() -> None:
    assert show_clause("checks", TABLE) == (
        "[invariant.define.checks.clause]\n"
        'acts = ["compare", "Look  Up", "copy", "stop", "play"]\n'
        'outcomes = ["match"]\n'
        'keys = ["key", "entry", "ray"]\n'
        'negations = ["not", "fail to"]'
    )


def test_a_phrase_of_three_words_with_and_without_a_gap() -> None:
    vocab = vocabulary(values_of({"acts": ["take a look"], "outcomes": ["match"], "keys": ["key"]}))
    close, apart, farther = (
        ("take", "a", "look"),
        ("take", "a", "quick", "look"),
        ("take", "a", "quick", "long", "look"),
    )
    assert [phrase_at(close, 0, vocab, "acts"), phrase_at(apart, 0, vocab, "acts")] == [True, False]  # no gap
    assert [phrase_at(apart, 0, vocab, "acts", 1), phrase_at(farther, 0, vocab, "acts", 1)] == [True, False]
    assert [phrase_at(words, 1, vocab, "acts", 3) for words in (close, ("a", "take", "look"))] == [False, False]


def test_a_grammar_phrase_is_read_without_a_gap() -> None:
    vocab = vocabulary(_values())
    words = ("the", "cache", "has", "yet", "to", "compare", "it")  # "has yet to": not yet, not an obligation
    assert [listed_at(vocab, "obligation", words, 2), listed_at(vocab, "obligation", ("it", "has", "to"), 1)] == [
        False,
        True,
    ]


def test_an_outcome_phrase_may_have_three_words_between_its_parts() -> None:
    vocab = vocabulary(values_of({"acts": ["compare"], "outcomes": ["turn up"], "keys": ["key"]}))
    three, four = ("the", "key", "turns", "a", "b", "c", "up"), ("the", "key", "turns", "a", "b", "c", "d", "up")
    assert [predicates(three, vocab), predicates(four, vocab)] == [[(2, "outcome")], []]
