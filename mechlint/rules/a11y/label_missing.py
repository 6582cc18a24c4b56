"""Reports a target whose ``label`` is empty, only white space, or shows nothing at all.

The label is the visible name of a box or arrow and the name a screen reader
announces for it. A label of white space alone (a space, an em space) or of
characters that draw nothing (a control character such as U+001F, a
zero-width space) names nothing: the message says which it is and names the
characters by code point and Unicode name, so that an author can find what
the editor does not show.
"""

from __future__ import annotations

from collections.abc import Iterator

from mechlint.document import Document
from mechlint.document.jsonscan import pointer_join
from mechlint.document.views import quote, targets
from mechlint.model import Finding, Level
from mechlint.rules import Example, RuleContext, RuleMeta
from mechlint.text.charnames import described, is_invisible, is_white_space

META = RuleMeta(
    id="a11y/label-missing",
    level=Level.ERROR,
    summary="A target's `label` is empty, only white space, or has no visible character.",
    why=(
        "Every part of the diagram needs a name that is shown and announced "
        "(WCAG 2.2, 1.1.1 and 4.1.2 Name, Role, Value)."
    ),
    location="the target's `label`",
    examples=(
        Example(fires=True, where="/targets/a0/label", json='""'),
        Example(fires=False, where="/targets/a0/label", json='"A block 0"'),
    ),
    tags=("accessibility",),
)


def check(document: Document, context: RuleContext) -> Iterator[Finding]:
    for key, target in targets(document.data).items():
        label = target.get("label")
        if not isinstance(label, str) or not all(is_invisible(char) for char in label):
            continue
        if not label:
            what = "an empty label"
        else:
            names = ", ".join(described(char) for char in list(dict.fromkeys(label))[:3])
            more = ", …" if len(set(label)) > 3 else ""
            kind = "of only white space" if all(is_white_space(char) for char in label) else "with no visible character"
            what = f"a label {kind} ({names}{more})"
        yield META.finding(
            pointer_join(pointer_join("/targets", key), "label"),
            f"the target {quote(key)} has {what}; name what the box or arrow is",
        )
