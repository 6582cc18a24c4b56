"""Configuration: defaults, then a file found by walking up, then flags.

The file is ``mechlint.toml`` (its top level is the configuration) or the
``[tool.mechlint]`` table of ``pyproject.toml``; in one folder
``mechlint.toml`` wins. Every key and type is checked; anything wrong is a
:class:`ConfigError` that names the file, the key and what was expected.

Long: loading, checking every key and merging the flags are one pipeline over one dataclass; each key's
check sits next to its default.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mechlint.datafile import parse_toml
from mechlint.errors import ConfigError
from mechlint.model import LEVEL_NAMES, Level
from mechlint.registry import rules_by_id
from mechlint.rules import Rule, RuleContext
from mechlint.safeio import NotReadable, read_regular

if TYPE_CHECKING:
    from mechlint.adoption import Suppression
    from mechlint.plainlists import PlainLists

#: A configuration file larger than this is refused (it is read whole, and never from a FIFO or a device).
MAX_CONFIG_FILE = 16 * 1024 * 1024
DEFAULT_INCLUDE = ("**/mechanisms/*.json", "**/*.mechanism.json")
DEFAULT_EXCLUDE = (
    ".git",
    ".mechlint_cache",
    ".hg",
    ".svn",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".nox",
)
DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024
FAIL_ON_CHOICES = (*LEVEL_NAMES, "never")
CONFIG_NAMES = ("mechlint.toml", "pyproject.toml")

_TOP_LEVEL_KEYS = {
    "include": "a list of glob patterns",
    "exclude": "a list of glob patterns",
    "select": "a list of rule ids or families",
    "fail-on": "one of " + ", ".join(FAIL_ON_CHOICES),
    "max-file-size": "a whole number of bytes, at least 1",
    "invariants": "a list of invariant files (TOML), relative to this file",
    "rules": "a table of rule ids, each a table with level and options",
    "word-lists": "a list of word-list files (TOML), relative to this file",
    "ignore": "an array of [[ignore]] tables with path, rule, optional pointer and reason",
}


@dataclass(frozen=True, slots=True)
class EnabledRule:
    rule: Rule
    level: Level
    options: Mapping[str, Any]
    context: RuleContext


@dataclass(frozen=True, slots=True)
class Config:
    """The merged configuration of one run; frozen once built."""

    source: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    levels: Mapping[str, Level | None] = field(default_factory=lambda: MappingProxyType({}))
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    extra_rules: tuple[Rule, ...] = ()
    word_lists: PlainLists | None = None
    suppressions: tuple[Suppression, ...] = ()

    def known_rules(self) -> dict[str, Rule]:
        return {**rules_by_id(), **{rule.meta.id: rule for rule in self.extra_rules}}

    def with_flags(
        self,
        *,
        select: Iterable[str] | None = None,
        ignore: Iterable[str] = (),
        fail_on: str | None = None,
    ) -> Config:
        """Flags win over the file; each is validated like the file's keys."""
        changes: dict[str, Any] = {}
        known = self.known_rules()
        if select:
            changes["select"] = tuple(_check_selectors(list(select), "--select", None, known))
        if ignore:
            changes["ignore"] = (*self.ignore, *_check_selectors(list(ignore), "--ignore", None, known))
        if fail_on is not None:
            if fail_on not in FAIL_ON_CHOICES:
                raise ConfigError(f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)}; got {fail_on!r}")
            changes["fail_on"] = fail_on
        return replace(self, **changes)

    def frozen_pattern(self) -> str | None:
        """The ``pattern`` option of ``provenance/frozen-copy-mismatch``, when it is set to a string."""
        pattern = self.options.get("provenance/frozen-copy-mismatch", {}).get("pattern")
        return pattern if isinstance(pattern, str) else None

    def enabled(self) -> list[EnabledRule]:
        """The rules this run applies, with their levels and options."""
        enabled = []
        for rule_id, rule in self.known_rules().items():
            if self.select is not None and not _matches(rule_id, self.select):
                continue
            if _matches(rule_id, self.ignore):
                continue
            level = self.levels.get(rule_id, rule.meta.level)
            if level is None:
                continue
            options = {option.name: option.default for option in rule.meta.options}
            options.update(self.options.get(rule_id, {}))
            frozen = MappingProxyType(options)
            enabled.append(EnabledRule(rule, level, frozen, RuleContext(frozen, self.word_lists)))
        return enabled

    @property
    def fail_level(self) -> Level | None:
        return None if self.fail_on == "never" else Level.parse(self.fail_on)


def _matches(rule_id: str, selectors: Iterable[str]) -> bool:
    family = rule_id.partition("/")[0]
    return any(s in ("ALL", rule_id, family) for s in selectors)


def _suggestion(name: str, candidates: list[str]) -> str:
    """`` (did you mean "x"?)``, naming any look-alike character, or nothing."""
    from mechlint.lookalike import suggestion

    return suggestion(name, candidates)


def _check_selectors(
    values: list[Any], key: str, path: Path | None, known: Mapping[str, Rule], line: int | None = None
) -> list[str]:
    families = {rule_id.partition("/")[0] for rule_id in known}
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a list of rule ids or families; got {value!r}", path, line)
        if value != "ALL" and value not in known and value.rstrip("/") not in families:
            raise ConfigError(
                f"{key} names {value!r}, which is neither a rule id nor a family"
                f"{_suggestion(value, [*known, *families])} "
                f"(families: {', '.join(sorted(families))}; `mechlint rules` lists the ids)",
                path,
                line,
            )
    return [value.rstrip("/") for value in values]


#: A ``[tool.mechlint]`` header. Only spaces and tabs around it: ``\\s*`` after ``^`` would run over every
#: following blank line from every line start, quadratic in a file of blank lines.
_MECHLINT_TABLE = re.compile(r"^[ \t]*\[\[?[ \t]*tool[ \t]*\.[ \t]*mechlint\b", re.MULTILINE)


def find_config_file(start: Path) -> Path | None:
    """The nearest ``mechlint.toml``, or ``pyproject.toml`` with ``[tool.mechlint]``."""
    for folder in (start, *start.parents):
        for name in CONFIG_NAMES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            if name == "mechlint.toml":
                return candidate
            try:
                text = read_regular(candidate, MAX_CONFIG_FILE).decode("utf-8", errors="replace")
            except NotReadable:
                continue
            if _MECHLINT_TABLE.search(text):
                return candidate
    return None


def load_config(explicit: Path | None = None, start: Path | None = None) -> Config:
    """Load the configuration file (``explicit``, or found from ``start``)."""
    start = (start or Path.cwd()).resolve()
    path = explicit if explicit is not None else find_config_file(start)
    if path is None:
        return Config(root=start)
    try:
        text = read_regular(path, MAX_CONFIG_FILE).decode("utf-8")
    except NotReadable as error:
        raise ConfigError(f"the configuration file {error.reason}", path) from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"the configuration file is not UTF-8: {error}", path) from None
    document = parse_toml(text, path)
    if path.name == "pyproject.toml":
        table = document.get("tool", {}).get("mechlint", {})
        prefix = "tool.mechlint."
    else:
        table, prefix = document, ""
    return _from_table(table, path, text, prefix)


def _line_of(text: str, key: str) -> int | None:
    name = key.rpartition(".")[2].strip('"')
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf'\s*"?{re.escape(name)}"?\s*=', line) or f'"{name}"' in line or f"[{name}" in line:
            return number
    return None


def _from_table(table: Any, path: Path, text: str, prefix: str) -> Config:
    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{prefix}{key}: {message}", path, _line_of(text, key))

    if not isinstance(table, dict):
        raise ConfigError(f"{prefix or 'the file'} must be a table", path)
    config = Config(source=path, root=path.parent.resolve())
    changes: dict[str, Any] = {}
    extra = _invariant_rules(table.get("invariants", []), path, fail)
    changes["extra_rules"] = extra
    known = {**rules_by_id(), **{rule.meta.id: rule for rule in extra}}
    for key, value in table.items():
        if key not in _TOP_LEVEL_KEYS:
            raise fail(
                key,
                f"unknown key{_suggestion(key, list(_TOP_LEVEL_KEYS))}; "
                f"known keys are {', '.join(sorted(_TOP_LEVEL_KEYS))}",
            )
        expected = _TOP_LEVEL_KEYS[key]
        if key == "invariants":
            continue
        if key == "word-lists":
            changes["word_lists"] = _word_lists(value, path, fail)
        elif key == "ignore":
            from mechlint.adoption import parse_suppressions

            changes["suppressions"] = parse_suppressions(value, fail, known, text)
        if key in ("include", "exclude", "select"):
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise fail(key, f"expected {expected}; got {value!r}")
            if key == "select":
                value = _check_selectors(value, prefix + key, path, known, _line_of(text, key))
            changes[key] = tuple(value)
        elif key == "fail-on":
            if value not in FAIL_ON_CHOICES:
                raise fail(key, f"expected {expected}; got {value!r}")
            changes["fail_on"] = value
        elif key == "max-file-size":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise fail(key, f"expected {expected}; got {value!r}")
            changes["max_file_size"] = value
        elif key == "rules":
            levels, options = _rule_tables(value, fail, known)
            changes["levels"] = MappingProxyType(levels)
            changes["options"] = MappingProxyType(options)
    return replace(config, **changes)


def _invariant_rules(value: Any, path: Path, fail: Any) -> tuple[Rule, ...]:
    from mechlint.invariants.loader import load_file, to_rule

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise fail("invariants", f"expected {_TOP_LEVEL_KEYS['invariants']}; got {value!r}")
    rules: list[Rule] = []
    taken = set(rules_by_id())
    for item in value:
        target = (path.parent / item).resolve()
        if not target.is_relative_to(path.parent.resolve()):
            raise fail("invariants", f"{item!r} is outside the folder of the configuration file")
        for invariant in load_file(target):
            rule = to_rule(invariant)
            if rule.meta.id in taken:
                raise ConfigError(f"{rule.meta.id} is defined twice; give the invariant another name", target)
            taken.add(rule.meta.id)
            rules.append(rule)
    return tuple(rules)


def _word_lists(value: Any, path: Path, fail: Any) -> PlainLists:
    from mechlint.plainlists import load_lists

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise fail("word-lists", f"expected {_TOP_LEVEL_KEYS['word-lists']}; got {value!r}")
    files = []
    for item in value:
        target = (path.parent / item).resolve()
        if not target.is_relative_to(path.parent.resolve()):
            raise fail("word-lists", f"{item!r} is outside the folder of the configuration file")
        files.append(target)
    return load_lists(files)


def _rule_tables(
    value: Any, fail: Any, known: Mapping[str, Rule]
) -> tuple[dict[str, Level | None], dict[str, Mapping[str, Any]]]:
    if not isinstance(value, dict):
        raise fail("rules", 'expected a table such as [tool.mechlint.rules."reference/unused-target"]')
    levels: dict[str, Level | None] = {}
    options: dict[str, Mapping[str, Any]] = {}
    for rule_id, settings in value.items():
        key = f'rules."{rule_id}"'
        if rule_id not in known:
            raise fail(key, f"unknown rule id{_suggestion(rule_id, list(known))}; `mechlint rules` lists them")
        if not isinstance(settings, dict):
            raise fail(key, "expected a table with level and the rule's options")
        meta = known[rule_id].meta
        rule_options: dict[str, Any] = {}
        for name, setting in settings.items():
            if name == "level":
                if setting not in (*LEVEL_NAMES, "off"):
                    raise fail(f"{key}.level", f"expected one of {', '.join(LEVEL_NAMES)}, off; got {setting!r}")
                levels[rule_id] = None if setting == "off" else Level.parse(setting)
                continue
            try:
                option = meta.option(name)
            except KeyError:
                names = ", ".join(["level", *(o.name for o in meta.options)])
                raise fail(f"{key}.{name}", f"unknown option of {rule_id}; it takes {names}") from None
            if not option.accepts(setting):
                raise fail(f"{key}.{name}", f"expected {option.expected}; got {setting!r}")
            rule_options[name] = setting
        options[rule_id] = MappingProxyType(rule_options)
    return levels, options
