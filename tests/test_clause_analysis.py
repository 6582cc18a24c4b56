"""The clause analysis behind "compares the cache key", sentence by sentence and through the rule.

The sentences are ``tests/data/key-comparisons.txt``: each must get its
labelled verdict, its known misses must still miss (so that the list stays
true), and the precision and recall written in ``docs/invariants.md`` must be
what the table gives. Run ``python -m tests.test_clause_analysis`` to print them.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from mechlint import lint
from mechlint.config import Config, load_config
from mechlint.errors import ConfigError
from mechlint.invariants.clauses import NO, UNDECIDED, YES, judge
from mechlint.invariants.loader import load_file
from mechlint.invariants.vocabulary import values_of
from mechlint.model import Level
from mechlint.resources import data_folder

from .conftest import ROOT

TABLE = Path(__file__).parent / "data" / "key-comparisons.txt"
RULE = "invariant/reuse-after-store-and-compare"
NOTE = "invariant/undecided-text"
EXPECTED = {"+": YES, "-": NO, "?": UNDECIDED, "t+": YES, "t-": NO}


def _rows() -> list[tuple[str, str, bool]]:
    """(label, sentence, known miss) of every line of the table."""
    rows = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, _, sentence = line.partition(" ")
        rows.append((label.rstrip("!"), sentence, label.endswith("!")))
    return rows


ROWS = _rows()


def _values() -> tuple[str, ...]:
    data = tomllib.loads((data_folder("rules") / "invariants" / "prefix-cache.toml").read_text(encoding="utf-8"))
    return values_of(data["invariant"][0]["define"]["compares_key"]["clause"])


def measure() -> dict[str, float]:
    """Counts, precision and recall of the analysis on the full sentences of the table (undecided is not yes)."""
    values = _values()
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for label, sentence, _ in ROWS:
        if label not in ("+", "-"):
            continue
        said = judge(values, sentence).verdict == YES
        counts[("t" if said == (label == "+") else "f") + ("p" if said else "n")] += 1
    return {
        **counts,
        "precision": counts["tp"] / (counts["tp"] + counts["fp"]),
        "recall": counts["tp"] / (counts["tp"] + counts["fn"]),
    }


def test_the_table_is_large_and_made_of_sentences() -> None:
    comparisons = [s for label, s, _ in ROWS if label == "+"]
    others = [s for label, s, _ in ROWS if label == "-"]
    assert len(comparisons) >= 150 and len(others) >= 100
    assert all(s[0].isupper() and s[-1] in ".?" for s in comparisons + others)


@pytest.mark.parametrize(("label", "sentence", "miss"), ROWS, ids=[s[:60] for _, s, _ in ROWS])
def test_verdict(label: str, sentence: str, miss: bool) -> None:
    verdict = judge(_values(), sentence).verdict
    if miss:  # a known miss, listed in docs/invariants.md: it must still miss, or the list is stale
        assert verdict != EXPECTED[label], "no longer a miss: remove the ! from the table and the docs"
    else:
        assert verdict == EXPECTED[label]


def test_known_misses_are_listed_in_the_docs() -> None:
    doc = (ROOT / "docs" / "invariants.md").read_text(encoding="utf-8")
    misses = [sentence for _, sentence, miss in ROWS if miss]
    assert misses and all(f'"{sentence}"' in doc for sentence in misses)


def test_the_docs_give_the_measured_precision_and_recall() -> None:
    doc = (ROOT / "docs" / "invariants.md").read_text(encoding="utf-8")
    found = measure()
    written = re.search(r"precision (\d\.\d{3}) and recall (\d\.\d{3}) \((\d+) found, (\d+) false, (\d+)", doc)
    assert written is not None
    assert written.groups() == (
        f"{found['precision']:.3f}",
        f"{found['recall']:.3f}",
        *(str(found[count]) for count in ("tp", "fp", "fn")),
    )


@pytest.mark.parametrize(
    ("text", "words", "reason"),
    [
        ("It never checks the key.", "It never checks the key", "it is negated ('never')"),
        ("If the keys were equal, B would reuse it.", "If the keys were equal",
         "it is a hypothetical ('if' ... 'were')"),
        ("The key's age is compared with the TTL.", "The key's age is compared with the TTL",
         "what it compares is not the key (age, ttl)"),
        ("If the keys match, B reuses them.", "If the keys match", "it is under a condition ('if')"),
    ],
)  # fmt: skip
def test_a_judgement_names_the_words_and_why(text: str, words: str, reason: str) -> None:
    judgement = judge(_values(), text)
    assert (judgement.words, judgement.reason) == (words, reason)


# --- through the rule ---


def _lint(tmp_path: Path, data: dict[str, Any], config: Config | None = None) -> list[tuple[str, str, str, Level]]:
    folder = tmp_path / "mechanisms"
    folder.mkdir(exist_ok=True)
    path = folder / "mechanism.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    chosen = config or Config(root=tmp_path).with_flags(select=["invariant"])
    return [(r.rule_id, r.pointer, r.message, r.level) for r in lint([path], chosen, root=tmp_path).results]


def _compare_step(data: dict[str, Any], title: str, description: str) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    step = changed["scenarios"][0]["steps"][2]
    step.update(title=title, description=description, state={"stage": "Step three", "artifact": "The entry"})
    return changed


def test_a_negated_comparison_fires_the_invariant(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "B and the entry", "The cache never checks B's key.")
    found = _lint(tmp_path, data)  # once for reuse0 and once for reuse1
    assert [(rule, pointer) for rule, pointer, _, _ in found] == [(RULE, "/scenarios/0/steps/3")] * 2
    message = found[0][2]
    assert message.endswith(
        "; a step counts when its title, description or state says that it compares the cache key, e.g. "
        '"B\'s key is compared with the keys of the cache entries" (steps[2] ("B and the entry") does not count: '
        "\"The cache never checks B's key\": it is negated ('never'))"
    )


def test_hashing_to_the_same_key_passes(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "B and the entry", "Its prefix hashes to the same key as A's.")
    assert _lint(tmp_path, data) == []


def test_a_question_title_on_the_checking_step_passes(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "Do the keys match?", "B waits for the answer.")
    assert _lint(tmp_path, data) == []


def test_a_hypothetical_comparison_fires(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "B and the entry", "A later request with an equal key could use it.")
    assert [(rule, pointer) for rule, pointer, _, _ in _lint(tmp_path, data)] == [(RULE, "/scenarios/0/steps/3")] * 2


def test_undecided_text_passes_with_a_note_at_the_words(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "B and the entry", "If the keys match, B can use the blocks.")
    found = _lint(tmp_path, data)
    assert [(rule, pointer, level) for rule, pointer, _, level in found] == [
        (NOTE, "/scenarios/0/steps/2/description", Level.NOTE)
    ]
    assert found[0][2] == (
        'in scenario "compatible-hit", steps[2] ("B and the entry") is taken as a step that compares the cache key '
        f"for {RULE}, but \"If the keys match\" could not be judged: it is under a condition ('if'); "
        'if it does, say so plainly, e.g. "B\'s key is compared with the keys of the cache entries"'
    )


def test_the_note_is_not_given_when_another_step_decides(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "Compare the keys", "If the keys match, B can use the blocks.")
    assert _lint(tmp_path, data) == []


def test_the_note_follows_its_own_configuration(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    data = _compare_step(seed_data, "B and the entry", "If the keys match, B can use the blocks.")
    (tmp_path / "mechlint.toml").write_text(f'[rules."{NOTE}"]\nlevel = "warning"\n', encoding="utf-8")
    config = load_config(start=tmp_path)
    assert [(r, level) for r, _, _, level in _lint(tmp_path, data, config) if r.startswith("invariant/")] == [
        (NOTE, Level.WARNING)
    ]
    ignored = load_config(start=tmp_path).with_flags(select=["invariant"], ignore=[NOTE])
    assert _lint(tmp_path, data, ignored) == []


# --- a user's own comparison ---

TICKETS = """
[[invariant]]
name = "resume-after-ticket-check"
summary = "A session is resumed only after a step checks the ticket."
formula = 'path("reuse*") implies previously(once(checks_ticket))'

[invariant.define.checks_ticket]
says = "checks the session ticket"
example = "the server decrypts the ticket and validates it"

[invariant.define.checks_ticket.clause]
acts = ["validate", "decrypt"]
outcomes = ["accept"]
keys = ["ticket"]
"""


def test_a_users_invariant_names_its_own_comparison(tmp_path: Path, seed_data: dict[str, Any]) -> None:
    (tmp_path / "tickets.toml").write_text(TICKETS, encoding="utf-8")
    (tmp_path / "mechlint.toml").write_text('invariants = ["tickets.toml"]\n', encoding="utf-8")
    config = load_config(start=tmp_path).with_flags(select=["invariant/resume-after-ticket-check"])
    passing = _compare_step(seed_data, "Resume", "The server decrypts the ticket and accepts it.")
    assert _lint(tmp_path, passing, config) == []
    failing = _compare_step(seed_data, "Resume", "The server compares the keys but never validates the ticket.")
    found = _lint(tmp_path, failing, config)
    assert [pointer for _, pointer, _, _ in found] == ["/scenarios/0/steps/3"]
    assert 'e.g. "the server decrypts the ticket and validates it"' in found[0][2]


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ('formula = "true"\n[invariant.define.x.clause]\nacts = ["a"]\noutcomes = []\nkeys = ["k"]', "not both"),
        ('says = "x"', "either formula or clause"),
        ('[invariant.define.x.clause]\nacts = ["a"]\noutcomes = []', "keys"),
        ('[invariant.define.x.clause]\nacts = ["a"]\noutcomes = []\nkeys = ["k"]\nverbs = ["v"]', "verbs"),
    ],
)
def test_a_malformed_clause_definition_is_a_config_error(tmp_path: Path, table: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        '[[invariant]]\nname = "x"\nsummary = "S."\nformula = "x"\n[invariant.define.x]\n' + table + "\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_file(path)
    assert fragment in str(caught.value)


def test_the_wording_is_suggested_only_when_the_comparison_is_missing(
    tmp_path: Path, seed_data: dict[str, Any]
) -> None:
    data = copy.deepcopy(seed_data)
    data["scenarios"][0]["steps"][1]["paths"] = []  # no store: the comparison is there, the store is missing
    found = _lint(tmp_path, data)
    assert found and all("no step before this one animates store" in message for _, _, message, _ in found)
    assert not any("e.g." in message for _, _, message, _ in found)


def test_the_docs_list_the_default_grammar() -> None:
    from mechlint.invariants.vocabulary import DEFAULTS

    doc = (ROOT / "docs" / "invariants.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in doc.splitlines() if line.startswith("| `")}
    given = {field: words for field, words in DEFAULTS.items() if words}
    assert given and all(
        rows[field].split("|")[2].strip() == ", ".join(f'"{w}"' for w in words) for field, words in given.items()
    )


if __name__ == "__main__":
    print(measure())
