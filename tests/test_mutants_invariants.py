"""Edges of the invariant language that mutation testing found unchecked (``scripts/mutate.py``, issue 32).

Each test pins one decision of ``mechlint/invariants/`` exactly: a column
of values, a whole message with its trace, a parser's error and its place.
Mechanism documents are built here, as small as the rules allow, and the
invariants are written out in the test that uses them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import load_config
from mechlint.document import Document
from mechlint.errors import ConfigError
from mechlint.invariants import loader
from mechlint.invariants.formula import FormulaError, Node, parse, show
from mechlint.invariants.loader import load_file, to_rule
from mechlint.invariants.monitor import StepView, candidate_bindings, evaluate, step_view, verb
from mechlint.invariants.sentences import clauses, sentences, split_word
from mechlint.invariants.textsearch import may_anchor, text_column, text_column_plain
from mechlint.invariants.vocabulary import show_clause, values_of, vocabulary
from mechlint.model import Finding, TraceStep
from mechlint.rules import Rule, RuleContext
from mechlint.safety import saferegex


def _step(title: str, paths: list[str], active: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    return {"title": title, "duration": 4000, "active": active or [], "paths": paths, **fields}


def _document(*steps: dict[str, Any], scenario: str = "one", edges: tuple[str, ...] = ()) -> dict[str, Any]:
    """A mechanism with the edges its steps animate (and ``edges``) as targets, and one scenario of ``steps``."""
    keys = sorted({*edges, *(key for step in steps for key in (*step["paths"], *step["active"]))})
    return {
        "version": 1,
        "language": "en",
        "title": "A small mechanism",
        "description": "Steps that animate a few edges.",
        "caption": "A few edges.",
        "alt": "A few edges are animated one after the other.",
        "sources": [],
        "limitations": ["The timing is an example."],
        "targets": {key: {"id": f"mechanism-{key}", "kind": "edge", "label": key.title()} for key in keys},
        "stateLabels": {"stage": "Stage"},
        "scenarios": [
            {
                "id": scenario,
                "title": "One",
                "description": "The steps.",
                "initial": {"stage": "Start"},
                "steps": [*steps],
            }
        ],
    }


def _lint(tmp_path: Path, invariants: str, data: dict[str, Any]) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """The invariant findings on ``data`` under the invariant file ``invariants``: (rule, pointer, message, trace)."""
    (tmp_path / "mine.toml").write_text(invariants, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["mine.toml"]\n', encoding="utf-8")
    path = tmp_path / "mechanisms" / "x.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant"])
    report = lint([path], config, root=tmp_path)
    return [(r.rule_id, r.pointer, r.message, [(t.pointer, t.message) for t in r.trace]) for r in report.results]


def _invariant(formula: str, name: str = "mine", **fields: str) -> str:
    lines = ["[[invariant]]", f'name = "{name}"', 'summary = "A rule of the test."', f"formula = '{formula}'"]
    lines += [f"{key} = '{value}'" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


# -- monitor.py ---------------------------------------------------------------------------------------------------


def test_verb_says_what_a_step_does_for_each_atom() -> None:
    binding = {"n": "3"}
    assert verb(parse('path("reuse{n}")'), binding, {}) == "animates reuse3"
    assert verb(parse('active("b{n}*")'), binding, {}) == "lights b3*"
    assert verb(parse('target("store{n}")'), binding, {}) == "belongs to a file with the target store3"
    assert verb(parse('target("store{n}", "node")'), binding, {}) == "belongs to a file with the node store3"
    assert verb(parse('text("^Keep")'), binding, {}) == "has text matching /^Keep/"
    assert verb(parse('state("stage", "Keep|Hold")'), binding, {}) == "has a state stage matching /Keep|Hold/"
    assert verb(parse('once(path("a")) and not text("b")'), binding, {}) == (
        'satisfies (once(path("a")) and not(text("b")))'
    )


def test_verb_of_a_definition_is_its_says_or_its_name() -> None:
    inner = parse('path("a")')
    ref = parse("stored", {"stored": inner})
    assert verb(ref, {}, {"stored": "stores the block"}) == "stores the block"
    assert verb(ref, {}, {"stored": ""}) == "satisfies stored"  # an empty says is no wording
    assert verb(ref, {}, {}) == "satisfies stored"


def test_a_placeholder_in_a_target_with_a_kind_takes_its_values_from_the_keys() -> None:
    root = parse('target("store{n}", "edge") and path("reuse{n}")')
    assert candidate_bindings(root, ["store0", "reuse1", "store-x", "edge"]) == [{"n": "0"}, {"n": "1"}]


def test_a_formula_without_placeholders_has_one_empty_binding() -> None:
    assert candidate_bindings(parse('path("reuse*")'), ["reuse0", "reuse1"]) == [{}]


# -- formula.py: the parser's errors, each whole, at its place ------------------------------------------------------

DEFINED = {"stored": parse("true"), "kept": parse("false")}


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ('path("a") and )', 14, "expected a condition, found ')'"),
        ('path("a") implies )', 18, "expected a condition, found ')'"),
        ('path("a") and', 13, "expected a condition, found the end of the formula"),
        ('"a"', 0, "expected a condition, found '\"a\"'"),
        ('path("a"', 8, "expected ')', found the end of the formula"),
        ('path("a" and path("b")', 9, "expected ')', found 'and'"),
        ('target("a" "edge")', 11, "expected ')', found '\"edge\"'"),
        ('target("a", "edge", "node")', 18, "expected ')', found ','"),
        ('text("a", "b")', 8, "expected ')', found ','"),
        ('state("k" "r")', 10, "expected ',', found '\"r\"'"),
        ("path(a)", 5, "path() takes 1 string argument(s) in double quotes"),
        ("state()", 6, "state() takes 2 string argument(s) in double quotes"),
        ("target(x)", 7, "target() takes 1 or 2 string argument(s) in double quotes"),
        ('target("a",', 11, "target() takes 1 or 2 string argument(s) in double quotes"),
        ('target("a", "nodes")', 13, "the kind of a target is node or edge, not 'nodes'"),
        ('path("a*b*c*d*e")', 6, "invalid glob: a glob may have at most 3 '*'"),  # MAX_STARS, written out
        ('target("s*t*o*r*e", "edge")', 8, "invalid glob: a glob may have at most 3 '*'"),
        ('state("k", "(")', 12, "invalid regular expression: missing ): ("),
        ('path("a") "b"', 10, "unexpected '\"b\"' after a complete formula (missing 'and' or 'or'?)"),
        ('path("a") & path("b")', 10, "unexpected character '&'"),
        ('implies path("a")', 0, "'implies' needs a condition on its left"),
    ],
)
def test_a_formula_that_does_not_parse_says_what_and_where(text: str, offset: int, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(text, DEFINED)
    assert (caught.value.offset, caught.value.message) == (offset, message)


def test_an_unknown_name_is_told_every_atom_and_the_definitions() -> None:
    atoms = "use active, path, text, state, target, an operator, or a definition"
    with pytest.raises(FormulaError) as caught:
        parse("nothing")
    assert (caught.value.offset, caught.value.message) == (0, f"unknown name 'nothing'; {atoms} (none)")
    with pytest.raises(FormulaError) as caught:
        parse('path("a") and stores', DEFINED)
    assert (caught.value.offset, caught.value.message) == (14, f"unknown name 'stores'; {atoms} (kept, stored)")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('path("a*b*c*d")', 'path("a*b*c*d")'),  # three '*': the most a glob may have
        ('text("a*b*c*d*e*")', 'text("a*b*c*d*e*")'),  # a regex is no glob: no limit on its '*'
        ('state("k*k*k*k*", "v")', 'state("k*k*k*k*", "v")'),  # nor the key of a state
        ('target("s?", "node")', 'target("s?", "node")'),
        (" true\n", "true"),  # white space around a formula (a TOML multi-line string ends with a newline)
        ("stored or\n  kept", "(stored or kept)"),
        ('text("\\\\d \\"x\\"")', 'text("\\d "x"")'),  # the two escapes of a string
    ],
)
def test_a_formula_that_parses(text: str, shown: str) -> None:
    assert show(parse(text, DEFINED)) == shown


MAX_DEPTH = 100  # mechlint.invariants.formula.MAX_DEPTH, written out


@pytest.mark.parametrize(
    ("before", "open_", "close"),
    [
        ("", "(", ")"),
        ("", "not ", ""),
        ("", "once ", ""),
        ("(true implies true) and ", "(", ")"),  # the depth an 'implies' took is given back
        ("not true and ", "(", ")"),  # and a unary operator's
        ("(true) and ", "(", ")"),  # and a parenthesis's
        ("(" * 99 + "true" + ")" * 99 + " and ", "(", ")"),
    ],
)
def test_a_formula_nests_at_most_max_depth_levels(before: str, open_: str, close: str) -> None:
    nested = before + open_ * MAX_DEPTH + "true" + close * MAX_DEPTH
    parse(nested)
    deeper = before + open_ * (MAX_DEPTH + 1) + "true" + close * (MAX_DEPTH + 1)
    with pytest.raises(FormulaError) as caught:
        parse(deeper)
    where = len(before) + len(open_) * (MAX_DEPTH + 1)  # the token after the opener one level too deep
    assert (caught.value.offset, caught.value.message) == (where, "the formula nests deeper than 100 levels")


MAX_FORMULA_LENGTH = 10_000  # written out


def test_a_formula_is_at_most_max_formula_length_characters() -> None:
    assert parse("true" + " " * (MAX_FORMULA_LENGTH - 4)) == Node("const", values=("true",))
    with pytest.raises(FormulaError) as caught:
        parse("true" + " " * (MAX_FORMULA_LENGTH - 3))
    assert (caught.value.offset, caught.value.message) == (0, "the formula is longer than 10000 characters")


def test_a_placeholder_used_twice_binds_the_same_value() -> None:
    lit = [{"x1-1"}, {"x1-2"}, {"x12-12"}]
    steps = [StepView("t", "", frozenset(keys), frozenset()) for keys in lit]
    root = parse('active("x{n}-{n}")')
    assert evaluate(root, steps, {})[id(root)] == [True, False, True]
    assert candidate_bindings(root, ["x1-1", "x1-2", "x12-12"]) == [{"n": "1"}, {"n": "12"}]


def test_a_clause_is_shown_by_the_first_word_of_its_first_three_lists() -> None:
    values = values_of({"acts": ["compare", "look up"], "outcomes": ["match", "equal"], "keys": ["key"]})
    assert show(Node("clause", values=values)) == "clause(acts=compare, outcomes=match, keys=key, ...)"
    assert show(parse("stored", DEFINED)) == "stored"


def test_a_lone_surrogate_in_a_steps_text_is_searched_like_any_other_character(tmp_path: Path) -> None:
    """JSON may hold half of a surrogate pair ("\\ud800"); RE2 reads UTF-8, which cannot: the rule crashed on it."""
    invariants = _invariant('not text("Kept .$")', "text") + _invariant('not state("stage", "^Kept .$")', "state")
    data = _document(_step("Use", ["b"]), _step("Store \ud800", ["a"], state={"stage": "Kept \udfff"}))
    breaks = 'steps[1] ("Store \\ud800") breaks the invariant'
    assert _lint(tmp_path, invariants, data) == [
        (
            "invariant/state",
            S1,
            f'in scenario "one", {breaks}: steps[1] ("Store \\ud800") has a state stage matching /^Kept .$/',
            [(S1, f"{breaks}: {BREAKS}")],
        ),
        (
            "invariant/text",
            S1,
            f'in scenario "one", {breaks}: steps[1] ("Store \\ud800") has text matching /Kept .$/',
            [(S1, f"{breaks}: {BREAKS}")],
        ),
    ]


# -- monitor.py: a clause definition's column ------------------------------------------------------------------------

COMPARES_TABLE = {"acts": ["compare"], "outcomes": ["match"], "keys": ["key"]}
COMPARES = Node("clause", values=values_of(COMPARES_TABLE))
TEXTS = ("The keys match.", "It never compares the key.", "If the keys match, the entry is used.", "Nothing happens.")


def test_text_a_clause_cannot_judge_counts_as_it_is_told() -> None:
    steps = [step_view({"title": text}) for text in TEXTS]
    assert evaluate(COMPARES, steps, {})[id(COMPARES)] == [True, False, True, False]  # by default: it counts
    assert evaluate(COMPARES, steps, {}, undecided=True)[id(COMPARES)] == [True, False, True, False]
    assert evaluate(COMPARES, steps, {}, undecided=False)[id(COMPARES)] == [True, False, False, False]
    negated = parse("not c", {"c": COMPARES})
    assert evaluate(negated, steps, {}, undecided=False)[id(negated)] == [False, True, True, True]


# -- textsearch.py: a text() atom's column, searched once over the joined texts where it can be ----------------------


@pytest.fixture(params=["re2", "re"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Patterns compiled by RE2 (searched as UTF-8 bytes) and by Python's ``re`` (the fallback without RE2)."""
    if request.param == "re":
        monkeypatch.setattr(saferegex, "_re2", lambda: None)
    saferegex.compile_pattern.cache_clear()
    yield request.param
    saferegex.compile_pattern.cache_clear()


COLUMNS = [
    ("a", ["a", "b"], [True, False]),
    ("a", ["a", "a"], [True, True]),
    ("b", ["xxa", "b", "c"], [False, True, False]),
    ("k", ["", "k", "", "kk", "x"], [False, True, False, True, False]),
    ("é", ["café", "cafe", "été"], [True, False, True]),  # positions in bytes are not positions in characters
    ("x", ["a", "b"], [False, False]),
    ("a\\s*b", ["a", "b", "ab"], [False, False, True]),  # a match across the line break counts for neither text
    ("^b", ["a", "b"], [False, True]),  # anchored: each text is searched on its own
    ("b$", ["b", "a"], [True, False]),
    ("\\Ab", ["a", "b"], [False, True]),
    ("a", ["a"], [True]),
    ("a", [], []),
]


@pytest.mark.parametrize(("pattern", "texts", "column"), COLUMNS)
def test_text_column_finds_each_texts_matches_and_no_others(
    engine: str, pattern: str, texts: list[str], column: list[bool]
) -> None:
    assert text_column(pattern, texts) == column
    assert text_column_plain(pattern, texts) == column


def test_a_lone_surrogate_fails_the_text_column_as_it_fails_a_search() -> None:
    saferegex.compile_pattern.cache_clear()
    with pytest.raises(UnicodeError):
        text_column("a", ["b", "a\ud800"])


@pytest.mark.parametrize(
    ("pattern", "anchors"),
    [
        ("key", False),
        ("^key", True),
        ("key$", True),
        ("a^", True),
        ("\\Akey", True),
        ("key\\z", True),
        ("key\\Z", True),
        ("\\Qa\\E", True),  # a quoted run: what it holds cannot be read here
        ("a\\", True),  # a dangling backslash
        ("\\bkey\\b", False),
        ("\\d^", True),
        ("\\^a", False),  # an escaped caret is a character
        ("a\\$", False),
        ("\\\\^", True),  # an escaped backslash, then an anchor
        ("[^a]b", False),  # ^ and $ in a class are characters
        ("[a$]", False),
        ("[]^]", False),  # ] first in a class is a character
        ("[^]$]x", False),
        ("[\\]^]", False),  # an escaped ] does not end the class
        ("[\\d]a", False),
        ("[a]bc", False),
        ("[a]^", True),
        ("a[b]$", True),
        ("[a$", True),  # a class never closed
        ("[a\\]", True),
    ],
)
def test_which_patterns_may_anchor_to_a_texts_ends(pattern: str, anchors: bool) -> None:
    assert may_anchor(pattern) is anchors


# -- explain.py: every kind of reason, whole, with its trace ---------------------------------------------------------

AFTER = 'path("b") implies previously(once(path("c") and previously(once(path("a")))))'
BOTH = 'path("b") implies previously(once(path("c") and path("a")))'
S0, S1, S2, S3 = (f"/scenarios/0/steps/{n}" for n in range(4))
BREAKS = "the invariant breaks here"

EXPLANATIONS = [
    (  # an 'implies' inside another operator fails where its consequent does
        'historically(path("a") implies path("b"))',
        [("One", ["a"]), ("Two", ["x"])],
        [
            (
                S0,
                'steps[0] ("One") breaks the invariant: steps[0] ("One") is not a step that animates b',
                [(S0, 'steps[0] ("One") breaks the invariant: the invariant breaks here')],
            ),
            (
                S1,
                'steps[1] ("Two") breaks the invariant: steps[0] ("One") is not a step that animates b',
                [
                    (S0, 'steps[0] ("One") animates a'),
                    (S1, 'steps[1] ("Two") breaks the invariant: the invariant breaks here'),
                ],
            ),
        ],
    ),
    (  # the trace names the last step before the break where a condition held
        'path("c") implies previously(path("a"))',
        [("One", ["a"]), ("Two", ["a"]), ("X", ["x"]), ("Use", ["c"])],
        [
            (
                S3,
                'c is animated in steps[3] ("Use"), but steps[2] ("X") is not a step that animates a',
                [(S1, 'steps[1] ("Two") animates a'), (S3, f'c is animated in steps[3] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # a step with no title is named by its place alone
        'path("b") implies previously(path("a"))',
        [("", ["x"]), ("", ["b"])],
        [
            (
                S1,
                "b is animated in steps[1], but steps[0] is not a step that animates a",
                [(S1, f"b is animated in steps[1]: {BREAKS}")],
            )
        ],
    ),
    (
        'path("b") implies once(path("a"))',
        [("Use", ["b"]), ("Store", ["a"])],
        [
            (
                S0,
                'b is animated in steps[0] ("Use"), but no step up to this one animates a',
                [
                    (S0, f'b is animated in steps[0] ("Use"): {BREAKS}'),
                    (S1, 'steps[1] ("Store") animates a, but only after steps[0]'),
                ],
            )
        ],
    ),
    (  # the antecedent is left out of the trace even where the consequent names it
        'path("a") implies previously(not path("a"))',
        [("One", ["a"]), ("Two", ["a"])],
        [
            (
                S0,
                'a is animated in steps[0] ("One"), but steps[0] ("One") is the first step, so no step comes before it',
                [(S0, f'a is animated in steps[0] ("One"): {BREAKS}')],
            ),
            (
                S1,
                'a is animated in steps[1] ("Two"), but steps[0] ("One") animates a',
                [(S1, f'a is animated in steps[1] ("Two"): {BREAKS}')],
            ),
        ],
    ),
    (
        'path("reuse*") implies previously(path("a"))',
        [("Use", ["reuse1", "reuse0", "other"])],
        [
            (
                S0,
                'reuse0 and reuse1 are animated in steps[0] ("Use"), but steps[0] ("Use") is the first step, so no '
                "step comes before it",
                [(S0, f'reuse0 and reuse1 are animated in steps[0] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # '{' with no name in braces is a character of the glob, as in the key it matches
        'path("k*?{") implies previously(path("a"))',
        [("Use", ["kab{", "k{"])],
        [
            (
                S0,
                'kab{ is animated in steps[0] ("Use"), but steps[0] ("Use") is the first step, so no step comes '
                "before it",
                [(S0, f'kab{{ is animated in steps[0] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (
        'active("k") implies path("a")',
        [("Use", ["b"], ["k"])],
        [
            (
                S0,
                'k is lit in steps[0] ("Use"), but steps[0] ("Use") is not a step that animates a',
                [(S0, f'k is lit in steps[0] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # an antecedent that is no key atom: the step does what it says
        'text("Use") implies path("a")',
        [("Use", ["b"])],
        [
            (
                S0,
                'steps[0] ("Use") has text matching /Use/, but steps[0] ("Use") is not a step that animates a',
                [(S0, f'steps[0] ("Use") has text matching /Use/: {BREAKS}')],
            )
        ],
    ),
    (  # an antecedent that is no atom: the step is named
        'once(path("b")) implies path("a")',
        [("Use", ["b"]), ("Then", ["c"])],
        [
            (
                S0,
                'steps[0] ("Use"), but steps[0] ("Use") is not a step that animates a',
                [(S0, f'steps[0] ("Use"): {BREAKS}')],
            ),
            (
                S1,
                'steps[1] ("Then"), but steps[1] ("Then") is not a step that animates a',
                [(S1, f'steps[1] ("Then"): {BREAKS}')],
            ),
        ],
    ),
    (
        "false",
        [("Use", ["b"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: the condition is false',
                [(S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}')],
            )
        ],
    ),
    (
        'not path("b") or path("a")',
        [("Use", ["b"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: steps[0] ("Use") animates b and steps[0] ("Use") is not a step '
                "that animates a",
                [(S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}')],
            )
        ],
    ),
    (
        'path("b") and path("a")',
        [("Use", ["b"]), ("Other", ["a"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: steps[0] ("Use") is not a step that animates a',
                [
                    (S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}'),
                    (S1, 'steps[1] ("Other") animates a, but only after steps[0]'),
                ],
            ),
            (
                S1,
                'steps[1] ("Other") breaks the invariant: steps[1] ("Other") is not a step that animates b',
                [(S0, 'steps[0] ("Use") animates b'), (S1, f'steps[1] ("Other") breaks the invariant: {BREAKS}')],
            ),
        ],
    ),
    (
        'path("a") since path("b")',
        [("Use", ["b"]), ("Other", ["a"]), ("Last", ["c"])],
        [
            (
                S2,
                'steps[2] ("Last") breaks the invariant: (path("a") since path("b")) does not hold at '
                'steps[2] ("Last")',
                [
                    (S0, 'steps[0] ("Use") animates b'),
                    (S1, 'steps[1] ("Other") animates a'),
                    (S2, f'steps[2] ("Last") breaks the invariant: {BREAKS}'),
                ],
            )
        ],
    ),
    (  # a fact about the file: no step in the trace
        'target("store0", "edge")',
        [("Use", ["b"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: the file has no edge store0',
                [(S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}')],
            )
        ],
    ),
    (
        'path("b") implies once(target("store0"))',
        [("Use", ["b"])],
        [
            (
                S0,
                'b is animated in steps[0] ("Use"), but the file has no target store0',
                [(S0, f'b is animated in steps[0] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # historically: the last step where its condition failed
        'historically(once(path("a")))',
        [("Use", ["b"]), ("Store", ["a"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: no step up to this one animates a',
                [
                    (S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}'),
                    (S1, 'steps[1] ("Store") animates a, but only after steps[0]'),
                ],
            ),
            (
                S1,
                'steps[1] ("Store") breaks the invariant: no step up to steps[0] ("Use") animates a',
                [(S1, f'steps[1] ("Store") breaks the invariant: {BREAKS}')],
            ),
        ],
    ),
    (
        'historically(previously(once(path("a"))))',
        [("Use", ["b"]), ("Store", ["a"]), ("Then", ["c"])],
        [
            (
                S0,
                'steps[0] ("Use") breaks the invariant: steps[0] ("Use") is the first step, so no step comes before it',
                [
                    (S0, f'steps[0] ("Use") breaks the invariant: {BREAKS}'),
                    (S1, 'steps[1] ("Store") animates a, but only after steps[0]'),
                ],
            ),
            (
                S1,
                'steps[1] ("Store") breaks the invariant: no step before this one animates a',
                [(S1, f'steps[1] ("Store") breaks the invariant: {BREAKS}')],
            ),
            (
                S2,
                'steps[2] ("Then") breaks the invariant: no step before steps[1] ("Store") animates a',
                [(S1, 'steps[1] ("Store") animates a'), (S2, f'steps[2] ("Then") breaks the invariant: {BREAKS}')],
            ),
        ],
    ),
    (
        'path("b") implies once(previously(once(path("a"))))',
        [("X", ["x"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step up to this one comes after a step that animates a',
                [(S1, f'b is animated in steps[1] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # "after a step that": the earlier event is missing, whichever side of the 'and' it is written on
        'path("b") implies previously(once(previously(once(path("a"))) and path("c")))',
        [("X", ["x"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step before this one animates a',
                [(S1, f'b is animated in steps[1] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (
        AFTER,
        [("X", ["x"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step before this one animates a',
                [(S1, f'b is animated in steps[1] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (  # the event is there, the step that must follow it is not
        AFTER,
        [("Store", ["a"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step animates c after a is animated in '
                'steps[0] ("Store") and before this one',
                [(S0, 'steps[0] ("Store") animates a'), (S1, f'b is animated in steps[1] ("Use"): {BREAKS}')],
            )
        ],
    ),
    (
        AFTER,
        [("Check", ["c"]), ("Store", ["a"]), ("Use", ["b"])],
        [
            (
                S2,
                'b is animated in steps[2] ("Use"), but no step animates c after a is animated in '
                'steps[1] ("Store") and before this one',
                [
                    (S0, 'steps[0] ("Check") animates c'),
                    (S1, 'steps[1] ("Store") animates a'),
                    (S2, f'b is animated in steps[2] ("Use"): {BREAKS}'),
                ],
            )
        ],
    ),
    (  # in the same step as the event is not after it
        AFTER,
        [("Both", ["a", "c"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step animates c after a is animated in '
                'steps[0] ("Both") and before this one',
                [
                    (S0, 'steps[0] ("Both") animates a'),
                    (S0, 'steps[0] ("Both") animates c'),
                    (S1, f'b is animated in steps[1] ("Use"): {BREAKS}'),
                ],
            )
        ],
    ),
    (  # an 'and' of two plain conditions, each held at some step but never together
        BOTH,
        [("Check", ["c"]), ("Store", ["a"]), ("Use", ["b"])],
        [
            (
                S2,
                'b is animated in steps[2] ("Use"), but no step before this one satisfies (path("c") and path("a"))',
                [
                    (S0, 'steps[0] ("Check") animates c'),
                    (S1, 'steps[1] ("Store") animates a'),
                    (S2, f'b is animated in steps[2] ("Use"): {BREAKS}'),
                ],
            )
        ],
    ),
    (  # one of them never held
        BOTH,
        [("Store", ["a"]), ("Use", ["b"])],
        [
            (
                S1,
                'b is animated in steps[1] ("Use"), but no step before this one animates c',
                [(S0, 'steps[0] ("Store") animates a'), (S1, f'b is animated in steps[1] ("Use"): {BREAKS}')],
            )
        ],
    ),
]


@pytest.mark.parametrize(("formula", "steps", "found"), EXPLANATIONS)
def test_a_violation_is_explained_exactly(
    tmp_path: Path, formula: str, steps: list[tuple[Any, ...]], found: list[tuple[str, str, list[tuple[str, str]]]]
) -> None:
    data = _document(*(_step(*step) for step in steps))
    expected = [
        ("invariant/mine", pointer, f'in scenario "one", {message}', trace) for pointer, message, trace in found
    ]
    assert _lint(tmp_path, _invariant(formula), data) == expected


DEFINED_TOML = """
[[invariant]]
name = "get-after-put"
summary = "A block is got only after it was put."
applies = 'target("put{n}", "edge")'
formula = 'path("get{n}*") implies previously(once(put))'

[invariant.define.put]
formula = 'path("put{n}")'
says = "puts the block"

[[invariant]]
name = "get-while-kept"
summary = "A block is got while it is kept."
formula = 'path("get1") implies kept'

[invariant.define.kept]
formula = 'active("keep")'
"""


def test_a_definition_is_named_by_what_it_says_or_by_its_name_and_steps_by_their_index(tmp_path: Path) -> None:
    data = _document(
        _step("Put", ["put1"]), _step("Get", ["get0x", "get1"]), _step("Again", ["get1y"]), edges=("put0",)
    )
    data["scenarios"][0]["steps"].insert(0, "not a step")  # the steps keep their index in the document
    assert _lint(tmp_path, DEFINED_TOML, data) == [
        (
            "invariant/get-after-put",
            S2,
            'in scenario "one", get0x is animated in steps[2] ("Get"), but no step before this one puts the block',
            [(S2, f'get0x is animated in steps[2] ("Get"): {BREAKS}')],
        ),
        (
            "invariant/get-while-kept",
            S2,
            'in scenario "one", get1 is animated in steps[2] ("Get"), but steps[2] ("Get") is not a step that '
            "satisfies kept",
            [(S2, f'get1 is animated in steps[2] ("Get"): {BREAKS}')],
        ),
    ]


# -- loader.py: an invariant file's mistakes, its limits, and what its rules report ----------------------------------

HEAD = '[[invariant]]\nname = "x"\nsummary = "s"\n'
CLAUSE = 'clause = {acts = ["compare"], outcomes = ["match"], keys = ["key"]}\n'


def _load_error(tmp_path: Path, text: str | bytes) -> tuple[str, int | None]:
    path = tmp_path / "mine.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(ConfigError) as caught:
        load_file(path)
    assert caught.value.path == path
    return caught.value.message, caught.value.line


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (b"\xff\xfe", "the invariant file is not UTF-8", None),
        (
            HEAD + 'formula = """\npath("a") and\n  path("b") &\n"""\n',
            "invariant 'x', formula: unexpected character '&' (at character 13 of the formula)",
            6,
        ),
        (  # the character is counted from the start of its line, the first line's too
            HEAD + 'formula = "\\n&"\n',
            "invariant 'x', formula: unexpected character '&' (at character 1 of the formula)",
            None,
        ),
        (
            HEAD + 'formula = "true"\napplies = "path(a)"\n',
            "invariant 'x', applies: path() takes 1 string argument(s) in double quotes "
            "(at character 6 of the formula)",
            5,
        ),
        (
            HEAD + 'formula = "true"\n[invariant.define.d]\nformula = "nope"\n',
            "invariant 'x', define.d: unknown name 'nope'; use active, path, text, state, target, an operator, or a "
            "definition (none) (at character 1 of the formula)",
            6,
        ),
        (
            HEAD + 'formula = "true"\n[invariant.define.d]\nformula = "true"\n' + CLAUSE,
            "invariant 'x', define.d: give either formula or clause, not both or neither",
            None,
        ),
        (
            HEAD + 'formula = "true"\n[invariant.define.d]\nsays = "does it"\n',
            "invariant 'x', define.d: give either formula or clause, not both or neither",
            None,
        ),
    ],
)
def test_a_mistake_in_an_invariant_file_is_named_with_its_place(
    tmp_path: Path, text: str | bytes, message: str, line: int | None
) -> None:
    assert _load_error(tmp_path, text) == (message, line)


MAX_EXPANDED_NODES, MAX_EXPANDED_DEPTH, MAX_INVARIANTS = 10_000, 200, 1_000  # written out
TOO_LARGE = (
    "invariant 'x', formula: with its definitions written out the formula is too large (more than 10000 parts or "
    "nested more than 200 deep); use fewer layers of definitions"
)


def _size(node: Node) -> tuple[int, int]:
    """Nodes and depth with every definition written out: a reference's child is its definition."""
    sizes = [_size(arg) for arg in node.args]
    return 1 + sum(n for n, _ in sizes), 1 + max((d for _, d in sizes), default=0)


def _chain(*terms: str) -> str:
    return " or ".join(terms)


@pytest.mark.parametrize(
    ("definitions", "formula", "size"),
    [
        ({}, _chain(*["true"] * 200), (399, 200)),  # 'or' is left-associative: as deep as it is long
        ({}, _chain(*["true"] * 201), (401, 201)),
        ({"c": None}, _chain(*["c"] * 199), (596, 200)),  # a clause: a reference and its definition, 2 deep
        ({"c": None}, _chain(*["c"] * 200), (599, 201)),
        ({"w": _chain(*["true"] * 50)}, _chain(*["true"] * 1, *["w"] * 99), (10_000, 150)),
        ({"w": _chain(*["true"] * 50)}, _chain(*["true"] * 52, *["w"] * 98), (10_001, 150)),
        ({"c": None, "w": _chain(*["c"] * 50)}, _chain(*["true"] * 93, *["w"] * 65), (10_000, 158)),
        ({"c": None, "w": _chain(*["c"] * 50)}, _chain(*["true"] * 18, *["w"] * 66), (10_001, 118)),
    ],
)
def test_a_formula_with_its_definitions_written_out_is_bounded(
    tmp_path: Path, definitions: dict[str, str | None], formula: str, size: tuple[int, int]
) -> None:
    text = HEAD + f'formula = "{formula}"\n'
    for name, source in definitions.items():
        text += f"[invariant.define.{name}]\n" + (CLAUSE if source is None else f'formula = "{source}"\n')
    defined: dict[str, Node] = {}
    for name, source in definitions.items():
        defined[name] = Node("clause", values=values_of(COMPARES_TABLE)) if source is None else parse(source, defined)
    assert _size(parse(formula, defined)) == size
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    nodes, depth = size
    if nodes <= MAX_EXPANDED_NODES and depth <= MAX_EXPANDED_DEPTH:
        (invariant,) = load_file(path)
        assert _size(invariant.formula) == size
    else:
        assert _load_error(tmp_path, text) == (TOO_LARGE, 4)


def test_an_invariant_file_holds_at_most_max_invariants(tmp_path: Path) -> None:
    one = '[[invariant]]\nname = "x{n}"\nsummary = "s"\nformula = "true"\n'
    path = tmp_path / "mine.toml"
    path.write_text("".join(one.format(n=n) for n in range(MAX_INVARIANTS)), encoding="utf-8")
    assert len(load_file(path)) == MAX_INVARIANTS
    more = "".join(one.format(n=n) for n in range(MAX_INVARIANTS + 1))
    assert _load_error(tmp_path, more) == ("more than 1000 invariants in one file; split or trim it", None)


RULES_TOML = (
    '''
[[invariant]]
name = "get-after-put"
summary = "A block is got only after it was put."
help = """
A block is got
after it is put.
"""
applies = 'target("put{n}", "edge")'
formula = 'path("get{n}") implies previously(once(put))'

[invariant.define.put]
formula = 'path("put{n}")'
says = "puts the block"

[invariant.define.kept]
formula = 'active("keep")'

[[invariant]]
name = "compared"
summary = "Every step compares."
formula = "compares"

[invariant.define.compares]
'''
    + CLAUSE
)


def _rules(tmp_path: Path) -> list[Rule]:
    path = tmp_path / "mine.toml"
    path.write_text(RULES_TOML, encoding="utf-8")
    return [to_rule(invariant) for invariant in load_file(path)]


def test_an_invariants_rule_page_shows_its_formula_where_it_applies_and_its_definitions(tmp_path: Path) -> None:
    fenced = "\n\n```\n{}\n```"
    first, second = _rules(tmp_path)
    assert first.doc == (
        "A block is got\nafter it is put.\n\nFormula (must hold at every step of a scenario):"
        + fenced.format('path("get{n}") implies previously(once(put))')
        + "\n\nApplies to scenarios where this holds at some step:"
        + fenced.format('target("put{n}", "edge")')
        + "\n\n`put` (puts the block):"
        + fenced.format('path("put{n}")')
        + "\n\n`kept`:"
        + fenced.format('active("keep")')
    )
    assert second.doc.startswith("Every step compares.\n\nFormula (must hold at every step of a scenario):")
    assert first.meta.why == (
        "The animation must tell a true story: a step that happens before its cause teaches the reader something false."
    )
    assert first.meta.location == (
        "the step that breaks the invariant (its title underlined), with a trace of the steps that matter"
    )
    assert (first.meta.reports, second.meta.reports) == ((), ("invariant/undecided-text",))


@pytest.mark.parametrize("name", ["", 5, None])
def test_a_scenario_without_a_usable_id_is_named_by_its_index_and_an_untitled_step_underlines_nothing(
    tmp_path: Path, name: Any
) -> None:
    data = _document(_step("", ["get0"]), _step("Get", ["get0"]), edges=("put0",))
    data["scenarios"][0]["id"] = name
    rule = _rules(tmp_path)[0]
    found = list(rule.check(Document(path="x.json", raw=b"", text="", data=data), RuleContext()))
    first = "get0 is animated in steps[0]"
    second = 'get0 is animated in steps[1] ("Get")'
    assert found == [
        Finding(
            "invariant/get-after-put",
            f"in scenarios[0], {first}, but steps[0] is the first step, so no step comes before it",
            pointer=S0,
            trace=(TraceStep(S0, f"{first}: {BREAKS}"),),
        ),
        Finding(
            "invariant/get-after-put",
            f"in scenarios[0], {second}, but no step before this one puts the block",
            pointer=S1,
            trace=(TraceStep(S1, f"{second}: {BREAKS}", underline=f"{S1}/title"),),
            underline=f"{S1}/title",
        ),
    ]


COMPARED_TOML = (
    """
[[invariant]]
name = "get-after-compare"
summary = "A block is got only after its key was compared."
formula = 'path("get") implies previously(once(compares))'

[invariant.define.compares]
says = "compares the key"
example = "The keys match."
"""
    + CLAUSE
)
IF_MATCH = "If the keys match, the entry is used."
NOTE = (
    f'in scenario "one", steps[0] ("{IF_MATCH}") is taken as a step that compares the key for '
    "invariant/get-after-compare, but \"If the keys match\" could not be judged: it is under a condition ('if'); "
    'if it does, say so plainly, e.g. "The keys match."'
)


@pytest.mark.parametrize(
    ("steps", "found"),
    [
        (  # a verdict depends on the text it cannot judge, before the step it decides: a note there, none later
            [(IF_MATCH, ["x"]), ("Get", ["get"]), (IF_MATCH, ["y"]), ("End", ["z"])],
            [("invariant/undecided-text", f"{S0}/title", NOTE, [])],
        ),
        ([(IF_MATCH, ["x"]), ("End", ["z"])], []),  # no verdict depends on it: no note
        (  # the step it cannot judge comes too late for the verdict: the error, no note
            [("Get", ["get"]), (IF_MATCH, ["x"])],
            [
                (
                    "invariant/get-after-compare",
                    S0,
                    'in scenario "one", get is animated in steps[0] ("Get"), but steps[0] ("Get") is the first step, '
                    "so no step comes before it",
                    [
                        (S0, f'get is animated in steps[0] ("Get"): {BREAKS}'),
                        (S1, f'steps[1] ("{IF_MATCH}") compares the key, but only after steps[0]'),
                    ],
                )
            ],
        ),
    ],
)
def test_text_a_clause_cannot_judge_is_noted_where_a_verdict_depends_on_it(
    tmp_path: Path, steps: list[tuple[str, list[str]]], found: list[tuple[str, str, str, list[tuple[str, str]]]]
) -> None:
    assert _lint(tmp_path, COMPARED_TOML, _document(*(_step(*step) for step in steps))) == found


def test_the_built_in_invariants_come_from_their_prebuilt_data(monkeypatch: pytest.MonkeyPatch) -> None:
    def unread(path: Path) -> None:
        raise AssertionError(f"{path} was read and validated again")

    monkeypatch.setattr(loader, "load_file", unread)
    loader.builtin_rules.cache_clear()
    try:
        assert [rule.meta.id for rule in loader.builtin_rules()] == ["invariant/reuse-after-store-and-compare"]
    finally:
        loader.builtin_rules.cache_clear()


# -- wording.py: the notes on text a clause cannot judge, and the hint an error adds ----------------------------------

NEVER = "It never compares the key."
AFTER_PUT = 'path("get") implies previously(once(compares and previously(once(path("put")))))'
HINT = '; a step counts when its title, description or state says that it compares the key, e.g. "The keys match."'


def _wording_toml(formula: str, says: bool = True, example: bool = True) -> str:
    lines = ["[[invariant]]", 'name = "w"', 'summary = "s"', f"formula = '{formula}'", "[invariant.define.compares]"]
    lines += ['says = "compares the key"'] * says + ['example = "The keys match."'] * example
    return "\n".join(lines) + "\n" + CLAUSE


def _wording(tmp_path: Path, toml: str, *steps: dict[str, Any]) -> list[tuple[str, str, tuple[int, int] | None, str]]:
    path = tmp_path / "mine.toml"
    path.write_text(toml, encoding="utf-8")
    (rule,) = [to_rule(invariant) for invariant in load_file(path)]
    document = Document(path="x.json", raw=b"", text="", data=_document(*steps))
    return [(f.rule_id, f.pointer, f.span, f.message) for f in rule.check(document, RuleContext())]


def _get(title: str, where: str, tail: str) -> tuple[str, str, None, str]:
    return ("invariant/w", where, None, f'in scenario "one", get is animated in {title}, but {tail}')


def test_words_around_a_lone_surrogate_are_underlined_where_they_are(tmp_path: Path) -> None:
    """The clause analysis reads U+FFFD for a lone surrogate (``saferegex.searchable``): at the same place."""
    toml = _wording_toml('path("get") implies previously(once(compares))')
    steps = (_step("If the keys\ud800 match, the entry is used.", ["a"]), _step("Get.", ["get"]))
    assert _wording(tmp_path, toml, *steps) == [
        (
            "invariant/undecided-text",
            f"{S0}/title",
            (0, 18),
            'in scenario "one", steps[0] ("If the keys\\ud800 match, the entry is used.") is taken as a step that '
            'compares the key for invariant/w, but "If the keys\ufffd match" could not be judged: it is under a '
            "condition ('if'); if it does, say so plainly, e.g. \"The keys match.\"",
        )
    ]


@pytest.mark.parametrize(
    ("toml", "steps", "found"),
    [
        (  # the nearest earlier step that says no, never the breaking step itself nor a later one
            _wording_toml('path("get") implies previously(once(compares))'),
            [
                _step(NEVER, ["a"]),
                _step("The key is never compared.", ["b"]),
                _step("Get; it never compares the key.", ["get"]),
                _step(NEVER, ["c"]),
            ],
            [
                _get(
                    'steps[2] ("Get; it never compares the key.")',
                    S2,
                    "no step before this one compares the key"
                    + HINT
                    + ' (steps[1] ("The key is never compared.") does not count: "The key is never compared": it is '
                    "negated ('never'))",
                )
            ],
        ),
        (  # the first step too
            _wording_toml('path("get") implies previously(once(compares))'),
            [_step(NEVER, ["a"]), _step("Wait.", ["b"]), _step("Get.", ["get"])],
            [
                _get(
                    'steps[2] ("Get.")',
                    S2,
                    "no step before this one compares the key"
                    + HINT
                    + ' (steps[0] ("It never compares the key.") does not count: "It never compares the key": it is '
                    "negated ('never'))",
                )
            ],
        ),
        (  # only earlier steps
            _wording_toml('path("get") implies previously(once(compares))'),
            [_step("Wait.", ["b"]), _step("Get.", ["get"]), _step(NEVER, ["a"])],
            [_get('steps[1] ("Get.")', S1, "no step before this one compares the key" + HINT)],
        ),
        (  # text it cannot judge before the event is no near miss
            _wording_toml(AFTER_PUT),
            [_step("If the keys match, the entry is used.", ["a"]), _step("Put.", ["put"]), _step("Get.", ["get"])],
            [
                _get(
                    'steps[2] ("Get.")',
                    S2,
                    'no step compares the key after put is animated in steps[1] ("Put.") and before this one' + HINT,
                )
            ],
        ),
        (  # a definition without says is named in the hint as in the message
            _wording_toml('path("get") implies previously(once(compares))', says=False),
            [_step(NEVER, ["a"]), _step("Get.", ["get"])],
            [
                _get(
                    'steps[1] ("Get.")',
                    S1,
                    "no step before this one satisfies compares; a step counts when its title, description or state "
                    'says that it satisfies compares, e.g. "The keys match." (steps[0] ("It never compares the key.") '
                    "does not count: \"It never compares the key\": it is negated ('never'))",
                )
            ],
        ),
        (  # no example: no hint
            _wording_toml('path("get") implies previously(once(compares))', example=False),
            [_step(NEVER, ["a"]), _step("Get.", ["get"])],
            [_get('steps[1] ("Get.")', S1, "no step before this one compares the key")],
        ),
        (  # the note at the very step whose verdict depends on it; a definition without says is named
            _wording_toml('path("get") implies once(compares)', says=False),
            [_step("Get. If the keys match, the entry is used.", ["get"])],
            [
                (
                    "invariant/undecided-text",
                    f"{S0}/title",
                    (5, 22),
                    'in scenario "one", steps[0] ("Get. If the keys match, the entry is used.") is taken as a step '
                    'that satisfies compares for invariant/w, but "If the keys match" could not be judged: it is '
                    "under a condition ('if'); if it does, say so plainly, e.g. \"The keys match.\"",
                )
            ],
        ),
        (  # one note for two bindings that depend on the same step; in a state value, where it is
            _wording_toml('path("get{n}") implies previously(once(compares))'),
            [
                _step("Wait.", ["a"], state={"stage": "Check: if the keys match"}),
                _step("Get.", ["get0"]),
                _step("Get.", ["get1"]),
            ],
            [
                (
                    "invariant/undecided-text",
                    f"{S0}/state/stage",
                    (7, 24),
                    'in scenario "one", steps[0] ("Wait.") is taken as a step that compares the key for invariant/w, '
                    "but \"if the keys match\" could not be judged: it is under a condition ('if'); if it does, say "
                    'so plainly, e.g. "The keys match."',
                )
            ],
        ),
    ],
)
def test_an_invariant_over_a_clause_says_which_wording_counts(
    tmp_path: Path, toml: str, steps: list[dict[str, Any]], found: list[tuple[str, str, Any, str]]
) -> None:
    assert _wording(tmp_path, toml, *steps) == found


# -- sentences.py: a step's text as sentences, and a sentence as clauses ---------------------------------------------

CLAUSE_WORDS = vocabulary(values_of({"acts": ["compare", "check"], "outcomes": ["match"], "keys": ["key", "tag"]}))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            "Do the keys match? No, they differ. Fine",
            [
                ([("do", 0, 2), ("the", 3, 6), ("keys", 7, 11), ("match", 12, 17)], True, True),
                ([("no", 19, 21), (",", 21, 22), ("they", 23, 27), ("differ", 28, 34)], False, False),
                ([("fine", 36, 40)], False, False),
            ],
        ),
        ("The keys match", [([("the", 0, 3), ("keys", 4, 8), ("match", 9, 14)], False, False)]),
        ("A. B", [([("a", 0, 1)], False, False), ([("b", 3, 4)], False, False)]),
        ("Do they match?", [([("do", 0, 2), ("they", 3, 7), ("match", 8, 13)], True, False)]),
        (
            "Do they match? Yes.",
            [([("do", 0, 2), ("they", 3, 7), ("match", 8, 13)], True, False), ([("yes", 15, 18)], False, False)],
        ),
        (  # a line break ends a sentence too
            "Is it stored?\nNo",
            [([("is", 0, 2), ("it", 3, 5), ("stored", 6, 12)], True, True), ([("no", 14, 16)], False, False)],
        ),
        (
            "Won’t it. They'll",
            [
                ([("will", 0, 5), ("not", 0, 5), ("it", 6, 8)], False, False),
                ([("they", 10, 17), ("will", 10, 17)], False, False),
            ],
        ),
    ],
)
def test_a_text_is_read_as_sentences_each_a_question_or_not_and_answered_no_or_not(
    text: str, found: list[tuple[list[tuple[str, int, int]], bool, bool]]
) -> None:
    assert sentences(text) == found


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("can't", ("can", "not")),
        ("won't", ("will", "not")),
        ("cannot", ("can", "not")),
        ("doesn't", ("does", "not")),
        ("it'll", ("it", "will")),
        ("we'd", ("we", "would")),
        ("key's", ("key",)),
        ("keys", ("keys",)),
    ],
)
def test_a_word_with_an_apostrophe_is_read_as_the_words_it_stands_for(token: str, words: tuple[str, ...]) -> None:
    assert split_word(token) == words


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (  # what a predicate of comparing is about: no new clause
            "The server checks whether the key matches",
            [(("the", "server", "checks", "whether", "the", "key", "matches"), 0, 41, "")],
        ),
        (
            "The key matches if the entry is fresh",
            [(("the", "key", "matches"), 0, 15, ""), (("if", "the", "entry", "is", "fresh"), 16, 37, "if")],
        ),
        (
            "If the keys match, the entry is used",
            [(("if", "the", "keys", "match"), 0, 17, "if"), (("the", "entry", "is", "used"), 19, 36, "")],
        ),
        (  # two subjects joined before their predicate: one clause
            "The stored tag and the page number match",
            [(("the", "stored", "tag", "and", "the", "page", "number", "match"), 0, 40, "")],
        ),
        (
            "The key is compared and the entry is used",
            [(("the", "key", "is", "compared"), 0, 19, ""), (("and", "the", "entry", "is", "used"), 20, 41, "and")],
        ),
        (
            "The tag is checked or the key matches",
            [(("the", "tag", "is", "checked"), 0, 18, ""), (("or", "the", "key", "matches"), 19, 37, "or")],
        ),
        (  # "that" after a word that is no act or outcome of comparing starts a clause
            "It finds that the hashes differ",
            [(("it", "finds"), 0, 8, ""), (("that", "the", "hashes", "differ"), 9, 31, "that")],
        ),
        ("The entry whether", [(("the", "entry"), 0, 9, ""), (("whether",), 10, 17, "whether")]),
        (  # joined to the clause just before, which has no predicate of comparing, not to an earlier one
            "The key matches, the tag is old and the entry is used",
            [
                (("the", "key", "matches"), 0, 15, ""),
                # a clause with an auxiliary ends before the next "and" (not one clause to the end)
                (("the", "tag", "is", "old"), 17, 31, ""),
                (("and", "the", "entry", "is", "used"), 32, 53, "and"),
            ],
        ),
    ],
)
def test_a_sentence_is_read_as_clauses(text: str, found: list[tuple[tuple[str, ...], int, int, str]]) -> None:
    ((sentence, _, _),) = sentences(text)
    assert [(c.words, c.start, c.end, c.marker) for c in clauses(sentence, CLAUSE_WORDS)] == found


# -- vocabulary.py: a clause table as values, and the word forms it stands for ---------------------------------------

EVERY_LIST = {
    "acts": ["Look  Up", "verify"],
    "outcomes": ["match"],
    "keys": ["key", "entry", "cache tag"],
    "entries": ["record"],
    "places": ["table"],
    "alike": ["same"],
    "bearers": ["hold"],
    "negations": ["not"],
    "hypothetical": ["would"],
    "conditional": ["if"],
    "obligation": ["must"],
    "later": ["then"],
    "boundaries": ["when", "so that"],
    "complements": ["that"],
}
LOOK_UP = ("look", "lookd", "looked", "lookes", "looking", "lookked", "lookking", "looks")
VERIFY = {
    "verified",
    "verifies",
    "verify",
    "verifyd",
    "verifyed",
    "verifyes",
    "verifying",
    "verifys",
    "verifyyed",
    "verifyying",
}
MATCH = {"match", "matchd", "matched", "matches", "matchhed", "matchhing", "matching", "matchs"}


def test_a_clause_table_becomes_one_value_per_list_with_the_defaults_for_the_rest() -> None:
    assert values_of(EVERY_LIST)[:3] == ("acts=look up|verify", "outcomes=match", "keys=key|entry|cache tag")
    assert values_of({"acts": ["compare"]})[1:] == values_of({})[1:]  # a list not given: its default
    assert values_of({"acts": []})[0] == "acts="  # given empty: empty


def test_a_vocabulary_holds_each_lists_forms_phrases_and_the_words_that_start_them() -> None:
    vocab = vocabulary(values_of(EVERY_LIST))
    assert vocab.words["acts"] == VERIFY  # verbs: their regular forms
    assert vocab.phrases["acts"] == tuple((form, "up") for form in LOOK_UP)
    assert (vocab.listed["acts"], vocab.starts["acts"]) == (frozenset({"verify"}), frozenset(LOOK_UP))
    assert vocab.words["outcomes"] == MATCH
    assert vocab.words["keys"] == {"entries", "entry", "entryes", "entrys", "key", "keyes", "keys"}  # nouns: plurals
    assert vocab.phrases["keys"] == (("cache", "tag"), ("cachees", "tag"), ("caches", "tag"))
    assert vocab.words["alike"] == {"same"}  # a list of other words: as written
    assert vocab.grammar == {"not", "would", "if", "must", "when", "so"}
    assert vocab.predicates == {*VERIFY, *LOOK_UP, *MATCH, "same"}
    assert vocab.has("boundaries", "when") and not vocab.has("boundaries", "so")
    played = {"play", "playd", "played", "playes", "playing", "plays", "playyed", "playying"}  # a vowel before y
    assert vocabulary(values_of({"acts": ["play"]})).words["acts"] == played


def test_a_clause_table_is_shown_as_the_lists_it_gives() -> None:
    assert show_clause("c", {"acts": ["compare", "look up"], "keys": ["key"]}) == (
        '[invariant.define.c.clause]\nacts = ["compare", "look up"]\nkeys = ["key"]'
    )
