"""The HTML report's header (where, when and how the run was made) and the diff of a stale source, folded.

Both come from :class:`~mechlint.report.runfacts.RunFacts`, which only the
command line fills in; a report made without them (by the library) has the
version alone and no diffs. Everything is input, escaped as the rest of the
page escapes it.
"""

from __future__ import annotations

from html import escape

from mechlint.report.escape import visible
from mechlint.report.options import OutputOptions
from mechlint.report.runfacts import SourceDiff

__all__ = ["run_header", "source_diff"]


def _e(text: str) -> str:
    return escape(visible(text), quote=True)


def run_header(options: OutputOptions) -> str:
    """A definition list of the run: repository, branch, commit, time, mechlint version, configuration, command."""
    run = options.run
    rows = []
    if run is not None:
        rows += [("Repository", run.repository), ("Branch", run.branch)]
        rows.append(("Commit", run.commit[:12]))
    if options.tool_version:
        rows.append(("mechlint", options.tool_version))
    if run is not None:
        rows.append(("Configuration", run.config or "none (the defaults)"))
        rows.append(("Command", run.command))
    shown = "".join(
        f"<dt>{name}</dt><dd>{f'<code>{_e(value)}</code>' if name in ('Commit', 'Command') else _e(value)}</dd>"
        for name, value in rows
        if value
    )
    if run is not None and run.time:
        shown += f'<dt>Time</dt><dd><time datetime="{_e(run.time)}">{_e(run.time.replace("T", " "))}</time></dd>'
    return f'<dl class="run">{shown}</dl>' if shown else ""


def source_diff(diff: SourceDiff) -> str:
    """What changed in a source since its pin, folded: the summary, then the diff coloured by line (and signed)."""
    changes = _changes(diff) if diff.diff is not None else "not text: sizes and digests"
    summary = "".join(f"<p>{_e(line)}</p>" for line in diff.summary[1:])  # the first names the source: the row does
    if diff.diff is None:
        body = "<pre>" + "\n".join(_e(line) for line in diff.sides) + "</pre>"
    else:
        body = "<pre>" + "".join(_line(kind, text, marks) for kind, text, marks in diff.lines) + "</pre>"
    return (
        f'<details class="diff"><summary>What changed since the pin <span class="changes">({changes})</span></summary>'
        f"{summary}{_drawings(diff)}{body}</details>"
    )


def _drawings(diff: SourceDiff) -> str:
    """An SVG source's two versions side by side, and overlaid so that what changed lights up (both sanitised)."""
    before, after = diff.pinned_image, diff.current_image
    if not before.startswith("data:image/svg+xml;base64,") or not after.startswith("data:image/svg+xml;base64,"):
        return ""
    return (
        '<div class="drawings">'
        f'<figure><img src="{escape(before)}" alt="The drawing at the pin"><figcaption>At the pin</figcaption></figure>'
        f'<figure><img src="{escape(after)}" alt="The drawing now"><figcaption>Now</figcaption></figure>'
        f'<figure><div class="overlay"><img src="{escape(before)}" alt=""><img src="{escape(after)}" alt=""></div>'
        "<figcaption>Both overlaid: what changed is light, what stayed is black</figcaption></figure></div>"
    )


def _changes(diff: SourceDiff) -> str:
    added = sum(1 for kind, _, _ in diff.lines if kind == "add")
    removed = sum(1 for kind, _, _ in diff.lines if kind == "del")
    return f"{added} line{'' if added == 1 else 's'} added, {removed} removed"


_KINDS = frozenset({"meta", "hunk", "add", "del", "note"})


def _line(kind: str, text: str, marks: tuple[tuple[int, int], ...]) -> str:
    """One line of the diff, its changed parts (the sentence or word) marked; the line end inside its span."""
    parts, at = [], 0
    for start, end in marks:
        if at <= start < end <= len(text):
            parts += [_e(text[at:start]), "<mark>", _e(text[start:end]), "</mark>"]
            at = end
    parts.append(_e(text[at:]))
    shown = "".join(parts) or " "
    return f'<span class="{kind}">{shown}\n</span>' if kind in _KINDS else f"{shown}\n"
