"""The HTML report at a glance: one table of every finding, and the counts that the filters keep up to date.

The table comes right after the totals: a row per finding (level,
``file:line``, rule, message), worst first, each linking to the finding in
its storyboard (``#finding-FILE-K``). Every count on the page is written by
:func:`tally` here and carries what it counts in ``data-`` attributes, so the
page's script recounts it the same way when a filter hides findings; without
the script the counts are those of the whole report.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from mechlint.model import Level, Result
from mechlint.report.escape import visible, visible_name

if TYPE_CHECKING:
    from mechlint.model import FileReport

__all__ = ["LEVELS", "anchor_of", "findings_index", "tally", "tally_span"]

LEVELS = (Level.ERROR, Level.WARNING, Level.NOTE)
#: The index's rows come in bodies of this many: a body off screen is not laid out (``content-visibility`` in
#: ``html.css``), and a few dozen bodies cost the browser less to watch than thousands of rows. ``--rows`` says how
#: many rows a body shows, for the height it is given while off screen; the script keeps it up to date.
CHUNK = 100


def anchor_of(file_number: int, index: int) -> str:
    """The id of a finding in its storyboard: the ``index``-th result of the ``file_number``-th file."""
    return f"finding-{file_number}-{index}"


def tally(results: Iterable[Result], empty: str = "no findings") -> str:
    """``2 errors, 1 warning``: the findings by level, worst first (``empty`` when there are none)."""
    counts = Counter(r.level for r in results)
    words = [f"{counts[level]} {level.label}{'' if counts[level] == 1 else 's'}" for level in LEVELS if counts[level]]
    return ", ".join(words) or empty


def tally_span(results: Sequence[Result], empty: str = "no findings") -> str:
    """:func:`tally` in a span the script recounts from the findings its section holds (``data-empty``: the word
    for none)."""
    return f'<span class="tally" data-empty="{escape(empty, quote=True)}">{escape(tally(results, empty))}</span>'


def _row(file_number: int, file: FileReport, index: int, result: Result, links: dict[str, str]) -> str:
    level = result.level.label
    where = f"{visible_name(file.path)}:{result.region.start_line}"
    uri = links.get(result.rule_id, "")
    rule = escape(visible(result.rule_id), quote=True)
    if uri.lower().startswith(("https://", "http://")):
        rule = f'<a href="{escape(visible(uri), quote=True)}">{rule}</a>'
    # as few elements and attributes as a row can have: thousands of rows are most of what a large page builds
    return (
        f'<tr data-level="{level}" data-rule="{escape(visible(result.rule_id), quote=True)}" data-file="{file_number}"'
        f' data-line="{result.region.start_line}"{" data-suppressed" if result.suppressed else ""}>'
        f'<td class="badge-{level}">{level}</td>'
        f'<td class="at"><a href="#{anchor_of(file_number, index)}">{escape(where, quote=True)}</a></td>'
        f'<td class="rule">{rule}</td><td>{escape(visible(result.message), quote=True)}</td></tr>'
    )


def findings_index(files: Sequence[FileReport], links: dict[str, str]) -> str:
    """The table of every finding of ``files`` (numbered as the page numbers them), worst first."""
    rows = [
        (-int(result.level), file.path, result.region.start_line, n, k, result)
        for n, file in enumerate(files)
        for k, result in enumerate(file.results)
    ]
    rows.sort(key=lambda row: row[:5])
    cells = [_row(n, files[n], k, result, links) for _, _, _, n, k, result in rows]
    body = "".join(
        f'<tbody style="--rows:{len(cells[at : at + CHUNK])}">{"".join(cells[at : at + CHUNK])}</tbody>'
        for at in range(0, len(cells), CHUNK)
    )
    everything = [row[5] for row in rows]
    heading = f'<h2 id="index">Every finding <span class="count">({tally_span(everything)})</span></h2>'
    if not rows:
        return f'<section class="index" aria-labelledby="index">{heading}<p>No findings.</p></section>'
    return (
        f'<section class="index" aria-labelledby="index">{heading}'
        '<div class="table-wrap"><table class="findings-index"><caption>Worst first; select a column to sort by it'
        '</caption><thead><tr><th scope="col" data-sort="rank">Level</th><th scope="col" data-sort="at">Where</th>'
        '<th scope="col" data-sort="rule">Rule</th><th scope="col" data-sort="message">Message</th></tr></thead>'
        f"{body}</table></div>"
        '<p class="none-shown" hidden>No finding matches the filters.</p></section>'
    )
