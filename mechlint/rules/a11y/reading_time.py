"""Reports a step whose duration is too short to read what appears in it.

The text that appears in a step is its ``description`` plus each ``state``
value that differs from the previous step's value (for the first step, from
the scenario's ``initial``), leaving out a value equal to the step's title.
Reading it takes its number of characters divided by the rate (17 characters
per second by default, the common norm for adult subtitles), and at least the
minimum (1 second). The message says how long the text needs and how long
the step has.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.story import shown_text
from mechlint.document.views import as_object, quote, scenarios, steps
from mechlint.model import Finding, Level
from mechlint.records import Record
from mechlint.rules import Example, Option, RuleContext, RuleMeta

META = RuleMeta(
    id="a11y/reading-time",
    level=Level.WARNING,
    summary="A step's duration is too short to read the text that appears in it.",
    why=(
        "People who read slowly, read in a second language or use a screen reader need time for each "
        "step (WCAG 2.2, 2.2.1 Timing Adjustable). Subtitle guidelines for adults use about 17 characters "
        "per second, and no caption for less than a second."
    ),
    location="the step's `duration`",
    options=(
        Option("characters-per-second", "number", 17, "the reading rate", minimum=1),
        Option("minimum-seconds", "number", 1, "the least time any step needs", minimum=0),
    ),
    examples=(
        Example(fires=True, where="/scenarios/0/steps/0/duration", json="1200"),
        Example(fires=False, where="/scenarios/0/steps/0/duration", json="4000"),
    ),
    tags=("accessibility",),
)


class Shortfall(Record):
    """A step too short to read: where its duration is, and what the text needs."""

    pointer: str  # the step's ``duration``
    name: str  # the step's title, quoted, or "this step"
    characters: int
    duration: int  # ms
    needed: float  # seconds, rounded up to a tenth

    @property
    def least(self) -> int:
        """The least readable duration, in ms (what the message advises and the fix writes)."""
        return round(self.needed * 1000)


def shortfalls(document: Document, context: RuleContext) -> Iterator[Shortfall]:
    """Every step whose duration is shorter than its text needs, in document order."""
    rate = float(context.options["characters-per-second"])
    minimum = float(context.options["minimum-seconds"])
    for _, scenario, pointer in scenarios(document.data):
        previous = as_object(scenario.get("initial")) or {}
        for _, step, step_pointer in steps(scenario, pointer):
            characters = sum(len(" ".join(piece.split())) for piece in shown_text(step, previous))
            previous = as_object(step.get("state")) or previous
            duration = step.get("duration")
            if isinstance(duration, bool) or not isinstance(duration, int) or duration <= 0:
                continue
            exact = max(minimum, characters / rate)
            if duration < exact * 1000:  # in ms: an integer of any length compares with a float
                name = quote(step["title"]) if isinstance(step.get("title"), str) else "this step"
                yield Shortfall(step_pointer + "/duration", name, characters, duration, math.ceil(exact * 10) / 10)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    rate = float(context.options["characters-per-second"])
    for short in shortfalls(document, context):
        yield META.finding(
            short.pointer,
            f"{short.name} needs {short.needed:.1f} s to read ({short.characters} characters at {rate:g} per "
            f"second), has {short.duration / 1000:.1f} s; make it at least {short.least} ms or show less text",
        )
