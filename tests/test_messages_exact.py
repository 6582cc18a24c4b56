"""Messages compared whole, where the words are the point: counts and plurals, commits, names.

A message that loses its count, its plural or the commit it names tells the
author the wrong thing while the rule still "fires"; these tests hold the
exact text. Each test is named after the rule module it is about.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mechlint.config import Config
from mechlint.run.engine import lint_bytes

from .conftest import CLEAN
from .gitrepo import commit, git, init, write
from .test_provenance import mechanism, run, sha

BASE: dict[str, Any] = json.loads(CLEAN.read_text(encoding="utf-8"))


def _found(data: dict[str, Any], rule: str) -> list[tuple[str, str]]:
    raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
    return [(r.pointer, r.message) for r in lint_bytes(raw, config=Config()) if r.rule_id == rule]


# -- reference/unknown-target ---------------------------------------------------------------------------------

UNKNOWN = "reference/unknown-target"


def _tail_renamed(uses: int) -> dict[str, Any]:
    """The key ``tail`` misspelt ``tial`` in targets, while ``uses`` step entries name ``tail``."""
    data = copy.deepcopy(BASE)
    data["targets"]["tial"] = data["targets"].pop("tail")
    steps = data["scenarios"][0]["steps"]
    for step in steps:
        step["active"] = [key for key in step["active"] if key != "tail"]
    for step in steps[len(steps) - uses :]:
        step["active"] = [*step["active"], "tail"]
    return data


@pytest.mark.parametrize(("uses", "names"), [(1, "1 entry names"), (2, "2 entries name"), (3, "3 entries name")])
def test_unknown_target_rename_advice_counts_the_entries(uses: int, names: str) -> None:
    assert _found(_tail_renamed(uses), UNKNOWN) == [
        (
            "/targets/tial",
            f'the target key "tial" is named by no step, while {names} "tail", which targets lacks; '
            'rename the key to "tail"',
        )
    ]


def test_unknown_target_rename_advice_points_at_the_key() -> None:
    raw = json.dumps(_tail_renamed(1), indent=2, ensure_ascii=False).encode()
    [result] = [r for r in lint_bytes(raw, config=Config()) if r.rule_id == UNKNOWN]
    assert raw.decode().splitlines()[result.region.start_line - 1] == '    "tial": {'
    assert (result.region.start_column, result.region.end_column) == (5, 11)


def test_unknown_target_entry_names_the_place_and_the_closest_key() -> None:
    data = copy.deepcopy(BASE)
    data["targets"]["cach0"] = data["targets"].pop("cache0")
    data["targets"]["cach0"]["id"] = "mechanism-cach0"  # the id agrees with the key: the entry is the typo
    assert _found(data, UNKNOWN) == [
        (
            "/scenarios/0/steps/1/active/0",
            'scenarios[0].steps[1].active[0] names the target "cache0", which is not in targets '
            '(did you mean "cach0"?)',
        )
    ]


def test_unknown_target_in_unselected_is_reported_there() -> None:
    data = copy.deepcopy(BASE)
    data["scenarios"][0]["unselected"] = ["zzz"]
    assert _found(data, UNKNOWN) == [
        ("/scenarios/0/unselected/0", 'scenarios[0].unselected[0] names the target "zzz", which is not in targets')
    ]


# -- provenance/stale-source ----------------------------------------------------------------------------------

ADVICE = "review the mechanism against the new version, then run mechlint pin"


def _named(repo: Path, commit_id: str) -> str:
    """A commit as messages name it: ``abc123def456 (2026-06-11, "subject")``."""
    date, subject = git(repo, "show", "-s", "--format=%cs%x00%s", commit_id).split("\0")
    return f'{commit_id[:12]} ({date}, "{subject}")'


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init(tmp_path / "blog")


def test_stale_source_names_the_pinned_commit_and_the_change(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    second = commit(repo, "second", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    assert run(repo) == [
        (
            "provenance/stale-source",
            "/sources/0/sha256",
            f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and commit '
            f"{_named(repo, second)} changed them; {ADVICE}",
        )
    ]


def test_stale_source_says_an_uncommitted_change_is_one(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    write(repo, "post.md", "edited\n")
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    assert run(repo) == [
        (
            "provenance/stale-source",
            "/sources/0/sha256",
            f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and they were changed in the '
            f"working tree and not committed; {ADVICE}",
        )
    ]


def test_stale_source_names_the_file_as_it_was_called_then(repo: Path) -> None:
    first = commit(repo, "first", {"old-name.md": "v1\n" * 20})
    git(repo, "mv", "old-name.md", "new-name.md")
    commit(repo, "rename")
    edit = commit(repo, "edit", {"new-name.md": "v1\n" * 20 + "v2\n"})
    mechanism(repo, [{"path": "new-name.md", "sha256": sha("v1\n" * 20)}])
    assert run(repo) == [
        (
            "provenance/stale-source",
            "/sources/0/sha256",
            f'the pinned bytes of "new-name.md" are from commit {_named(repo, first)}, when the file was named '
            f'"old-name.md", and commit {_named(repo, edit)} changed them; {ADVICE}',
        )
    ]


def test_stale_source_names_the_change_head_has_not_another_branchs(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side change", {"post.md": "side\n"})
    git(repo, "checkout", "-q", "main")
    ours = commit(repo, "our change", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    [(_, _, message)] = run(repo)
    assert message == (
        f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and commit {_named(repo, ours)} '
        f"changed them; {ADVICE}"
    )


def test_stale_source_with_head_at_the_pinned_bytes_blames_the_working_tree(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side change", {"post.md": "side\n"})
    git(repo, "checkout", "-q", "main")
    write(repo, "post.md", "edited\n")
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    [(_, _, message)] = run(repo)
    assert message == (
        f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and they were changed in the '
        f"working tree and not committed; {ADVICE}"
    )


def test_a_source_pinned_only_on_an_unmerged_branch_names_that_branch(repo: Path) -> None:
    """History is what HEAD reaches: bytes only another branch holds resolve nothing (a digest mismatch)."""
    commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "side")
    pinned = commit(repo, "side pins", {"post.md": "v3\n"})
    commit(repo, "side changes", {"post.md": "v4\n"})
    git(repo, "checkout", "-q", "main")
    commit(repo, "main changes", {"post.md": "v2\n"})
    mechanism(repo, [{"path": "post.md", "sha256": sha("v3\n")}])
    [(rule, _, message)] = run(repo)
    assert rule == "provenance/digest-mismatch"
    assert message == (
        'neither the current bytes of "post.md" nor any version of it in the history of HEAD have the pinned '
        f'sha256; the pinned bytes are at this path only in commit {_named(repo, pinned)}, on branch "side", '
        "which HEAD does not contain; merge that branch first, or pin what HEAD has (mechlint pin) after review"
    )


def test_stale_source_shortens_a_long_path_to_200_characters(repo: Path) -> None:
    name = "d/" + "x" * 199 + ".md"  # 204 characters
    first = commit(repo, "first", {name: "v1\n"})
    second = commit(repo, "second", {name: "v2\n"})
    mechanism(repo, [{"path": name, "sha256": sha("v1\n")}])
    [(_, _, message)] = run(repo)
    shown = name[:199] + "…"
    assert message == (
        f'the pinned bytes of "{shown}" are from commit {_named(repo, first)}, and commit {_named(repo, second)} '
        f"changed them; {ADVICE}"
    )


def test_stale_source_names_the_first_change_when_two_branches_changed_the_bytes(repo: Path) -> None:
    first = commit(repo, "first", {"post.md": "v1\n"})
    git(repo, "checkout", "-q", "-b", "a")
    earlier = commit(repo, "a changes", {"post.md": "v2\n"})
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "b")
    commit(repo, "b changes", {"post.md": "v3\n"})
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "a")
    with contextlib.suppress(AssertionError):  # a conflict, resolved by the commit below
        git(repo, "merge", "-q", "b")
    commit(repo, "merge b", {"post.md": "v4\n"})
    assert len(git(repo, "log", "-1", "--format=%P").split()) == 2  # a merge of both changes
    mechanism(repo, [{"path": "post.md", "sha256": sha("v1\n")}])
    [(_, _, message)] = run(repo)
    assert message == (
        f'the pinned bytes of "post.md" are from commit {_named(repo, first)}, and commit {_named(repo, earlier)} '
        f"changed them; {ADVICE}"
    )


def test_stale_source_shortens_a_long_former_name_to_200_characters(repo: Path) -> None:
    old = "d/" + "y" * 199 + ".md"  # 204 characters
    first = commit(repo, "first", {old: "v1\n" * 20})
    git(repo, "mv", old, "new.md")
    commit(repo, "rename")
    edit = commit(repo, "edit", {"new.md": "v1\n" * 20 + "v2\n"})
    mechanism(repo, [{"path": "new.md", "sha256": sha("v1\n" * 20)}])
    [(_, _, message)] = run(repo)
    assert message == (
        f'the pinned bytes of "new.md" are from commit {_named(repo, first)}, when the file was named '
        f'"{old[:199]}…", and commit {_named(repo, edit)} changed them; {ADVICE}'
    )
