"""What a mechanism shows, as plain values: the storyboard an HTML report draws.

:func:`story_of` reads a parsed mechanism defensively (it may break the
schema) and keeps only what a reviewer looks at: the title and alt text, the
sources, the targets, and each scenario's steps with the state values that
change and the time their text needs to be read. Nothing here decides
whether something is wrong; the rules do that, and their findings are placed
on the story by JSON pointer.
"""

from __future__ import annotations

import math
from typing import Any

from mechlint.document.views import as_object, items, members
from mechlint.model import ScenarioStory, SourceStory, StateValue, StepStory, Story, TargetStory

#: The reading rate and floor of ``a11y/reading-time`` (its defaults), used when a run does not say.
DEFAULT_RATE = 17.0
DEFAULT_MINIMUM = 1.0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _keys(value: Any) -> tuple[str, ...]:
    return tuple(item for _, item, _ in items(value, "") if isinstance(item, str))


def shown_text(step: dict[str, Any], previous: dict[str, Any]) -> list[str]:
    """The pieces of text a reader has to read in ``step`` (what ``a11y/reading-time`` counts)."""
    title = step.get("title")
    title = title.strip() if isinstance(title, str) else None
    pieces = []
    if isinstance(step.get("description"), str):
        pieces.append(step["description"].strip())
    state = as_object(step.get("state")) or {}
    for key, value in state.items():
        if not isinstance(value, str) or value == previous.get(key):
            continue
        if value.strip() and value.strip() != title:
            pieces.append(value.strip())
    return pieces


def reading_milliseconds(step: dict[str, Any], previous: dict[str, Any], rate: float, minimum: float) -> int:
    """What ``a11y/reading-time`` measures: the step's new text at ``rate`` characters a second."""
    characters = sum(len(" ".join(piece.split())) for piece in shown_text(step, previous))
    return math.ceil(max(minimum, characters / rate) * 1000)


def story_of(data: Any, rate: float = DEFAULT_RATE, minimum: float = DEFAULT_MINIMUM) -> Story:
    """The storyboard of a parsed mechanism; parts of the wrong shape are left out."""
    root = as_object(data) or {}
    labels = {key: _text(value) for key, value, _ in members(root.get("stateLabels"), "")}
    sources = tuple(
        SourceStory(pointer, _text(source.get("path")), _text(source.get("sha256")), _text(source.get("description")))
        for _, source, pointer in items(root.get("sources"), "/sources")
        if isinstance(source, dict)
    )
    targets = tuple(
        TargetStory(key, _text(target.get("kind")), _text(target.get("label")))
        for key, target, _ in members(root.get("targets"), "/targets")
        if isinstance(target, dict)
    )
    scenarios = []
    for _, scenario, pointer in items(root.get("scenarios"), "/scenarios"):
        if not isinstance(scenario, dict):
            continue
        previous: dict[str, Any] = as_object(scenario.get("initial")) or {}
        steps = []
        for _, step, step_pointer in items(scenario.get("steps"), pointer + "/steps"):
            if not isinstance(step, dict):
                continue
            state = as_object(step.get("state")) or {}
            values = tuple(
                StateValue(key, labels.get(key, key), _text(value), value != previous.get(key))
                for key, value in state.items()
            )
            duration = step.get("duration")
            usable = isinstance(duration, int) and not isinstance(duration, bool) and duration > 0
            steps.append(
                StepStory(
                    pointer=step_pointer,
                    title=_text(step.get("title")),
                    description=_text(step.get("description")),
                    duration=duration if usable else None,
                    reading=reading_milliseconds(step, previous, rate, minimum),
                    active=_keys(step.get("active")),
                    paths=_keys(step.get("paths")),
                    state=values,
                )
            )
            previous = state or previous
        scenarios.append(
            ScenarioStory(
                pointer,
                _text(scenario.get("id")),
                _text(scenario.get("title")),
                _text(scenario.get("description")),
                tuple(steps),
            )
        )
    return Story(
        title=_text(root.get("title")),
        description=_text(root.get("description")),
        alt=_text(root.get("alt")),
        language=_text(root.get("language")),
        sources=sources,
        targets=targets,
        scenarios=tuple(scenarios),
    )
