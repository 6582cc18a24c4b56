"""A drifted source written for people and programs: a terminal (coloured like ``git diff``), JSON, Markdown.

Everything read (paths, file content, commit subjects) is untrusted: a
terminal or an editor gets it with every control character, escape sequence
and bidirectional override written as a backslash escape
(:func:`mechlint.report.escape.visible`), so a hostile source cannot move
the cursor, fake a line of the diff or reorder text. The JSON gives the text
as it is, in JSON strings (with the characters a terminal would act on
escaped, as every mechlint JSON output does).
"""

from __future__ import annotations

from typing import Any

from mechlint.provenance.paths import KEEP_BYTES
from mechlint.records import Record
from mechlint.report.escape import visible, visible_name
from mechlint.review.drift import DELETED, Drift
from mechlint.review.unified import Hunk, as_text, hunks, is_prose

__all__ = [
    "JSON_VERSION",
    "Cited",
    "Reviewed",
    "as_data",
    "as_markdown",
    "as_terminal",
    "diff_lines",
    "plain_diff",
    "review",
    "side_lines",
    "summary_lines",
]

JSON_VERSION = 1
NO_NEWLINE = "\\ No newline at end of file"
# the colours git diff uses: meta bold, hunk header cyan, removed red, added green; a changed part reversed
_BOLD, _CYAN, _RED, _GREEN, _REVERSE, _RESET = "\x1b[1m", "\x1b[36m", "\x1b[31m", "\x1b[32m", "\x1b[7m", "\x1b[m"


class Cited(Record):
    """Where a mechanism cites the source: the file (as the command names it) and the source's pointer."""

    file: str
    pointer: str


class Reviewed(Record):
    """A drifted source, the mechanisms that cite it, and its diff (``None`` when one side is not text)."""

    drift: Drift
    cited_by: tuple[Cited, ...]
    hunks: tuple[Hunk, ...] | None


def review(drift: Drift, cited_by: tuple[Cited, ...]) -> Reviewed:
    """``drift`` with its hunks: a text diff when both sides are text (a deleted file's other side is empty)."""
    old = as_text(drift.pinned)
    new = "" if drift.status == DELETED else as_text(drift.current)
    if old is None or new is None:
        return Reviewed(drift, cited_by, None)
    return Reviewed(drift, cited_by, tuple(hunks(old, new, prose=is_prose(drift.path))))


def old_name(drift: Drift) -> str:
    return f"a/{drift.pinned_path or drift.path}@{drift.commit[:12]}" if drift.commit else f"a/{drift.path}"


def new_name(drift: Drift) -> str:
    return "/dev/null" if drift.status == DELETED else f"b/{drift.current_path or drift.path}"


def _size(size: int | None) -> str:
    return "size unknown" if size is None else f"{size} byte{'s' if size != 1 else ''}"


def summary_lines(reviewed: Reviewed) -> list[str]:
    """The lines before the diff: the source, who cites it, where the pinned bytes are, what became of the file."""
    drift = reviewed.drift
    cited = ", ".join(f"{visible_name(c.file)} {visible(c.pointer)}" for c in reviewed.cited_by)
    lines = [f"source {visible_name(drift.path)} ({drift.status}), cited by {cited}"]
    if drift.commit:
        held = visible_name(drift.pinned_path or drift.path)
        lines.append(f"pinned bytes: commit {visible(drift.described)}, at {held}")
    if drift.why:
        lines.append(f"pinned bytes not shown: {visible(drift.why)}")
    if drift.gone:
        lines.append(f"now: {visible(drift.gone)}")
    return lines


def side_lines(reviewed: Reviewed) -> list[str]:
    """Sizes and digests, for a side that is not text (or not known)."""
    drift = reviewed.drift
    pinned = _size(len(drift.pinned)) if drift.pinned is not None else "not found"
    lines = [f"pinned: {pinned}, sha256 {drift.digest}"]
    if drift.status != DELETED:
        lines.append(f"now:    {_size(drift.current_size)}, sha256 {drift.current_digest}")
    if drift.pinned is not None and (drift.status == DELETED or drift.current is not None):
        lines.append("Binary files differ (not text: sizes and digests only)")
    elif drift.pinned is not None and drift.current is None:
        lines.append(f"Not diffed: the file is larger than the {KEEP_BYTES // 2**20} MiB mechlint keeps in memory")
    return lines


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color and code and text else text


def _body(line_text: str, changed: tuple[tuple[int, int], ...], code: str, color: bool) -> str:
    """A line's text made visible; on a terminal, its changed parts reversed within the line's colour."""
    if not color:
        return visible(line_text)
    if not changed or not code:
        return _paint(visible(line_text), code, True)
    out, at = [], 0
    for start, end in changed:
        out += [
            _paint(visible(line_text[at:start]), code, True),
            code + _REVERSE,
            visible(line_text[start:end]),
            _RESET,
        ]
        at = end
    out.append(_paint(visible(line_text[at:]), code, True))
    return "".join(out)


def as_terminal(reviewed: Reviewed, color: bool) -> str:
    """The diff of one source as ``git diff`` shows one file: bold headers, cyan hunks, red and green lines."""
    lines = [_paint(line, _BOLD, color) for line in summary_lines(reviewed)]
    if reviewed.hunks is None:
        lines += side_lines(reviewed)
        return "\n".join(lines) + "\n"
    drift = reviewed.drift
    lines.append(_paint(f"--- {visible_name(old_name(drift))}", _BOLD, color))
    lines.append(_paint(f"+++ {visible_name(new_name(drift))}", _BOLD, color))
    codes = {" ": "", "-": _RED, "+": _GREEN}
    for hunk in reviewed.hunks:
        lines.append(_paint(hunk.header, _CYAN, color))
        for line in hunk.lines:
            code = codes[line.op]
            lines.append(_paint(line.op, code, color) + _body(line.text, line.changed, code, color))
            if not line.eol:
                lines.append(NO_NEWLINE)
    return "\n".join(lines) + "\n"


#: What a line of a unified diff is: a header, a hunk's range, a line of both sides, of one, or git's note.
DiffLine = tuple[str, str, tuple[tuple[int, int], ...]]


def diff_lines(reviewed: Reviewed) -> list[DiffLine]:
    """The unified diff line by line: ``(kind, text, changed parts)``, kind ``meta``, ``hunk``, ``context``,
    ``del``, ``add`` or ``note``; the changed parts are offsets in ``text`` (after its sign). Empty when not text."""
    if reviewed.hunks is None:
        return []
    drift = reviewed.drift
    out: list[DiffLine] = [("meta", f"--- {old_name(drift)}", ()), ("meta", f"+++ {new_name(drift)}", ())]
    kinds = {" ": "context", "-": "del", "+": "add"}
    for hunk in reviewed.hunks:
        out.append(("hunk", hunk.header, ()))
        for line in hunk.lines:
            out.append((kinds[line.op], f"{line.op}{line.text}", tuple((a + 1, b + 1) for a, b in line.changed)))
            if not line.eol:
                out.append(("note", NO_NEWLINE, ()))
    return out


def plain_diff(reviewed: Reviewed) -> str | None:
    """The unified diff as text (no colour, nothing escaped), or ``None`` when there is no text diff."""
    if reviewed.hunks is None:
        return None
    return "".join(text + "\n" for _, text, _ in diff_lines(reviewed))


def as_data(reviewed: Reviewed) -> dict[str, Any]:
    """One source of ``mechlint diff --format json`` (the shape is documented in docs/json-format.md)."""
    drift = reviewed.drift
    current = None
    if drift.status != DELETED:
        current = {"path": drift.current_path, "sha256": drift.current_digest, "size": drift.current_size}
    return {
        "path": drift.path,
        "status": drift.status,
        "cited_by": [{"file": c.file, "pointer": c.pointer} for c in reviewed.cited_by],
        "pinned": {
            "sha256": drift.digest,
            "size": len(drift.pinned) if drift.pinned is not None else None,
            "found": drift.pinned is not None,
            "commit": drift.commit or None,
            "described": drift.described or None,
            "path": drift.pinned_path or None,
            "why": drift.why or None,
        },
        "current": current,
        "gone": drift.gone or None,
        "text": reviewed.hunks is not None,
        "diff": plain_diff(reviewed),
        "hunks": None if reviewed.hunks is None else [_hunk_data(h) for h in reviewed.hunks],
    }


def _hunk_data(hunk: Hunk) -> dict[str, Any]:
    return {
        "header": hunk.header,
        "old_start": hunk.old_start,
        "old_lines": hunk.old_lines,
        "new_start": hunk.new_start,
        "new_lines": hunk.new_lines,
        "lines": [
            {"op": line.op, "text": line.text, "eol": line.eol, "changed": [list(span) for span in line.changed]}
            for line in hunk.lines
        ],
    }


def as_markdown(reviewed: Reviewed) -> str:
    """For an editor's hover: the summary, then the diff in a fenced ``diff`` block (or sizes and digests)."""
    summary = summary_lines(reviewed)
    head = "\n\n".join(_escape_markdown(line) for line in summary)
    body = as_terminal(reviewed, color=False).split("\n", len(summary))[-1]
    fence = "`" * max(3, _longest_run(body, "`") + 1)
    return f"**What changed since the pin**\n\n{head}\n\n{fence}diff\n{body}{fence}\n"


def _escape_markdown(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_{}[]<>()#+-.!|~" else c for c in text)


def _longest_run(text: str, char: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest
