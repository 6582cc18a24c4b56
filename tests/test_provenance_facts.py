"""Provenance rules decide from facts computed once per document (issue 16, point 3).

The shared code (``mechlint.provenance``) computes facts about each source;
each ``rules/provenance/<rule>.py`` turns them into its findings. "No
history" is a null object with the history's interface, and ``locate`` (pin,
attest, verify) finds the pinned bytes the way the classification does.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mechlint.catalog.registry import all_rules
from mechlint.document import Document, load
from mechlint.model import Finding, Level
from mechlint.provenance import paths as source_paths
from mechlint.provenance.nohistory import NoHistory
from mechlint.provenance.pinned import HISTORY, NO_HISTORY, NOWHERE, WORKING_TREE
from mechlint.provenance.resolve import Provenance
from mechlint.provenance.services import RunServices
from mechlint.rules import RuleContext, RuleMeta
from mechlint.rules.provenance import sources

from .gitrepo import commit, init, write
from .test_provenance import mechanism, run, sha

PACKAGE = Path(__file__).resolve().parent.parent / "mechlint"
POST_V1 = "The post, first version.\n" * 10
POST_V2 = POST_V1 + "A paragraph added later.\n"
OLD = "<svg>old</svg>\n"


def _repository(folder: Path) -> Path:
    repo = init(folder)
    commit(repo, "first", {"content/post.md": POST_V1, "content/old.svg": OLD})
    commit(repo, "second", {"content/post.md": POST_V2, "content/old.svg": None})
    write(repo, "research/m/before/content/post.md", "an edited copy\n")
    return repo


CITED = [
    {"path": "content/post.md", "sha256": sha(POST_V2)},  # fine
    {"path": "content/post.md", "sha256": sha(POST_V1)},  # stale-source
    {"path": "content/old.svg", "sha256": sha(OLD)},  # gone-source
    {"path": "content/psot.md", "sha256": sha(POST_V2)},  # missing-source
    {"path": "content/post.md", "sha256": "0" * 64},  # digest-mismatch
    {"path": "content/post.md"},  # unpinned-source
    {"path": "../out.md", "sha256": sha(OLD)},  # unsafe-path
    {"path": "research/m/before/content/post.md", "sha256": sha("an edited copy\n")},  # frozen-copy-mismatch
    {"path": "research/m/before/content/old.svg", "sha256": sha(OLD)},  # frozen-resolved
]


def _provenance_rules() -> list[Any]:
    return [rule for rule in all_rules() if rule.meta.id.startswith("provenance/")]


def _document(repo: Path, services: RunServices) -> tuple[Document, RuleContext]:
    path = mechanism(repo, CITED)
    document = load(str(path), path.read_bytes())
    document.location = path
    return document, RuleContext(services=services)


def test_the_facts_are_computed_once_per_document_though_nine_rules_read_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repository(tmp_path / "blog")
    listed: list[Path] = []
    hashed: Counter[str] = Counter()
    original_sources = Provenance.sources
    original_hash = source_paths.hash_source

    def counting_sources(self: Provenance, data: Any, location: Path) -> Any:
        listed.append(location)
        return original_sources(self, data, location)

    def counting_hash(root: Path, path: str, *args: Any, **kwargs: Any) -> Any:
        hashed[path] += 1
        return original_hash(root, path, *args, **kwargs)

    monkeypatch.setattr(Provenance, "sources", counting_sources)
    monkeypatch.setattr(source_paths, "hash_source", counting_hash)
    services = RunServices(root=repo)
    try:
        document, context = _document(repo, services)
        rules = _provenance_rules()
        assert len(rules) == 9
        found = {finding.rule_id for rule in rules for finding in rule.check(document, context)}
        assert found == {rule.meta.id for rule in rules} - {"provenance/history-unavailable"}
        assert listed == [document.location], "the sources and their facts are listed once for the document"
        # each path's working-tree state is read once, though nine rules and the result cache's key look at it,
        # several sources name it, and the frozen copy's original is looked at to see whether it holds its bytes now
        expected = Counter({source["path"] for source in CITED if source["path"] != "../out.md"})
        assert hashed == expected
        # a second document citing the same sources lists its own, and reuses every fact already known
        other, _ = _document(repo, services)
        assert sum(1 for rule in rules for _ in rule.check(other, context)) > 0
        assert len(listed) == 2
        assert hashed["content/old.svg"] == 1
    finally:
        services.close()


def test_a_new_provenance_rule_reads_the_facts_without_touching_the_classifier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recipe of the package docstring: a META and a check over ``sources(document, context)``."""
    repo = _repository(tmp_path / "blog")
    meta = RuleMeta(
        id="provenance/gone-but-found", level=Level.NOTE, summary="A test rule.", why="A test.", location="the path"
    )

    def check(document: Document, context: RuleContext) -> Iterator[Finding]:
        for pointer, source in sources(document, context):
            pinned = source.pinned
            if pinned is not None and pinned.kind == HISTORY and not source.present:
                yield meta.finding(pointer + "/path", f"{source.path} is only in history")

    listed: list[Path] = []
    original_sources = Provenance.sources

    def counting_sources(self: Provenance, data: Any, location: Path) -> Any:
        listed.append(location)
        return original_sources(self, data, location)

    monkeypatch.setattr(Provenance, "sources", counting_sources)
    services = RunServices(root=repo)
    try:
        document, context = _document(repo, services)
        for rule in _provenance_rules():
            list(rule.check(document, context))
        assert [(f.pointer, f.message) for f in check(document, context)] == [
            ("/sources/2/path", "content/old.svg is only in history"),
            ("/sources/8/path", "research/m/before/content/old.svg is only in history"),
        ]
        assert len(listed) == 1, "the new rule read the facts the nine rules had already computed"
    finally:
        services.close()


def test_no_history_is_an_object_that_answers_like_a_history_without_commits(tmp_path: Path) -> None:
    folder = tmp_path / "not-a-repository"
    write(folder, "content/post.md", POST_V2)
    provenance = Provenance(folder)
    try:
        history = provenance.repository(folder / "content" / "m.json").history()
        assert isinstance(history, NoHistory) and not history.exists and not history.complete
        assert history.unavailable() == ("the folder is not in a git repository", False, "")
        assert history.path_history("content/post.md") == [] and history.tree("0" * 40) == {}
        assert history.state().head is None and history.describe("a" * 40) == "a" * 12
        data = {"sources": [{"path": "content/post.md", "sha256": sha(POST_V1)}]}
        [(_, cited)] = provenance.sources(data, folder / "content" / "m.json")
        assert cited.pinned is not None and cited.pinned.kind == NO_HISTORY
    finally:
        provenance.close()
    assert NoHistory("git refuses", broken=True).unavailable(None).broken


def test_the_classifier_has_no_none_branches_for_history() -> None:
    """No git is :class:`NoHistory`, not ``if history is None`` in the classifier or the rules."""
    for folder in (PACKAGE / "provenance", PACKAGE / "rules" / "provenance"):
        paths = sorted(folder.glob("*.py"))
        assert paths, folder
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Compare) and any(isinstance(op, ast.Is | ast.IsNot) for op in node.ops):
                    names = [ast.unparse(part) for part in (node.left, *node.comparators)]
                    offending = [n for n in names if n.endswith("history") and not n.startswith("self._")]
                    assert not offending, f"{path.name}: {ast.unparse(node)}"  # (a lazy cache may be unset)


def test_the_classifier_decides_nothing() -> None:
    """No rule id, no finding and no ``Level`` in the shared provenance code: the rule modules decide."""
    from mechlint.catalog.registry import rules_by_id

    paths = sorted((PACKAGE / "provenance").glob("*.py"))
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert not [rule for rule in rules_by_id() if rule.startswith("provenance/") and rule in text], path
        assert "Level" not in text and ".finding(" not in text and "mechlint.rules" not in text, path


@pytest.mark.parametrize("shallow", [False, True])
def test_locate_finds_the_pinned_bytes_where_the_classification_does(tmp_path: Path, shallow: bool) -> None:
    repo = _repository(tmp_path / "blog")
    if shallow:
        from .gitrepo import shallow_clone

        clone = shallow_clone(repo, tmp_path / "clone")
        write(clone, "research/m/before/content/post.md", "an edited copy\n")
        repo = clone
    location = repo / "content" / "mechanisms" / "m.json"
    data = {"sources": CITED}
    provenance = Provenance(repo)
    try:
        for _, source in provenance.sources(data, location):
            located = provenance.locate(location, source.path, source.digest)
            pinned = source.pinned
            if source.unsafe:
                assert located.kind == "refused"
            elif source.digest is None or (pinned is not None and pinned.kind == WORKING_TREE):
                assert located.kind == "working-tree"
            elif source.present:
                assert located.kind == "changed"
            elif pinned is not None and pinned.kind == HISTORY:
                assert pinned.revision is not None
                revision = pinned.revision
                assert (located.kind, located.commit, located.git_blob) == ("history", revision.commit, revision.blob)
            else:
                assert located.kind == "refused", (source.path, pinned)
                assert pinned is None or pinned.kind != NOWHERE or not shallow
    finally:
        provenance.close()


def test_each_rule_reports_its_own_case(tmp_path: Path) -> None:
    """The findings of the nine rules on the cases above, through the whole engine."""
    repo = _repository(tmp_path / "blog")
    mechanism(repo, CITED)
    found = sorted((rule, pointer) for rule, pointer, _ in run(repo))
    assert found == [
        ("provenance/digest-mismatch", "/sources/4/sha256"),
        ("provenance/frozen-copy-mismatch", "/sources/7/path"),
        ("provenance/frozen-resolved", "/sources/8/path"),
        ("provenance/gone-source", "/sources/2/path"),
        ("provenance/missing-source", "/sources/3/path"),
        ("provenance/stale-source", "/sources/1/sha256"),
        ("provenance/unpinned-source", "/sources/5"),
        ("provenance/unsafe-path", "/sources/6/path"),
    ]
