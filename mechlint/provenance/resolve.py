"""Classify every source of a mechanism: fine, or which ``provenance/`` finding and why.

One :class:`Provenance` serves a whole run: it opens each repository's
history only when a source needs it, keeps one ``git cat-file`` process and
one blob cache per repository, and remembers each answer, so a source shared
by many mechanisms is resolved once.

Long: the classifier decides for all eight provenance rules from one walk over a source's bytes and
history (the rules' ids come from their modules in ``mechlint/rules/provenance/``); moving each decision
into its rule module is the open part of issue 16 point 3.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mechlint.model import Level
from mechlint.provenance.errors import GitError
from mechlint.provenance.paths import (
    FileState,
    git_blob_id,
    hash_source,
    lfs_oid,
    line_ending_variants,
    path_problem,
)
from mechlint.rules.provenance import (
    digest_mismatch,
    frozen_copy_mismatch,
    frozen_resolved,
    history_unavailable,
    missing_source,
    stale_source,
    unpinned_source,
    unsafe_path,
)
from mechlint.views import as_object, items, quote

if TYPE_CHECKING:  # git, its blob index and the SQLite cache are imported when history is first needed
    from mechlint.provenance.git import History
    from mechlint.provenance.index import BlobIndex
    from mechlint.provenance.log import Revision
    from mechlint.provenance.whereabouts import Holder, Names

#: The rules this classifier decides for; each id is declared in its rule module.
DIGEST_MISMATCH = digest_mismatch.META.id
FROZEN_COPY_MISMATCH = frozen_copy_mismatch.META.id
FROZEN_RESOLVED = frozen_resolved.META.id
HISTORY_UNAVAILABLE = history_unavailable.META.id
MISSING_SOURCE = missing_source.META.id
STALE_SOURCE = stale_source.META.id
UNPINNED_SOURCE = unpinned_source.META.id
UNSAFE_PATH = unsafe_path.META.id
DIGEST = re.compile(r"[0-9a-f]{64}")
DEFAULT_FROZEN = "research/*/before/**"
#: The version of this classification: part of the key of every cached answer, so a changed
#: classifier never serves an answer the old one gave.
CLASSIFICATION = "2: lineage, holders"
FETCH_FIX = "fetch the full history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"


@dataclass(frozen=True, slots=True)
class Outcome:
    rule: str
    pointer: str
    message: str
    #: The least level to report it at; ``None``: the rule's configured level.
    level: Level | None = None


@dataclass(frozen=True, slots=True)
class Located:
    """Where the bytes of a source are, as ``pin``, ``attest`` and ``verify`` need it.

    ``kind`` is ``working-tree`` (the file has the wanted bytes), ``history``
    (the file is gone or changed, and a blob of some commit has them),
    ``changed`` (the file has other bytes), or ``refused`` (unsafe, missing,
    or unknowable; ``detail`` says why).
    """

    kind: str
    sha256: str = ""
    git_blob: str = ""
    commit: str = ""
    detail: str = ""
    #: For ``history``: the path (relative to the sources' folder) that held the bytes in ``commit``,
    #: when it is not the source's path (a name before a rename, a frozen copy's original path).
    at: str = ""


@dataclass
class Repository:
    """The folder sources are relative to, and (lazily) the history of the repository holding it."""

    base: Path
    toplevel: Path | None
    _history: History | None = None
    _index: BlobIndex | None = None
    reason: str = ""
    #: Whether the repository could not be read although it should have been (see :class:`GitError`).
    broken: bool = False
    _opened: bool = False
    answers: dict[tuple[str, str | None], list[Outcome]] = field(default_factory=dict)
    refs_key: str | None = None
    states: dict[str, str] = field(default_factory=dict)
    #: Whether a folder of the repository (relative to ``base``) holds a ``.git``: remembered for the run.
    submodules: dict[str, bool] = field(default_factory=dict)
    _names: Names | None = None

    @property
    def prefix(self) -> str:
        if self.toplevel is None or self.base == self.toplevel:
            return ""
        return self.base.relative_to(self.toplevel).as_posix() + "/"

    def history(self) -> History | None:
        if not self._opened:
            self._opened = True
            if self.toplevel is None:
                self.reason = "the folder is not in a git repository"
            else:
                from mechlint.provenance.git import open_history

                try:
                    self._history = open_history(self.toplevel)
                except GitError as error:
                    self.reason, self.broken = str(error), error.broken
                else:  # git's answers are kept between runs beside the blob digests
                    from mechlint.provenance.cache import BlobCache

                    self._history.answers = BlobCache(self._history.common_dir)
        return self._history

    def index(self) -> BlobIndex | None:
        history = self.history()
        if history is not None and self._index is None and history.answers is not None:
            from mechlint.provenance.index import BlobIndex

            self._index = BlobIndex(history, history.answers)
        return self._index

    def names(self) -> Names:
        """The files of HEAD inside ``base``, as source paths, indexed once a run for "did you mean"."""
        from mechlint.provenance.whereabouts import Names

        if self._names is None:
            history = self.history()
            head = history.state().head if history is not None else None
            try:
                tree = history.tree(head) if history is not None and head else {}
            except GitError:
                tree = {}
            prefix = self.prefix
            self._names = Names(path[len(prefix) :] for path in tree if path.startswith(prefix))
        return self._names

    def close(self) -> None:
        if self._history is not None:
            self._history.close()
            if self._history.answers is not None:
                self._history.answers.close()


def _simple_glob(text: str) -> str:
    return "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in text)


def frozen_regex(pattern: str) -> re.Pattern[str]:
    """``research/*/before/**`` as a regex whose group ``original`` is what the last ``**`` matched."""
    pattern = pattern.strip("/")
    if "**" not in pattern:
        pattern += "/**"
    head, _, tail = pattern.rpartition("**")
    head = head.replace("**/", "\0")
    body = "(?:[^/]*/)*".join(_simple_glob(part) for part in head.split("\0"))
    return re.compile(f"{body}(?P<original>.+?){_simple_glob(tail)}", re.DOTALL)


def _refs_key(toplevel: Path | None) -> str:
    """The refs, HEAD and shallowness of a repository, without gitpython (cheap)."""
    if toplevel is None:
        return "no repository"
    from mechlint.provenance.git import Git

    try:
        git = Git(toplevel)
        refs = git.run("for-each-ref", "--format=%(objectname) %(refname)", check=False)
        head = git.run("rev-parse", "--verify", "--quiet", "HEAD", check=False)
        shallow = git.run("rev-parse", "--is-shallow-repository", check=False)
    except GitError as error:
        return f"unreadable: {error}"
    import hashlib

    return hashlib.sha256(refs + b"\0" + head + b"\0" + shallow).hexdigest()


def git_toplevel(start: Path, known: dict[str, Path | None] | None = None) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``.git``.

    ``known`` remembers the answer for every folder looked at, so that the
    mechanism files of one run, folder after folder, cost a lookup each.
    """
    looked: list[str] = []
    found: Path | None = None
    folder = os.fspath(start)
    while True:
        if known is not None and folder in known:
            found = known[folder]
            break
        looked.append(folder)
        if os.path.exists(os.path.join(folder, ".git")):
            found = Path(folder)
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if known is not None:
        known.update(dict.fromkeys(looked, found))
    return found


class Provenance:
    """Answers for every source of every document of one run."""

    def __init__(
        self, source_root: Path | None = None, frozen: str = DEFAULT_FROZEN, fallback: Path | None = None
    ) -> None:
        self.source_root = source_root.resolve() if source_root else None
        self.fallback = fallback.resolve() if fallback else None
        self.repositories: dict[Path, Repository] = {}
        self.by_folder: dict[Path, Repository] = {}
        self.toplevels: dict[str, Path | None] = {}
        self.frozen = frozen_regex(frozen) if frozen else None

    def repository(self, location: Path) -> Repository:
        folder = location.parent
        if folder not in self.by_folder:
            toplevel = git_toplevel(folder, self.toplevels)
            base = self.source_root or toplevel or self.fallback or folder
            if base not in self.repositories:
                top = git_toplevel(base) if self.source_root else toplevel
                self.repositories[base] = Repository(base.resolve(), top.resolve() if top else None)
            self.by_folder[folder] = self.repositories[base]
        return self.by_folder[folder]

    def outcomes(self, data: Any, location: Path) -> list[Outcome]:
        repository = self.repository(location)
        found: list[Outcome] = []
        for _, source, pointer in items((as_object(data) or {}).get("sources"), "/sources"):
            if not isinstance(source, dict) or not isinstance(source.get("path"), str):
                continue
            digest = source.get("sha256")
            digest = digest if isinstance(digest, str) else None
            key = (source["path"], digest)
            if key not in repository.answers:
                repository.answers[key] = list(Source(self, repository, source["path"], digest).classify())
            found += [Outcome(o.rule, pointer + o.pointer, o.message, o.level) for o in repository.answers[key]]
        return found

    def cache_key(self, mechanism: Path, paths: list[str]) -> str:
        """What the provenance answers for these sources depend on, for the result cache.

        The repository's folder, its refs and shallowness (history), and the
        working-tree state of each source. Each part is computed once a run.
        """
        repository = self.repository(mechanism)
        if repository.refs_key is None:
            repository.refs_key = _refs_key(repository.toplevel)
        parts = [CLASSIFICATION, str(repository.base), repository.refs_key]
        originals = [original for path in paths if (original := self.frozen_original(path)) is not None]
        for path in paths + originals:  # a frozen copy's claim also reads its original in the working tree
            if path not in repository.states:
                if path_problem(path):
                    repository.states[path] = "unsafe"
                else:
                    state = hash_source(repository.base, path)
                    repository.states[path] = f"{state.kind}:{state.sha256}:{state.detail}"
                    if state.kind == "absent":  # "did you mean" looks at the files beside it
                        from mechlint.provenance.whereabouts import nearby_files

                        repository.states[path] += "\0" + "\0".join(nearby_files(repository.base, path))
            parts.append(f"{path}={repository.states[path]}")
        return "\0".join(parts)

    def locate(self, mechanism: Path, path: str, digest: str | None) -> Located:
        """Find the bytes of one source: the file, or (for a gone file) the pinned blob in history."""
        repository = self.repository(mechanism)
        problem = path_problem(path)
        if problem:
            return Located("refused", detail=f"{quote(path, 200)}: {problem}")
        state = hash_source(repository.base, path, blob_id=True)
        if state.kind in ("outside", "special", "unreadable"):
            return Located("refused", detail=f"{quote(path, 200)} {state.detail}")
        if state.kind == "file":
            if digest is None or state.sha256 == digest:
                return Located("working-tree", state.sha256, state.git_blob)
            if lfs_oid(state.data) == digest:
                return Located("working-tree", digest, state.git_blob)
            return Located("changed", state.sha256, state.git_blob, detail=f"{quote(path, 200)} has other bytes now")
        if digest is None:
            return Located("refused", detail=f"nothing is at {quote(path, 200)}")
        source = Source(self, repository, path, digest)
        history = repository.history()
        if history is None:
            return Located("refused", detail=f"nothing is at {quote(path, 200)} and {repository.reason}")
        try:
            found = source.history_hit()
        except GitError as error:
            return Located("refused", detail=f"{quote(path, 200)}: {error}")
        if found is None or found[0].blob is None:
            return Located(
                "refused",
                detail=f"nothing is at {quote(path, 200)}, and no commit held the pinned bytes at that path"
                + (" or at its original path" if self.frozen_original(path) is not None else ""),
            )
        held = source.shown(found[0].path)
        return Located("history", digest, found[0].blob, found[0].commit, at="" if held == path else held)

    def frozen_original(self, path: str) -> str | None:
        if self.frozen is None:
            return None
        match = self.frozen.fullmatch(path)
        return match.group("original") if match else None

    def close(self) -> None:
        for repository in self.repositories.values():
            repository.close()


class Source:
    """The classification of one ``(path, sha256)`` in one repository."""

    def __init__(self, owner: Provenance, repository: Repository, path: str, digest: str | None) -> None:
        self.owner = owner
        self.repo = repository
        self.path = path
        self.digest = digest
        #: The working-tree bytes of the source when they have the pinned sha256 (they vouch for a blob).
        self._pinned_bytes: bytes | None = None
        self._pinned_blob: str | None = None
        #: The revision that holds the pinned bytes, for each path looked up (this one, its original).
        self._hits: dict[str, Revision | None] = {}

    def classify(self) -> list[Outcome]:
        problem = path_problem(self.path)
        if problem:
            return [Outcome(UNSAFE_PATH, "/path", f"{quote(self.path, 200)}: {problem}; nothing was read")]
        state = hash_source(self.repo.base, self.path)
        if state.kind in ("outside", "special", "unreadable"):
            return [Outcome(UNSAFE_PATH, "/path", f"{quote(self.path, 200)} {state.detail}")]
        if self.digest is None:
            return self._unpinned(state)
        if not DIGEST.fullmatch(self.digest):
            return []  # schema/violation says what is wrong with the digest
        out: list[Outcome] = []
        matches = state.kind == "file" and (state.sha256 == self.digest or lfs_oid(state.data) == self.digest)
        if state.kind == "file" and state.sha256 == self.digest:
            self._pinned_bytes = state.data
        if not matches:
            out += self._mismatch(state)
        original = self.owner.frozen_original(self.path)
        if original is not None:
            out += self._frozen_claim(original)
        return out

    # -- the cases -----------------------------------------------------------

    def _unavailable(self, what: str, error: GitError | None = None) -> Outcome:
        """History could not answer. A warning where that is a documented setup (a shallow or partial clone,
        no repository); an error where the repository should have answered (a missing or corrupt object, a
        special file, a refused configuration, git stopped): missing history never turns an error into a pass.
        """
        history = self.repo.history()
        why = self.repo.reason if history is None else self._incomplete_reason(history)
        broken = self.repo.broken if history is None else error is not None and error.broken and history.complete
        if broken:
            return Outcome(
                HISTORY_UNAVAILABLE,
                "/path",
                f"{what}, but {why}; this could not be checked, so it is an error: repair the repository "
                "(git fsck) or make a fresh clone",
                Level.ERROR,
            )
        return Outcome(HISTORY_UNAVAILABLE, "/path", f"{what}, but {why}; {FETCH_FIX}")

    @staticmethod
    def _incomplete_reason(history: History) -> str:
        state = history.state()
        if state.shallow:
            return "this is a shallow clone"
        if state.partial:
            return "this is a partial clone (objects may be missing)"
        return "git could not read all of the history"

    def _unpinned(self, state: FileState) -> list[Outcome]:
        out = [
            Outcome(
                UNPINNED_SOURCE,
                "",
                f"the source {quote(self.path, 200)} has no sha256; run mechlint pin to add it",
            )
        ]
        if state.kind == "absent":
            history = self.repo.history()
            if history is None or not history.complete:
                out.append(self._unavailable(f"nothing is at {quote(self.path, 200)} in the working tree"))
            elif not self._revisions(self.path):
                out.append(self._missing())
        return out

    def _missing(self) -> Outcome:
        hint = self._did_you_mean()
        return Outcome(
            MISSING_SOURCE,
            "/path",
            f"nothing is at {quote(self.path, 200)}, and nothing ever was in the history of this repository; "
            f"fix the path or remove the source{'; ' + hint if hint else ''}",
        )

    def _lineage(self, path: str) -> list[Revision]:
        """The revisions of ``path`` and of the names it had before renames, newest first; raises GitError."""
        from mechlint.provenance.whereabouts import lineage

        history = self.repo.history()
        if history is None:
            return []
        full = self.repo.prefix + path
        return lineage(history.path_history(full), full)

    def _revisions(self, path: str) -> list[Revision]:
        try:
            return self._lineage(path)
        except GitError:
            return []

    def _hit(self, path: str) -> Revision | None:
        """The revision that holds the pinned bytes at ``path`` or at a name it had before; raises GitError."""
        if path not in self._hits:
            self._hits[path] = self.pinned_revision(self._lineage(path))
        return self._hits[path]

    def history_hit(self) -> tuple[Revision, str | None] | None:
        """Where history holds the pinned bytes for this source; raises GitError.

        At this path (or a name it had before a rename); for a frozen copy also
        at its original path, which is then returned second. Bytes that only
        some other path held never count: that is a wrong path, not a source.
        """
        hit = self._hit(self.path)
        if hit is not None:
            return hit, None
        original = self.owner.frozen_original(self.path)
        if original is not None:
            hit = self._hit(original)
            if hit is not None:
                return hit, original
        return None

    def shown(self, path: str) -> str:
        """A path from git (relative to the repository's top) as source paths are written."""
        prefix = self.repo.prefix
        return path[len(prefix) :] if prefix and path.startswith(prefix) else path

    def _held(self, hit: Revision, original: str | None) -> str:
        """``at PATH in commit C``: where ``hit`` held the bytes, so that ``git show C:PATH`` can be checked."""
        history = self.repo.history()
        commit = history.describe(hit.commit) if history is not None else hit.commit[:12]
        shown = self.shown(hit.path)
        if original is not None:
            if shown == original:
                return f"at its original path {quote(original, 200)} in commit {commit}"
            return (
                f"at {quote(shown, 200)} in commit {commit}, the name its original path {quote(original, 200)} "
                "had before a rename"
            )
        if shown == self.path:
            return f"at this path in commit {commit}"
        return f"at {quote(shown, 200)} in commit {commit}, the name this path had before a rename"

    def _holders(self) -> list[Holder]:
        """Other paths that hold the pinned bytes at HEAD or held them in a commit (nothing when unknowable)."""
        from mechlint.provenance.whereabouts import holders

        history = self.repo.history()
        index = self.repo.index()
        if history is None or index is None or self.digest is None:
            return []
        try:
            return holders(history, index, self.digest, self.repo.prefix, self.path)
        except GitError:
            return []

    def _elsewhere(self) -> str:
        """``those bytes are at "x" now`` or ``… were at "x" in commit C``, or "" when no other path has them."""
        from mechlint.provenance.whereabouts import best_holder

        history = self.repo.history()
        best = best_holder(self.path, self._holders())
        if best is None or history is None:
            return ""
        if best.commit is None:
            return f"those bytes are at {quote(best.path, 200)} now"
        return f"those bytes were at {quote(best.path, 200)} in commit {history.describe(best.commit)}"

    def _did_you_mean(self) -> str:
        from mechlint.provenance.whereabouts import nearby_files, suggestion

        history = self.repo.history()
        if history is None:
            return ""
        found = self._holders()
        by_name = None
        if not found:
            by_name = self.repo.names().closest(self.path, nearby_files(self.repo.base, self.path))
        return suggestion(self.path, found, by_name, history.describe)

    def pinned_revision(self, revisions: list[Revision]) -> Revision | None:
        """The newest revision that brought the pinned bytes to the path (a rename does not count)."""
        index = self.repo.index()
        if index is None:
            return None
        digest = self.digest or ""
        digests = index.digests(r.blob for r in revisions if r.blob)
        holding = [r for r in revisions if r.blob and digest in (digests.get(r.blob), index.cache.lfs_of(r.blob))]
        for revision in sorted(holding, key=lambda r: r.previous == r.blob):
            if revision.blob and (revision.blob == self._working_blob() or index.verified(revision.blob, digest)):
                return revision
        return None

    def _working_blob(self) -> str | None:
        """The git blob id of the pinned bytes in the working tree: a blob with that id holds those very bytes.

        So a revision with that blob needs no second read from git to be believed.
        """
        if self._pinned_blob is None and self._pinned_bytes is not None:
            self._pinned_blob = git_blob_id(self._pinned_bytes)
        return self._pinned_blob

    def _submodule(self) -> str | None:
        """The folder of a nested repository (a submodule) that holds the source, if any."""
        parts = self.path.split("/")[:-1]
        known = self.repo.submodules
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in known:
                known[folder] = os.path.exists(os.path.join(self.repo.base, folder, ".git"))
            if known[folder]:
                return folder
        return None

    def _mismatch(self, state: FileState) -> list[Outcome]:
        present = state.kind == "file"
        submodule = self._submodule()
        if submodule is not None:
            return [
                Outcome(
                    HISTORY_UNAVAILABLE,
                    "/path",
                    f"{quote(self.path, 200)} does not match the pinned sha256, and it is inside the submodule "
                    f"{quote(submodule, 200)}, whose history mechlint does not read; check it in that repository",
                )
            ]
        history = self.repo.history()
        if history is None:
            what = (
                f"the bytes of {quote(self.path, 200)} do not have the pinned sha256 (they have {state.sha256[:12]}…)"
                if present
                else f"nothing is at {quote(self.path, 200)} in the working tree"
            )
            return [self._unavailable(what + self._line_endings(state))]
        try:
            revisions = self._lineage(self.path)
            hit = self._hit(self.path)
            found = None if present else self.history_hit()
        except GitError as error:
            return [self._unavailable(f"looking up {quote(self.path, 200)} failed ({error})", error)]
        if present:
            if hit is not None:
                return self._stale(hit, revisions, state)
            if not history.complete:
                return [
                    self._unavailable(
                        f"the pinned bytes of {quote(self.path, 200)} are not in the history this clone has"
                    )
                ]
            where = self._elsewhere()
            return [
                Outcome(
                    DIGEST_MISMATCH,
                    "/sha256",
                    f"neither the current bytes of {quote(self.path, 200)} nor any version of it in history have "
                    f"the pinned sha256{'; ' + where if where else ''}{self._line_endings(state)}; "
                    f"{'fix the path, or ' if where else ''}pin the right file (mechlint pin) after review",
                )
            ]
        if found is not None:
            held, original = found
            return [
                Outcome(
                    FROZEN_RESOLVED,
                    "/path",
                    f"{quote(self.path, 200)} is gone from the working tree; its pinned bytes were "
                    f"{self._held(held, original)}",
                )
            ]
        if not history.complete:
            return [
                self._unavailable(
                    f"nothing is at {quote(self.path, 200)} and the pinned bytes are not in the history this clone has"
                )
            ]
        if revisions:
            where = self._elsewhere()
            return [
                Outcome(
                    DIGEST_MISMATCH,
                    "/sha256",
                    f"{quote(self.path, 200)} was in history, but no version of it has the pinned sha256"
                    f"{'; ' + where if where else ''}; fix the digest or the path",
                )
            ]
        return [self._missing()]

    def _stale(self, hit: Revision, revisions: list[Revision], state: FileState) -> list[Outcome]:
        history = self.repo.history()
        assert history is not None
        newer = revisions[: revisions.index(hit)]
        later = [r for r in newer if r.previous == hit.blob and r.blob != hit.blob]
        head = history.state().head
        head_blob = history.tree(head).get(self.repo.prefix + self.path) if head else None
        if head_blob == hit.blob:  # HEAD holds the pinned bytes: whatever other branches did, the change is here
            if self.digest in line_ending_variants(state.data):
                return []  # only the checkout's line-ending conversion differs from the pinned blob
            later = []
        # the change HEAD has, not one made on another branch
        ours = [r for r in later if head is not None and history.is_ancestor(r.commit, head)]
        if ours or later:
            changed = f"commit {history.describe((ours or later)[-1].commit)} changed them"
        else:
            changed = "they were changed in the working tree and not committed"
        shown = self.shown(hit.path)
        renamed = "" if shown == self.path else f", when the file was named {quote(shown, 200)}"
        return [
            Outcome(
                STALE_SOURCE,
                "/sha256",
                f"the pinned bytes of {quote(self.path, 200)} are from commit {history.describe(hit.commit)}"
                f"{renamed}, and {changed}; review the mechanism against the new version, then run mechlint pin",
            )
        ]

    def _line_endings(self, state: FileState) -> str:
        how = line_ending_variants(state.data).get(self.digest or "")
        if not how:
            return ""
        return (
            f" (the pinned sha256 is that of this file {how}: line-ending conversion, from .gitattributes eol "
            "or core.autocrlf, explains the difference)"
        )

    def _original_holds_them_now(self, original: str) -> bool:
        """Whether the original path holds the pinned bytes in the working tree (not committed yet)."""
        if self._pinned_bytes is None or path_problem(original):
            return False  # only a copy whose own bytes are the pinned ones can be compared
        state = hash_source(self.repo.base, original)
        return state.kind == "file" and state.sha256 == self.digest

    def _frozen_claim(self, original: str) -> list[Outcome]:
        history = self.repo.history()
        claim = f"{quote(self.path, 200)} is a frozen copy of {quote(original, 200)}"
        if history is None:
            return [self._unavailable(f"{claim}, whose bytes can only be checked in history")]
        try:
            hit = self._hit(original)
        except GitError as error:
            return [self._unavailable(f"{claim}, and looking it up failed ({error})", error)]
        if hit is not None or self._original_holds_them_now(original):
            return []
        if not history.complete:
            return [self._unavailable(f"{claim}, and its pinned bytes are not in the history this clone has")]
        where = self._elsewhere()
        return [
            Outcome(
                FROZEN_COPY_MISMATCH,
                "/path",
                f"{claim}, but its pinned bytes never existed at {quote(original, 200)} (or a name it had before a "
                f"rename) in any commit{'; ' + where if where else ''}; the copy is not the pre-migration file",
            )
        ]
