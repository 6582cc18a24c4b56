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
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from mechlint.catalog.registry import rules_by_id
from mechlint.config.globs import DEFAULT_EXCLUDE as DEFAULT_EXCLUDE  # the defaults of discovery
from mechlint.config.globs import DEFAULT_INCLUDE
from mechlint.errors import ConfigError
from mechlint.model import LEVEL_NAMES, Level
from mechlint.records import Record
from mechlint.rules import Rule, RuleContext
from mechlint.safety.safeio import NotReadable, read_regular
from mechlint.schema.datafile import parse_toml

if TYPE_CHECKING:
    from mechlint.config.suppressions import Suppression
    from mechlint.language.plainlists import PlainLists

#: A configuration file larger than this is refused (it is read whole, and never from a FIFO or a device).
MAX_CONFIG_FILE = 16 * 1024 * 1024
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


class EnabledRule(Record):
    rule: Rule
    level: Level
    options: Mapping[str, Any]
    context: RuleContext


class Config(Record):
    """The merged configuration of one run; frozen once built."""

    source: Path | None = None
    #: The folder of ``source``, where the paths it names are relative to (read only when ``source`` is set).
    root: Path = Path()
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    fail_on: str = "error"
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    levels: Mapping[str, Level | None] = MappingProxyType({})
    options: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
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
        errors: list[ConfigError] = []
        for flag, values in (("--select", select), ("--ignore", ignore)):
            try:
                checked = tuple(_check_selectors(list(values or ()), flag, None, known))
            except ConfigError as problem:
                errors += each_error(problem)
                continue
            if checked:
                changes[flag[2:]] = checked if flag == "--select" else (*self.ignore, *checked)
        if fail_on is not None:
            if fail_on not in FAIL_ON_CHOICES:
                hint = _suggestion(fail_on, list(FAIL_ON_CHOICES))
                errors.append(
                    ConfigError(f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)}; got {fail_on!r}{hint}")
                )
            changes["fail_on"] = fail_on
        if errors:
            raise errors[0] if len(errors) == 1 else ConfigErrors(errors)
        return self._replace(**changes)

    def frozen_pattern(self) -> str | None:
        """The ``pattern`` option of ``provenance/frozen-copy-mismatch``, when it is set to a string."""
        from mechlint.rules.provenance.frozen_copy_mismatch import META as FROZEN_COPY_MISMATCH_RULE

        pattern = self.options.get(FROZEN_COPY_MISMATCH_RULE.id, {}).get("pattern")
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
    from mechlint.text.lookalike import suggestion

    return suggestion(name, candidates)


def _check_selectors(
    values: list[Any], key: str, path: Path | None, known: Mapping[str, Rule], line: int | None = None
) -> list[str]:
    """The selectors in ``values``; a ConfigError (ConfigErrors for several) naming every one that is wrong."""
    families = {rule_id.partition("/")[0] for rule_id in known}
    errors: list[ConfigError] = []
    for value in values:
        if len(errors) >= MAX_CONFIG_ERRORS:
            break
        if not isinstance(value, str):
            errors.append(ConfigError(f"{key} must be a list of rule ids or families; got {value!r}", path, line))
        elif value != "ALL" and value not in known and value.rstrip("/") not in families:
            errors.append(
                ConfigError(
                    f"{key} names {value!r}, which is neither a rule id nor a family"
                    f"{_suggestion(value, [*known, *families])} "
                    f"(families: {', '.join(sorted(families))}; `mechlint rules` lists the ids)",
                    path,
                    line,
                )
            )
    if errors:
        raise errors[0] if len(errors) == 1 else ConfigErrors(errors)
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


class ConfigErrors(ConfigError):
    """Every mistake of a configuration file (and of the files it names), each with its own file and line.

    ``errors`` holds them in the order of the file; ``str()`` gives one a line.
    """

    def __init__(self, errors: list[ConfigError]) -> None:
        super().__init__(errors[0].message, errors[0].path, errors[0].line)
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def each_error(problem: ConfigError) -> list[ConfigError]:
    """The single errors a :class:`ConfigError` holds: itself, or each of a :class:`ConfigErrors`."""
    return list(problem.errors) if isinstance(problem, ConfigErrors) else [problem]


#: At most this many mistakes of one file are reported (each costs a suggestion and a search for its line).
MAX_CONFIG_ERRORS = 100
#: A key path such as ``rules."reference/x".level``: bare or quoted parts, split on the dots between them.
_KEY_PART = re.compile(r'"((?:[^"\\]|\\.)*)"|([^.]+)')


class _Problems:
    """Collects the mistakes of one configuration file, each at the line of the key it is about."""

    def __init__(self, path: Path, text: str, prefix: str) -> None:
        self.path, self.prefix, self.errors = path, prefix, list[ConfigError]()
        self.more = False
        self.lines = text.splitlines()
        header = _MECHLINT_TABLE.search(text) if prefix else None
        self.first = text.count("\n", 0, header.start()) if header else 0

    @property
    def full(self) -> bool:
        """True once MAX_CONFIG_ERRORS are collected: callers stop looking for more."""
        self.more = self.more or len(self.errors) >= MAX_CONFIG_ERRORS
        return self.more

    def add(self, key: str, message: str, line: int | None = None) -> bool:
        """Record a mistake; False once enough are recorded (the caller stops)."""
        if not self.full:
            self.errors.append(ConfigError(f"{self.prefix}{key}: {message}", self.path, line or self.line_of(key)))
        return not self.full

    def also(self, error: ConfigError) -> None:
        if not self.full:
            self.errors.extend(each_error(error)[: MAX_CONFIG_ERRORS - len(self.errors)])

    def line_of(self, key: str) -> int | None:
        """The line of ``key`` (each part found after the one before), from the mechlint table on."""
        found: int | None = None
        at = self.first
        for match in _KEY_PART.finditer(key):
            name = match.group(1) if match.group(1) is not None else match.group(2)
            pattern = re.compile(rf'(^|[\s\[."{{,])"?{re.escape(name)}"?\s*(=|\]|\.)')
            for number in range(at, len(self.lines)):
                if pattern.search(self.lines[number]):
                    found, at = number + 1, number
                    break
            else:
                return found
        return found

    def raise_any(self) -> None:
        if self.more:
            self.errors.append(
                ConfigError(f"stopped after {MAX_CONFIG_ERRORS} mistakes; fix these and run again", self.path)
            )
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise ConfigErrors(self.errors)


def _from_table(table: Any, path: Path, text: str, prefix: str) -> Config:
    """The configuration in ``table``; every mistake in it is collected and raised together (ConfigErrors)."""
    if not isinstance(table, dict):
        raise ConfigError(f"{prefix or 'the file'} must be a table", path)
    problems = _Problems(path, text, prefix)
    config = Config(source=path, root=path.parent.resolve())
    changes: dict[str, Any] = {}
    extra = _invariant_rules(table.get("invariants", []), path, problems)
    changes["extra_rules"] = extra
    known = {**rules_by_id(), **{rule.meta.id: rule for rule in extra}}
    for key, value in table.items():
        if problems.full:
            break
        if key not in _TOP_LEVEL_KEYS:
            problems.add(
                key,
                f"unknown key{_suggestion(key, list(_TOP_LEVEL_KEYS))}; "
                f"known keys are {', '.join(sorted(_TOP_LEVEL_KEYS))}",
            )
            continue
        expected = _TOP_LEVEL_KEYS[key]
        if key == "word-lists":
            changes["word_lists"] = _word_lists(value, path, problems)
        elif key == "ignore":
            from mechlint.config.suppressions import parse_suppressions

            changes["suppressions"] = parse_suppressions(value, problems.add, known, text)
        elif key in ("include", "exclude", "select"):
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                problems.add(key, f"expected {expected}; got {value!r}")
            elif key == "select":
                try:
                    changes[key] = tuple(_check_selectors(value, prefix + key, path, known, problems.line_of(key)))
                except ConfigError as error:
                    problems.also(error)
            else:
                changes[key] = tuple(value)
        elif key == "fail-on":
            if value not in FAIL_ON_CHOICES:
                hint = _suggestion(value, list(FAIL_ON_CHOICES)) if isinstance(value, str) else ""
                problems.add(key, f"expected {expected}; got {value!r}{hint}")
            else:
                changes["fail_on"] = value
        elif key == "max-file-size":
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.add(key, f"expected {expected}; got {value!r}")
            else:
                changes["max_file_size"] = value
        elif key == "rules":
            levels, options = _rule_tables(value, problems, known)
            changes["levels"] = MappingProxyType(levels)
            changes["options"] = MappingProxyType(options)
    problems.raise_any()
    return config._replace(**changes)


def _invariant_rules(value: Any, path: Path, problems: _Problems) -> tuple[Rule, ...]:
    from mechlint.invariants.loader import load_file, to_rule

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.add("invariants", f"expected {_TOP_LEVEL_KEYS['invariants']}; got {value!r}")
        return ()
    rules: list[Rule] = []
    taken = set(rules_by_id())
    for item in value:
        if problems.full:
            break
        target = (path.parent / item).resolve()
        if not target.is_relative_to(path.parent.resolve()):
            problems.add("invariants", f"{item!r} is outside the folder of the configuration file")
            continue
        try:
            invariants = load_file(target)
        except ConfigError as error:
            problems.also(error)
            continue
        for invariant in invariants:
            try:
                rule = to_rule(invariant)
            except ConfigError as error:
                problems.also(error)
                continue
            if rule.meta.id in taken:
                problems.also(ConfigError(f"{rule.meta.id} is defined twice; give the invariant another name", target))
                continue
            taken.add(rule.meta.id)
            rules.append(rule)
    return tuple(rules)


def _word_lists(value: Any, path: Path, problems: _Problems) -> PlainLists | None:
    from mechlint.language.plainlists import load_lists

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.add("word-lists", f"expected {_TOP_LEVEL_KEYS['word-lists']}; got {value!r}")
        return None
    files = []
    for item in value:
        target = (path.parent / item).resolve()
        if not target.is_relative_to(path.parent.resolve()):
            problems.add("word-lists", f"{item!r} is outside the folder of the configuration file")
            continue
        files.append(target)
    try:
        return load_lists(files)
    except ConfigError:  # find every file that fails, not only the first
        for target in files:
            try:
                load_lists([target])
            except ConfigError as error:
                problems.also(error)
        return None


def _rule_tables(
    value: Any, problems: _Problems, known: Mapping[str, Rule]
) -> tuple[dict[str, Level | None], dict[str, Mapping[str, Any]]]:
    levels: dict[str, Level | None] = {}
    options: dict[str, Mapping[str, Any]] = {}
    if not isinstance(value, dict):
        problems.add("rules", 'expected a table such as [tool.mechlint.rules."reference/unused-target"]')
        return levels, options
    families = sorted({rule_id.partition("/")[0] for rule_id in known})
    for rule_id, settings in value.items():
        if problems.full:
            break
        key = f'rules."{rule_id}"'
        if rule_id not in known:
            if rule_id.rstrip("/") in families:
                members = [name for name in known if name.partition("/")[0] == rule_id.rstrip("/")]
                problems.add(key, f"{rule_id!r} is a family; configure each of its rules: {', '.join(members)}")
            else:
                problems.add(key, f"unknown rule id{_suggestion(rule_id, list(known))}; `mechlint rules` lists them")
            continue
        if not isinstance(settings, dict):
            problems.add(key, "expected a table with level and the rule's options")
            continue
        meta = known[rule_id].meta
        rule_options: dict[str, Any] = {}
        for name, setting in settings.items():
            if name == "level":
                if setting not in (*LEVEL_NAMES, "off"):
                    hint = _suggestion(setting, [*LEVEL_NAMES, "off"]) if isinstance(setting, str) else ""
                    problems.add(
                        f"{key}.level", f"expected one of {', '.join(LEVEL_NAMES)}, off; got {setting!r}{hint}"
                    )
                else:
                    levels[rule_id] = None if setting == "off" else Level.parse(setting)
                continue
            try:
                option = meta.option(name)
            except KeyError:
                names = ["level", *(o.name for o in meta.options)]
                problems.add(
                    f"{key}.{name}",
                    f"unknown option of {rule_id}{_suggestion(name, names)}; it takes {', '.join(names)}",
                )
                continue
            if not option.accepts(setting):
                problems.add(f"{key}.{name}", f"expected {option.expected}; got {setting!r}")
                continue
            rule_options[name] = setting
        options[rule_id] = MappingProxyType(rule_options)
    return levels, options
