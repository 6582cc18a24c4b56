"""Checking an unsaved buffer as ``mechlint check`` checks the file on disk.

The configuration is found by walking up from the file's folder, and kept
until it, or a file it names, changes (:meth:`Checker.reload`). Sources are
read as ``check`` reads them, through one :class:`~mechlint.provenance.services.RunServices` per
project whose answers are kept between keystrokes: a source is hashed again
only when its size, a time (modification or status change, to the
nanosecond), inode or device changed (a file rewritten in place keeping its
size and modification time, as ``cp -p`` does, still changes its status-change
time), or when the repository's history key moved (refs, HEAD, the shallow
boundary, the packs) or its index, configuration or attributes changed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mechlint.config import Config, EnabledRule, load_config
from mechlint.document import Document, load
from mechlint.errors import ConfigError
from mechlint.model import Level, Region, Result, RuleInfo
from mechlint.provenance.services import RunServices
from mechlint.rules.mechlint.invalid_config import META as INVALID_CONFIG_RULE
from mechlint.run.adoption import apply_suppressions
from mechlint.run.checking import INTERNAL_ERROR, run_rules
from mechlint.run.discovery import find_project_root, is_mechanism_file
from mechlint.run.engine import rule_infos, source_paths
from mechlint.run.fixattach import placed_with_fixes
from mechlint.safety.paths import relative_posix

if TYPE_CHECKING:
    from mechlint.provenance.resolve import Provenance

INVALID_CONFIG = INVALID_CONFIG_RULE.id
Stat = tuple[int, int, int, int, int] | None
#: What, in the git folder, the answers about a source depend on (see ``History.refs_key`` and
#: ``Repository.file_state``): the refs and HEAD, the objects the clone has, the index (sparse paths, what is
#: staged) and the configuration (``core.autocrlf``).
_GIT_STATE = ("HEAD", "packed-refs", "refs/heads", "refs/tags", "shallow", "objects/pack", "index", "config")


def _stat(path: str) -> Stat:
    """What says a file changed: any write changes the status-change time, even one that restores the rest."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino, info.st_dev)


@dataclass
class Checked:
    """The outcome of checking one buffer: results in document order and what each rule is."""

    document: Document
    results: list[Result]
    rules: dict[str, RuleInfo]
    config: Config | None = None
    #: Why rules could not run (a broken configuration), as a message; the results then say so too.
    problem: str | None = None
    #: The configuration's error, when that is why.
    config_error: ConfigError | None = None


@dataclass
class _Project:
    """The configuration of one folder, with the rules enabled and a run whose answers are kept."""

    config: Config
    enabled: list[EnabledRule]
    rules: dict[str, RuleInfo]
    services: RunServices
    config_stat: Stat
    seen: dict[str, Stat] = field(default_factory=dict)


class Checker:
    """Checks buffers; ``root`` is ``--root`` (source paths relative to it), else each file's repository."""

    def __init__(self, root: Path | None = None, log: Callable[[str], None] = lambda _: None) -> None:
        self.root = root.resolve() if root is not None else None
        self.log = log
        self._projects: dict[Path, _Project | ConfigError] = {}
        #: The editor's workspace folders (absolute), from ``initialize``.
        self.folders: list[Path] = []

    def reload(self) -> None:
        """Forget every configuration, word list and source answer: they are read again when next needed."""
        for project in self._projects.values():
            if isinstance(project, _Project):
                project.services.close()
        self._projects.clear()

    def close(self) -> None:
        self.reload()

    def reload_sources(self) -> None:
        """Forget the sources' answers (kept configurations): after a save, every source is hashed again."""
        for project in self._projects.values():
            if isinstance(project, _Project):
                project.services.close()
                project.seen.clear()

    def project_root(self, path: Path) -> Path:
        """``--root``, else the repository that holds the file, else the editor's workspace folder that does."""
        if self.root is not None:
            return self.root
        found = find_project_root(path.parent)
        if (found / ".git").exists():
            return found
        holding = [folder for folder in self.folders if path.is_relative_to(folder)]
        return max(holding, key=lambda folder: len(folder.parts)) if holding else found

    def _project(self, path: Path) -> _Project | ConfigError:
        folder = path.parent
        known = self._projects.get(folder)
        if isinstance(known, _Project) and known.config.source and _stat(str(known.config.source)) != known.config_stat:
            known.services.close()
            known = None
        if known is None:
            try:
                config = load_config(start=folder)
            except ConfigError as error:
                self.log(f"the configuration cannot be used: {error}")
                known = error
            else:
                services = RunServices(
                    root=self.project_root(path), source_root=self.root, frozen_pattern=config.frozen_pattern()
                )
                enabled = [e._replace(context=e.context._replace(services=services)) for e in config.enabled()]
                rules = {info.id: info for info in rule_infos(enabled)}
                stat = _stat(str(config.source)) if config.source else None
                known = _Project(config, enabled, rules, services, stat)
            self._projects[folder] = known
        return known

    def selected(self, path: Path) -> bool:
        """Whether ``check`` of the project would check this file: its ``include`` globs select it."""
        project = self._project(path)
        root = self.project_root(path)
        # with a broken configuration, the default globs say which files hear that it is broken
        config = Config(root=root) if isinstance(project, ConfigError) else project.config
        return is_mechanism_file(path, config, root)

    def check(self, path: Path, text: str, shown: str | None = None) -> Checked:
        """Every rule over ``text`` as the content of ``path``; a crashing rule is a result, never an exception."""
        shown = shown or path.name
        document = load(shown, text.encode("utf-8", "surrogatepass"))
        document.location = path
        project = self._project(path)
        if isinstance(project, ConfigError):
            message = f"mechlint cannot use its configuration: {project}"
            result = Result(shown, INVALID_CONFIG, Level.ERROR, message, "", Region(1, 1, 1, 2))
            return Checked(document, [result], {}, problem=message, config_error=project)
        self._refresh(project, document)
        findings, notifications = run_rules(document, project.enabled)
        for notification in notifications:
            self.log(f"{path}: {notification.message}")
        if findings:
            document.prepare(p for f in findings for p in f.pointers())
        results = sorted(placed_with_fixes(document, findings, project.enabled), key=Result.sort_key)
        config = project.config
        if config.suppressions:
            base = config.root if config.source else self.project_root(path)
            relative = relative_posix(path, base) or shown
            results = apply_suppressions(results, relative, config.suppressions).results
            results = [r for r in results if r.suppressed is None]
        return Checked(document, results, project.rules, config)

    def _refresh(self, project: _Project, document: Document) -> None:
        """A new run (sources hashed again) when a source of this document, or the refs, changed on disk."""
        if not document.parsed or document.location is None:
            return
        try:
            repository = project.services.provenance().repository(document.location)
        except Exception as error:  # a repository that cannot be read is reported by the rules
            self.log(f"cannot look at the repository of {document.path}: {error}")
            return
        provenance = project.services.provenance()
        paths = [p for p in source_paths(document.data) if "\0" not in p]
        originals = [original for p in paths if (original := provenance.frozen_original(p)) is not None]
        watched = [os.path.join(repository.base, p) for p in (*paths, *originals)]  # an original's state is read too
        if repository.toplevel is not None:
            git = os.path.join(repository.toplevel, ".git")
            watched += [os.path.join(git, name) for name in _GIT_STATE]
            watched.append(os.path.join(repository.toplevel, ".gitattributes"))
        now = {name: _stat(name) for name in watched}
        changed = any(name in project.seen and project.seen[name] != stat for name, stat in now.items())
        project.seen.update(now)
        if changed:
            project.services.close()  # the next rule to ask builds the provenance again, with fresh answers

    def internal_error(self, path: Path, text: str, error: BaseException) -> Checked:
        """What is published when checking itself failed: one ``mechlint/internal-error`` at the top."""
        document = load(path.name, text.encode("utf-8", "surrogatepass"))
        message = f"mechlint could not check this file ({type(error).__name__}: {error}); please report it"
        result = Result(path.name, INTERNAL_ERROR, Level.ERROR, message, "", Region(1, 1, 1, 2))
        return Checked(document, [result], {}, problem=message)

    def fixed_text(self, path: Path, text: str) -> str | None:
        """The buffer with every safe fix applied, in rounds, as ``check --fix`` writes it; ``None`` when no fix
        applies (or the configuration cannot be used)."""
        project = self._project(path)
        if isinstance(project, ConfigError):
            return None
        from mechlint.authoring.fixfiles import lint_for_fixes
        from mechlint.fixes.apply import fix_bytes

        config = project.config
        base = config.root if config.source else self.project_root(path)
        relative = relative_posix(path, base) or path.name

        def lint(data: bytes) -> list[Result]:
            return lint_for_fixes(data, path.name, path, project.enabled, config, relative)

        outcome = fix_bytes(path, path.name, text.encode("utf-8", "surrogatepass"), lint, unsafe=False)
        return outcome.after.decode("utf-8", "surrogatepass") if outcome.changed else None

    def provenance(self, path: Path) -> Provenance | None:
        """The sources' facts of the project of ``path`` (``None`` when its configuration cannot be used)."""
        project = self._project(path)
        return None if isinstance(project, ConfigError) else project.services.provenance()

    def pinned_text(self, path: Path, text: str) -> str | None:
        """The buffer with every source pinned to its current bytes, as ``mechlint pin`` would write it."""
        project = self._project(path)
        if isinstance(project, ConfigError):
            return None
        from mechlint.authoring.pin import pin_file

        return pin_file(path, path.name, text.encode("utf-8", "surrogatepass"), project.services.provenance()).text
