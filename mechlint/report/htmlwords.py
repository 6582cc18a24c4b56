"""The words of a folded storyboard, for the browser's find-in-page.

A folded file's storyboard is kept out of a large page as the text of a
``noscript`` element (``html.py``), which find-in-page does not search. Beside
it go the words a reader may look for (the title, alt text, sources, targets,
and each step's title, description and state), each part in a paragraph marked
``hidden="until-found"``: hidden and not laid out, but searched, and when a
search lands in one the browser fires ``beforematch`` at it, on which the page's
script builds the storyboard below that paragraph, which stays shown with the
browser's mark on the words and a button to their step (``html.js``). Each string is
written once per file. The findings' messages are not repeated here: every one
is a row of the index, which is always in the page and links to its place.
Without scripts the paragraphs are not shown at all (``html.css``): the
storyboard itself is then in the page, and searched.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from mechlint.report.escape import visible

if TYPE_CHECKING:
    from mechlint.model import Story

__all__ = ["anchor", "story_words"]

_ANCHOR_SAFE = re.compile(r"[^A-Za-z0-9_-]")


def anchor(pointer: str) -> str:
    """The id of a step's frame in its file's storyboard (``/scenarios/0/steps/1`` → ``-scenarios-0-steps-1``)."""
    return _ANCHOR_SAFE.sub("-", pointer)


def story_words(story: Story) -> str:
    """The storyboard's words, one hidden-until-found paragraph per part (``data-part``: the frame's id, or
    ``targets``, or empty for the file's head)."""
    seen: set[str] = set()

    def part(name: str, texts: list[str]) -> str:
        kept = [t for t in dict.fromkeys(t.strip() for t in texts) if t and t not in seen]
        seen.update(kept)
        if not kept:
            return ""
        return f'<p hidden="until-found" data-part="{name}">{" · ".join(escape(visible(t)) for t in kept)}</p>'

    out = [part("", [story.title, story.alt, *(x for s in story.sources for x in (s.path, s.description))])]
    out.append(part("targets", [x for t in story.targets for x in (t.key, t.label)]))
    for scenario in story.scenarios:
        heading = [scenario.title, scenario.id, scenario.description]
        for step in scenario.steps:
            state = [text for v in step.state for text in (v.label, v.value)]  # each word once: "Stage" is not repeated
            out.append(part(anchor(step.pointer), [*heading, step.title, step.description, *state]))
            heading = []
        out.append(part("", heading))  # a scenario without steps
    return f'<div class="words">{"".join(out)}</div>'
