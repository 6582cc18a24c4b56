"""The values every part of mechlint passes around: levels, findings, reports.

Findings are plain frozen values. A rule yields them with a JSON pointer into
the document; the line and column are attached later, and only for files that
have findings.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from mechlint.records import Record


class Level(enum.IntEnum):
    """How serious a finding is; ordered so that ``ERROR > WARNING > NOTE``."""

    NOTE = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, name: str) -> Level:
        return cls[name.upper()]

    @property
    def label(self) -> str:
        return self.name.lower()


LEVEL_NAMES = ("error", "warning", "note")


class Keep(enum.IntEnum):
    """Which checked files a report keeps; each value keeps what the one before it keeps, and more.

    ``FINDINGS``: the files with findings (every text, JSON, SARIF report).
    ``FILES``: every checked file, clean ones too (a JUnit test per file).
    ``STORIES``: every checked file with its :class:`Story` (what the HTML report draws).
    """

    FINDINGS = 0
    FILES = 1
    STORIES = 2


class TraceStep(Record):
    """One place in the story behind a finding (a SARIF thread-flow location); ``underline`` as for a finding."""

    pointer: str
    message: str
    underline: str = ""


class Finding(Record):
    """A problem a rule found, before it is placed on a line.

    ``pointer`` is an RFC 6901 JSON pointer into the document. ``on_key`` points
    at the member name instead of its value. ``offset`` overrides the pointer
    with characters ``[start, end)`` of the text (used when the text does not
    parse, or for a repeated key). ``span`` narrows the region to characters
    ``[start, end)`` of a string value. ``underline`` is a pointer below
    ``pointer`` whose value the region shows instead, while the finding stays
    at ``pointer`` (its JSON pointer, baseline and fingerprint): an invariant
    that breaks at a step underlines the step's title.
    """

    rule_id: str
    message: str
    pointer: str = ""
    on_key: bool = False
    offset: tuple[int, int] | None = None
    span: tuple[int, int] | None = None
    trace: tuple[TraceStep, ...] = ()
    level: Level | None = None
    underline: str = ""

    def pointers(self) -> tuple[str, ...]:
        """Every pointer its region and trace are placed at (what :meth:`Document.prepare` needs)."""
        others = (self.underline, *(p for step in self.trace for p in (step.pointer, step.underline)))
        return (self.pointer, *(pointer for pointer in others if pointer))


class Region(Record):
    """A 1-based region; ``end_column`` is exclusive, columns count code points."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int


class LocatedTrace(Record):
    region: Region
    message: str
    pointer: str


class FixEdit(Record):
    """One replacement of a fix: bytes ``[start, end)`` of the file become ``content``.

    ``region`` is the same span in lines and code-point columns (1-based, end
    exclusive), for the reports that place edits on lines.
    """

    start: int
    end: int
    content: str
    region: Region


class Fix(Record):
    """A mechanical remedy for one finding: every edit applied together, to the bytes the file had when linted.

    ``applicability`` is ``"safe"`` (cannot change what the file means: applied by
    ``check --fix``) or ``"unsafe"`` (needs a reader's judgement: only with
    ``--unsafe-fixes``); ``title`` says what it does, in a few words.
    """

    applicability: str
    title: str
    edits: tuple[FixEdit, ...]

    @property
    def safe(self) -> bool:
        return self.applicability == "safe"


class Result(Record):
    """A finding placed in a file, ready for a reporter."""

    path: str
    rule_id: str
    level: Level
    message: str
    pointer: str
    region: Region
    #: The part of the offending source line around the region (the whole line when it is short).
    source_line: str = ""
    trace: tuple[LocatedTrace, ...] = ()
    #: A short hash of the offending JSON value: what a baseline matches on, instead of line numbers.
    value_hash: str = ""
    #: Why the finding is suppressed (a configured reason, or the baseline); ``None`` when it is not.
    suppressed: str | None = None
    #: The pointer with each array index replaced by what names the element (a scenario's id, a step's
    #: title), so that inserting an element above the finding leaves it unchanged; see :mod:`mechlint.run.adoption`.
    context: str = ""
    #: The 0-based index in the full line of ``source_line``'s first character.
    source_start: int = 0
    #: The fix of the rule that found it (:mod:`mechlint.fixes`), or ``None`` when it has no mechanical remedy.
    fix: Fix | None = None

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (
            self.path,
            self.region.start_line,
            self.region.start_column,
            self.rule_id,
            self.message,
        )


# What a mechanism shows, for a report that draws it (built by :func:`mechlint.document.story.story_of`).


class SourceStory(Record):
    pointer: str
    path: str
    sha256: str
    description: str


class TargetStory(Record):
    key: str
    kind: str
    label: str


class StateValue(Record):
    key: str
    label: str
    value: str
    changed: bool


class StepStory(Record):
    pointer: str
    title: str
    description: str
    #: Milliseconds on screen, or ``None`` when the file gives no usable duration.
    duration: int | None
    #: Milliseconds the text that appears in the step needs (``a11y/reading-time``'s measure, rounded up).
    reading: int
    active: tuple[str, ...]
    paths: tuple[str, ...]
    state: tuple[StateValue, ...]


class ScenarioStory(Record):
    pointer: str
    id: str
    title: str
    description: str
    steps: tuple[StepStory, ...]


class Story(Record):
    title: str
    description: str
    alt: str
    language: str
    sources: tuple[SourceStory, ...]
    targets: tuple[TargetStory, ...]
    scenarios: tuple[ScenarioStory, ...]

    def target(self, key: str) -> TargetStory | None:
        return next((t for t in self.targets if t.key == key), None)


class FileReport(Record):
    """All results of one file, and the information reporters need about it."""

    path: str
    uri: str
    results: tuple[Result, ...]
    #: SARIF's partial fingerprints by line; the default is shared, and no one changes a report's mapping.
    fingerprints: Mapping[int, str] = {}
    #: False for a file that was not checked but has findings about it (the configuration file).
    checked: bool = True
    #: What the mechanism shows, kept only when a report draws it (``lint(keep=Keep.STORIES)``).
    story: Story | None = None


class Notification(Record):
    """A problem of the tool rather than of a file (a rule that crashed)."""

    message: str
    rule_id: str
    path: str


class RuleInfo(Record):
    """What a reporter may say about a rule that ran, built-in or from configuration.

    The report carries one for every rule of the run, so that no reporter looks
    a rule up anywhere else. ``precision`` is how often a finding is a true
    problem (``very-high``, ``high``, ``medium``, ``low``), as code scanning reads it.
    """

    id: str
    level: Level
    summary: str
    description: str
    help_text: str
    help_markdown: str
    help_uri: str = ""
    tags: tuple[str, ...] = ()
    precision: str = "high"


class Report(Record):
    """The whole outcome of a run; reporters only format it."""

    files: tuple[FileReport, ...]
    files_checked: int
    notifications: tuple[Notification, ...] = ()
    #: Every rule that ran, in the order they ran.
    rules: tuple[RuleInfo, ...] = ()
    #: How many findings were suppressed (by configuration or the baseline), shown or not.
    suppressed: int = 0
    #: Why the run stopped before checking any file (configuration it cannot use); "" when it ran.
    stopped: str = ""

    @property
    def results(self) -> list[Result]:
        """The findings that count: every result not suppressed."""
        return [r for f in self.files for r in f.results if r.suppressed is None]

    @property
    def shown(self) -> list[Result]:
        """Every result in the report, suppressed ones included when they are shown."""
        return [r for f in self.files for r in f.results]

    def count(self, level: Level) -> int:
        return sum(1 for r in self.results if r.level is level)

    def worst(self) -> Level | None:
        levels = [r.level for r in self.results]
        return max(levels) if levels else None
