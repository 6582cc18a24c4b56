"""One mistake never hides another (issue 26, point 4): every pair of provenance defects on one source.

Each row puts one defect of the path (mistyped, gone, unsafe, or none) and one
of the digest (malformed, upper case, followed by a newline, missing, stale,
never held, or none) on the same source, and lists every finding the pair must
give: the path's finding whatever the digest is, and the digest's whatever the
path is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint import lint
from mechlint.config import Config

from .gitrepo import commit, init
from .test_provenance import mechanism, sha

ARTICLE = "".join(f"Line {n} of the article.\n" for n in range(20))
EDITED = ARTICLE + "A paragraph added later.\n"
OLD = "<svg>old</svg>\n"

#: The defects of a path: what the source cites.
PATHS = {
    "right": "content/post.md",
    "mistyped": "content/psot.md",
    "gone": "content/old.svg",
    "unsafe": "../post.md",
}
MISSING = ("provenance/missing-source", "/sources/0/path")
GONE = ("provenance/gone-source", "/sources/0/path")
UNSAFE = ("provenance/unsafe-path", "/sources/0/path")
SCHEMA = ("schema/violation", "/sources/0/sha256")
UNPINNED = ("provenance/unpinned-source", "/sources/0")
STALE = ("provenance/stale-source", "/sources/0/sha256")
MISMATCH = ("provenance/digest-mismatch", "/sources/0/sha256")


def _bytes_of(path: str) -> str:
    return OLD if path == PATHS["gone"] else EDITED


CASES = [
    # (path defect, digest defect, the findings)
    ("mistyped", "malformed", {MISSING, SCHEMA}),
    ("mistyped", "upper-case", {MISSING, SCHEMA}),
    ("mistyped", "newline", {MISSING, SCHEMA}),  # a trailing newline breaks the schema's ECMA-262 pattern
    ("mistyped", "missing", {MISSING, UNPINNED}),
    ("mistyped", "stale", {MISSING}),
    ("mistyped", "never-held", {MISSING}),
    ("gone", "none", {GONE}),
    ("gone", "malformed", {GONE, SCHEMA}),
    ("gone", "upper-case", {GONE, SCHEMA}),
    ("gone", "newline", {GONE, SCHEMA}),
    ("gone", "missing", {GONE, UNPINNED}),
    ("gone", "never-held", {MISMATCH}),
    ("unsafe", "malformed", {UNSAFE, SCHEMA}),
    ("unsafe", "upper-case", {UNSAFE, SCHEMA}),
    ("unsafe", "missing", {UNSAFE}),  # pin refuses an unsafe path: the path comes first
    ("unsafe", "stale", {UNSAFE}),
    ("right", "none", set()),
    ("right", "malformed", {SCHEMA}),
    ("right", "upper-case", {SCHEMA}),
    ("right", "upper-case-stale", {SCHEMA, STALE}),
    ("right", "missing", {UNPINNED}),
    ("right", "stale", {STALE}),
    ("right", "never-held", {MISMATCH}),
]


def _digest(defect: str, path: str) -> str | None:
    right = sha(_bytes_of(path))
    return {
        "none": right,
        "malformed": "abc123",
        "upper-case": right.upper(),
        "newline": right + "\n",
        "missing": None,
        "stale": sha(ARTICLE),
        "upper-case-stale": sha(ARTICLE).upper(),
        "never-held": sha("bytes nobody ever had\n"),
    }[defect]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = init(tmp_path_factory.mktemp("pairs") / "blog")
    commit(folder, "first", {"content/post.md": ARTICLE, "content/old.svg": OLD})
    commit(folder, "second", {"content/post.md": EDITED, "content/old.svg": None})
    return folder


def _findings(repo: Path, source: dict[str, str]) -> list[tuple[str, str, str]]:
    target = mechanism(repo, [source])
    report = lint([target], Config(root=repo), root=repo)
    return [
        (r.rule_id, r.pointer, r.message)
        for r in report.results
        if r.rule_id.startswith("provenance/") or r.pointer.startswith("/sources/")
    ]


@pytest.mark.parametrize(("path_defect", "digest_defect", "expected"), CASES, ids=[f"{p}-{d}" for p, d, _ in CASES])
def test_every_pair_of_defects_gives_both_findings(
    repo: Path, path_defect: str, digest_defect: str, expected: set[tuple[str, str]]
) -> None:
    path = PATHS[path_defect]
    digest = _digest(digest_defect, path)
    source = {"path": path, **({"sha256": digest} if digest is not None else {})}
    found = _findings(repo, source)
    assert sorted((rule, pointer) for rule, pointer, _ in found) == sorted(expected)
    messages = {rule: message for rule, _, message in found}
    if MISSING in expected:
        assert 'did you mean "content/post.md"?' in messages[MISSING[0]]
    if GONE in expected:
        assert "deleted it" in messages[GONE[0]]


@pytest.mark.parametrize("digest_defect", ["upper-case", "stale"])
def test_a_mistyped_path_names_the_file_that_holds_the_pinned_bytes_whatever_the_case(
    repo: Path, digest_defect: str
) -> None:
    """An upper-case pin is read in lower case for the facts: "did you mean" finds the file that holds its bytes."""
    [message] = [
        m
        for rule, _, m in _findings(repo, {"path": PATHS["mistyped"], "sha256": _digest(digest_defect, "")})
        if rule == MISSING[0]
    ]
    now = "it holds the pinned bytes now" if digest_defect == "upper-case" else "it held the pinned bytes in commit"
    assert f'did you mean "content/post.md"? {now}' in message
