"""The edges of the ``reference/`` rules that ``scripts/mutate.py`` found unchecked (issue 32).

Each test is named after the rule module it is about (``unknown_target``), so
that the mutation run, which first runs the tests named after a rule, picks it;
each asserts the whole verdict (rule, place, message), not only that a rule fired.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from mechlint.config import Config
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN

BASE: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))
UNKNOWN = "reference/unknown-target"
SPARE = {"id": "mechanism-spare", "kind": "node", "label": "spare"}


def _found(data: dict[str, Any], prefix: str) -> list[tuple[str, str, str]]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [(r.rule_id, r.pointer, r.message) for r in lint_bytes(raw, config=Config()) if r.rule_id.startswith(prefix)]


def _tail_as(key: str, uses: int, target_id: str = "box-7") -> dict[str, Any]:
    """The target ``tail`` stored under ``key`` with an id that names neither, while ``uses`` steps name ``tail``."""
    data = copy.deepcopy(BASE)
    target = data["targets"].pop("tail")
    target["id"] = target_id
    data["targets"][key] = target
    steps = data["scenarios"][0]["steps"]
    for step in steps:
        step["active"] = [name for name in step["active"] if name != "tail"]
    for step in steps[len(steps) - uses :]:
        step["active"].append("tail")
    return data


def test_unknown_target_with_no_close_key_is_reported_while_another_key_is_unused() -> None:
    """No key is near ``zzz``: the entry is reported without advice, and the unused key is not taken for its typo."""
    data = copy.deepcopy(BASE)
    data["targets"]["spare"] = SPARE
    data["scenarios"][0]["steps"][0]["active"].append("zzz")
    assert _found(data, "reference/") == [
        (
            "reference/unused-target",
            "/targets/spare",
            'the target "spare" is not lit or animated by any step; use it in a step or remove it',
        ),
        (
            UNKNOWN,
            "/scenarios/0/steps/0/active/2",
            'scenarios[0].steps[0].active[2] names the target "zzz", which is not in targets',
        ),
    ]


def test_unknown_target_never_takes_a_key_the_steps_use_for_a_typo() -> None:
    """``tails`` twice, closest to ``tail``, which steps use: the entries are the typos, not the key (while
    ``spare`` is unused, so the rename check runs)."""
    data = copy.deepcopy(BASE)
    data["targets"]["tail"]["id"] = "box-7"
    data["targets"]["spare"] = SPARE
    for step in data["scenarios"][0]["steps"][2:4]:
        step["active"].append("tails")
    assert _found(data, UNKNOWN) == [
        (
            UNKNOWN,
            f"/scenarios/0/steps/{n}/active/2",
            f'scenarios[0].steps[{n}].active[2] names the target "tails", which is not in targets '
            '(did you mean "tail"?)',
        )
        for n in (2, 3)
    ]


def test_unknown_target_renames_a_key_once_for_the_first_name_the_steps_use() -> None:
    """Two names (``tiall``, then ``tail``), both twice, whose closest key is the unused ``tial``: one rename
    advice, for the first; the other name's entries are reported as entries."""
    data = _tail_as("tial", 2)
    for step in data["scenarios"][0]["steps"][:2]:
        step["active"].append("tiall")
    assert _found(data, UNKNOWN) == [
        (
            UNKNOWN,
            "/targets/tial",
            'the target key "tial" is named by no step, while 2 entries name "tiall", which targets lacks; '
            'rename the key to "tiall"',
        ),
        *(
            (
                UNKNOWN,
                f"/scenarios/0/steps/{n}/active/{place}",
                f'scenarios[0].steps[{n}].active[{place}] names the target "tail", which is not in targets '
                '(did you mean "tial"?)',
            )
            for n, place in ((3, 2), (4, 0))
        ),
    ]


def test_unknown_target_renames_a_malformed_key_that_is_also_misspelt() -> None:
    """``Tial`` is malformed (schema/violation) and, unlike ``Tail``, no look-alike of ``tail``: the rename
    advice stands, once, at the key."""
    assert _found(_tail_as("Tial", 2), UNKNOWN) == [
        (
            UNKNOWN,
            "/targets/Tial",
            'the target key "Tial" is named by no step, while 2 entries name "tail", which targets lacks; '
            'rename the key to "tail"',
        )
    ]


def test_unknown_target_one_entry_and_an_id_that_says_nothing_is_the_entrys_typo() -> None:
    """One entry names ``tail`` and the id names neither: the evidence for a misspelt key is too thin, so the
    entry is reported (two entries, or an id ending in ``tail``, would make it the key's typo)."""
    assert _found(_tail_as("tial", 1), UNKNOWN) == [
        (
            UNKNOWN,
            "/scenarios/0/steps/4/active/0",
            'scenarios[0].steps[4].active[0] names the target "tail", which is not in targets (did you mean "tial"?)',
        )
    ]
    assert _found(_tail_as("tial", 2), UNKNOWN)[0][1] == "/targets/tial"
    assert _found(_tail_as("tial", 1, "mechanism-tail"), UNKNOWN)[0][1] == "/targets/tial"


def test_duplicate_id_names_both_targets_and_the_id() -> None:
    data = copy.deepcopy(BASE)
    data["targets"]["b0"]["id"] = "mechanism-a0"
    assert _found(data, "reference/duplicate-id") == [
        (
            "reference/duplicate-id",
            "/targets/b0/id",
            'the target "b0" has the id "mechanism-a0", which the target "a0" already uses',
        )
    ]


def test_duplicate_scenario_names_both_scenarios_and_the_id() -> None:
    data = copy.deepcopy(BASE)
    data["scenarios"].append(copy.deepcopy(data["scenarios"][0]))
    assert _found(data, "reference/duplicate-scenario") == [
        (
            "reference/duplicate-scenario",
            "/scenarios/1/id",
            f'scenarios[1] has the id "{BASE["scenarios"][0]["id"]}", which scenarios[0] already uses',
        )
    ]


def test_unselected_active_names_the_entry_and_the_way_out() -> None:
    data = copy.deepcopy(BASE)
    data["scenarios"][0]["unselected"] = ["tail"]
    assert _found(data, "reference/unselected-active") == [
        (
            "reference/unselected-active",
            "/scenarios/0/steps/4/active/0",
            'scenarios[0].steps[4].active[0] lights "tail", which this scenario lists as unselected; '
            "remove it from the step or from unselected",
        )
    ]


def test_kind_mismatch_says_where_each_kind_belongs() -> None:
    """An edge in ``active`` belongs in ``paths``, a node in ``paths`` in ``active``: both messages whole."""
    data = copy.deepcopy(BASE)
    step = data["scenarios"][0]["steps"][0]
    step["active"].append("store0")
    step["paths"] = ["a0"]
    assert _found(data, "reference/kind-mismatch") == [
        (
            "reference/kind-mismatch",
            "/scenarios/0/steps/0/active/2",
            'scenarios[0].steps[0].active[2] names "store0", which is an edge; active takes nodes, so move it to paths',
        ),
        (
            "reference/kind-mismatch",
            "/scenarios/0/steps/0/paths/0",
            'scenarios[0].steps[0].paths[0] names "a0", which is a node; paths takes edges, so move it to active',
        ),
    ]


def test_id_mismatch_leaves_a_misspelt_key_whose_id_names_the_steps_name_to_unknown_target() -> None:
    """``tial`` with the id ``mechanism-tail``, which the steps name: one mistake (the key), one finding, and no
    crash of any rule; an id that names neither is still reported against the key."""
    assert _found(_tail_as("tial", 1, "mechanism-tail"), "") == [
        (
            UNKNOWN,
            "/targets/tial",
            'the target key "tial" is named by no step, while 1 entry names "tail", which targets lacks; '
            'rename the key to "tail"',
        )
    ]
    assert _found(_tail_as("tial", 2), "reference/id-mismatch") == [
        ("reference/id-mismatch", "/targets/tial/id", 'the target "tial" has the id "box-7"; expected "mechanism-tial"')
    ]


def test_id_mismatch_explains_an_id_that_only_looks_right() -> None:
    data = copy.deepcopy(BASE)
    data["targets"]["tail"]["id"] = "mechanism-ta\u0456l"  # a Cyrillic і
    assert _found(data, "reference/id-mismatch") == [
        (
            "reference/id-mismatch",
            "/targets/tail/id",
            'the target "tail" has the id "mechanism-ta\u0456l"; expected "mechanism-tail" ("mechanism-ta\u0456l" '
            'only looks like "mechanism-tail": it has U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I, which '
            'looks like "i")',
        )
    ]


STATE_KEYS = "reference/state-keys"


def _state_keys(data: dict[str, Any]) -> list[tuple[str, str, tuple[int, int, int]]]:
    """state-keys' findings, each with its region's line, first and last column (a key or a whole object)."""
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [
        (r.pointer, r.message, (r.region.start_line, r.region.start_column, r.region.end_column))
        for r in lint_bytes(raw, config=Config())
        if r.rule_id == STATE_KEYS
    ]


def _states(data: dict[str, Any]) -> list[dict[str, Any]]:
    scenario = data["scenarios"][0]
    return [scenario["initial"], *(step["state"] for step in scenario["steps"])]


def _renamed_in_step_2(new: str) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    state = data["scenarios"][0]["steps"][2]["state"]
    state[new] = state.pop("stage")
    return data


EXACTLY = 'its keys must be exactly those of stateLabels ("stage", "artifact")'


def test_state_keys_names_what_one_state_lacks_and_has_and_the_look_alike() -> None:
    """``stag`` for ``stage`` in one step: both halves of the message, and the hint; ``zzz`` is near nothing, so
    no hint; a key added to one step is only "has"."""
    assert [m for _, m, _ in _state_keys(_renamed_in_step_2("stag"))] == [
        'scenarios[0].steps[2].state lacks "stage" and has "stag", which stateLabels does not define; '
        f'{EXACTLY}; "stag" (did you mean "stage"?)'
    ]
    assert [m for _, m, _ in _state_keys(_renamed_in_step_2("zzz"))] == [
        f'scenarios[0].steps[2].state lacks "stage" and has "zzz", which stateLabels does not define; {EXACTLY}'
    ]
    data = copy.deepcopy(BASE)
    data["scenarios"][0]["steps"][2]["state"]["note"] = "x"
    assert _state_keys(data) == [
        (
            "/scenarios/0/steps/2/state",
            f'scenarios[0].steps[2].state has "note", which stateLabels does not define; {EXACTLY}',
            (124, 20, 12),
        )
    ]


def test_state_keys_reports_labels_no_state_has_at_stateLabels_as_a_whole() -> None:
    """Two labels no state has: one finding on the whole ``stateLabels`` (not on the first key), with the count of
    state objects and no rename to offer; a key every state has and ``stateLabels`` lacks, likewise."""
    data = copy.deepcopy(BASE)
    data["stateLabels"].update(extra="Extra", more="More")
    assert _state_keys(data) == [
        (
            "/stateLabels",
            'stateLabels defines "extra", "more", which none of the 6 state objects has; '
            "change stateLabels to match the states",
            (69, 18, 4),
        )
    ]
    data = copy.deepcopy(BASE)
    for state in _states(data):
        state["note"] = "n"
    assert _state_keys(data) == [
        (
            "/stateLabels",
            'stateLabels lacks "note", which all 6 state objects have; change stateLabels to match the states',
            (69, 18, 4),
        )
    ]


def test_state_keys_a_misspelt_label_among_two_unlabelled_keys_is_at_stateLabels_in_the_first_states_order() -> None:
    """``stag`` for ``stage`` while every state also has ``note``: two keys lack a label, so the finding is on
    ``stateLabels`` as a whole; the keys are listed in the order of the first state object (``initial``)."""
    data = copy.deepcopy(BASE)
    data["stateLabels"] = {"stag": "Stage", "artifact": "Artifact"}
    states = _states(data)
    states[0]["note"] = "n"
    for state in states[1:]:
        moved = {"note": "n", **state}
        state.clear()
        state.update(moved)
    assert _state_keys(data) == [
        (
            "/stateLabels",
            'stateLabels defines "stag", which none of the 6 state objects has and lacks "stage", "note", which all '
            '6 state objects have; rename "stag" to "stage"',
            (69, 18, 4),
        )
    ]


def _one_step_with_label_stag() -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["stateLabels"] = {"stag": "Stage", "artifact": "Artifact"}
    del data["scenarios"][0]["steps"][1:]
    return data


def test_state_keys_two_state_objects_are_enough_to_blame_stateLabels() -> None:
    """``initial`` and one step agree against ``stateLabels``: the finding is on the misspelt label's key."""
    assert _state_keys(_one_step_with_label_stag()) == [
        (
            "/stateLabels/stag",
            'stateLabels defines "stag", which neither state object has and lacks "stage", which both state objects '
            'have; rename "stag" to "stage"',
            (70, 5, 11),
        )
    ]


def test_state_keys_one_state_object_is_blamed_itself() -> None:
    """Only ``initial`` is a state object (the one step has none): no majority to blame ``stateLabels`` with, so
    the finding is on ``initial``, and the rule does not crash."""
    data = _one_step_with_label_stag()
    del data["scenarios"][0]["steps"][0]["state"]
    assert _state_keys(data) == [
        (
            "/scenarios/0/initial",
            'scenarios[0].initial lacks "stag" and has "stage", which stateLabels does not define; its keys must be '
            'exactly those of stateLabels ("stag", "artifact"); "stage" (did you mean "stag"?)',
            (78, 18, 8),
        )
    ]
    assert not [r for r in lint_bytes(json.dumps(data).encode(), config=Config()) if r.rule_id.startswith("mechlint/")]
