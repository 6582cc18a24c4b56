"""A self-contained HTML review report: the run, totals, every finding at a glance, then each mechanism as a storyboard.

One file, with its style and a small script inline and nothing fetched from
the network (images only from ``data:`` URIs). Without the script everything
is shown and counted whole; the script filters findings by level and rule
(hiding files and scenarios left with none, and recounting every count),
sorts the index of findings, plays a scenario step by step, and folds or
unfolds every file at once. A run of more than :data:`FOLD_ABOVE` files starts
folded, and a folded file's storyboard is kept out of the page (noscript text,
see :func:`_later`) until it is unfolded, so that a report of thousands of
files opens fast (``benchmarks/html_report.py``); its words stay findable
(:mod:`~mechlint.report.htmlwords`). The script comes right after the index, so
that the filters work while the files are still arriving. The header and the
index are :mod:`~mechlint.report.htmlrun` and :mod:`~mechlint.report.htmlindex`. Each
file is a section whose findings are placed where they point: at a step's
frame, a target, a source (with its diff since the pin when it changed), or
the file as a whole. The page follows its own
subject's bar: landmarks, headings in order, text contrast of at least 4.5:1,
and no information by colour alone (every level, kind and change is also a
word).

Text from input is escaped twice over: first made visible as
:mod:`mechlint.report.escape` does it (HTML text cannot hold most control
characters, lone surrogates or noncharacters, and a bidirectional override
would reorder the page), file names with backslashes doubled so they name one
file (``bad\\x1b.json``), then HTML-escaped (``&lt;``, ``&amp;``, ``&quot;``).

Long: the page is one template written as small functions, one per part (totals, filters, storyboards,
findings); its style and script are the files beside it.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from html import escape
from importlib import resources
from typing import TYPE_CHECKING

from mechlint.model import Report, Result
from mechlint.report.escape import visible, visible_name
from mechlint.report.htmlindex import LEVELS, anchor_of, findings_index, tally_span
from mechlint.report.htmlrun import run_header, source_diff
from mechlint.report.htmlwords import anchor, story_words
from mechlint.report.options import OutputOptions

if TYPE_CHECKING:
    from mechlint.model import FileReport, ScenarioStory, StepStory, Story
    from mechlint.report.runfacts import SourceDiff

#: More files than this and each file starts folded.
FOLD_ABOVE = 10
_LEVELS = LEVELS
_STATE = '<dl class="state">{}</dl>'
_STEP = re.compile(r"^(/scenarios/\d+/steps/\d+)(?:/|$)")
_SCENARIO = re.compile(r"^(/scenarios/\d+)(?:/|$)")
_SOURCE = re.compile(r"^(/sources/\d+)(?:/|$)")
_TARGET = re.compile(r"^(/targets/[^/]+)(?:/|$)")
#: What a source's provenance finding says about it, in a word or two.
_SOURCE_STATUS = {
    "provenance/unsafe-path": "unsafe path",
    "provenance/missing-source": "missing",
    "provenance/digest-mismatch": "digest mismatch",
    "provenance/stale-source": "stale",
    "provenance/frozen-copy-mismatch": "frozen copy mismatch",
    "provenance/frozen-resolved": "frozen",
    "provenance/gone-source": "gone",
    "provenance/history-unavailable": "history unavailable",
    "provenance/unpinned-source": "unpinned",
}


@functools.cache
def _asset(name: str) -> str:
    """The report's own style or script, shipped beside this module."""
    return (resources.files("mechlint.report") / name).read_text(encoding="utf-8")


def _e(text: object) -> str:
    """Text from input, made visible and HTML-escaped (for text and for quoted attribute values)."""
    return escape(visible(str(text)), quote=True)


def _name(path: str) -> str:
    """A file name, made visible one for one (backslashes doubled) and HTML-escaped."""
    return escape(visible_name(path), quote=True)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _seconds(milliseconds: int, up: bool = False) -> str:
    """Tenths of a second; ``up`` rounds up, as ``a11y/reading-time`` does for the time a text needs."""
    return f"{(math.ceil(milliseconds / 100) / 10 if up else milliseconds / 1000):.1f} s"


class _Placed:
    """The findings of one file, sorted by the part of the story they point at."""

    def __init__(self, results: tuple[Result, ...], links: dict[str, str], number: int = 0) -> None:
        self.links = links
        #: Each finding's id in the page (by identity: two equal findings are two rows of the index).
        self.anchors = {id(result): anchor_of(number, k) for k, result in enumerate(results)}
        self.by_part: dict[str, list[Result]] = {}
        self.file: list[Result] = []
        for result in results:
            part = next(
                (m.group(1) for p in (_STEP, _SOURCE, _TARGET, _SCENARIO) if (m := p.match(result.pointer))), None
            )
            if part is None:
                self.file.append(result)
            else:
                self.by_part.setdefault(part, []).append(result)

    def at(self, pointer: str) -> list[Result]:
        return self.by_part.get(pointer, [])

    def shown(self, results: list[Result]) -> str:
        """The findings as a list, each linked to its rule's documentation."""
        return _findings(results, self.links, self.anchors)

    def claim_unplaced(self, known: set[str]) -> None:
        """Findings whose part the story does not show (a malformed step) go to the file level."""
        for part in [p for p in self.by_part if p not in known]:
            self.file.extend(self.by_part.pop(part))
        self.file.sort(key=Result.sort_key)


def _finding(result: Result, links: dict[str, str], anchors: dict[int, str]) -> str:
    region = result.region
    level = result.level.label
    trace = ""
    if result.trace:
        steps = "".join(f"<li>line {s.region.start_line}: {_e(s.message)}</li>" for s in result.trace)
        trace = (
            f'<details class="trace"><summary>Trace ({len(result.trace)} places)</summary><ol>{steps}</ol></details>'
        )
    suppressed = f' <span class="badge">suppressed: {_e(result.suppressed)}</span>' if result.suppressed else ""
    return (
        f'<li class="finding level-{level}" id="{anchors.get(id(result), "")}" data-level="{level}"'
        f' data-rule="{_e(result.rule_id)}">'
        f'<span class="badge badge-{level}">{level}</span> '
        f"{_rule_link(result.rule_id, links)} "
        f'<span class="where">line {region.start_line}, column {region.start_column}</span>'
        f'<p class="message">{_e(result.message)}{suppressed}</p>{trace}</li>'
    )


def _rule_link(rule_id: str, links: dict[str, str]) -> str:
    uri = links.get(rule_id, "")
    if not uri.lower().startswith(("https://", "http://")):  # no javascript: or data: link from a report built by hand
        return f'<span class="rule">{_e(rule_id)}</span>'
    return f'<a class="rule" href="{_e(uri)}">{_e(rule_id)}</a>'


def _findings(results: list[Result], links: dict[str, str], anchors: dict[int, str]) -> str:
    if not results:
        return ""
    return '<ul class="findings">' + "".join(_finding(r, links, anchors) for r in results) + "</ul>"


def _source_status(results: list[Result], pinned: bool, checked: bool) -> str:
    words = [_SOURCE_STATUS[r.rule_id] for r in results if r.rule_id in _SOURCE_STATUS]
    if words:
        return ", ".join(dict.fromkeys(words))
    if not checked:
        return "not checked"
    return "ok" if pinned else "unpinned"


def _sources(story: Story, placed: _Placed, provenance: bool, diffs: dict[str, SourceDiff]) -> str:
    if not story.sources:
        return ""
    rows = []
    for source in story.sources:
        results = placed.at(source.pointer)
        status = _source_status(results, bool(source.sha256), provenance)
        digest = f"<code>{_e(source.sha256[:12])}…</code>" if source.sha256 else "none"
        rows.append(
            f"<tr><td><code>{_name(source.path)}</code><br>{_e(source.description)}</td>"
            f'<td>{digest}</td><td><span class="status">{_e(status)}</span>{placed.shown(results)}</td></tr>'
        )
        if source.pointer in diffs:
            rows.append(f'<tr class="diff-row"><td colspan="3">{source_diff(diffs[source.pointer])}</td></tr>')
    return (
        '<h3>Sources</h3><div class="table-wrap"><table class="sources"><thead><tr><th scope="col">Path</th>'
        '<th scope="col">Pinned sha256</th><th scope="col">Provenance</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _targets(story: Story, placed: _Placed) -> str:
    rows = []
    held: list[Result] = []
    for target in story.targets:
        results = placed.at(f"/targets/{_pointer_token(target.key)}")
        held += results
        mark, word = _kind(target.kind)
        rows.append(
            f"<tr><td><code>{_e(target.key)}</code></td><td{mark}>{word}</td>"
            f"<td>{_e(target.label)}{placed.shown(results)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        f'<details class="targets"><summary>Targets ({len(rows)}) — {tally_span(held)}</summary>'
        '<table><thead><tr><th scope="col">Key</th><th scope="col">Kind</th><th scope="col">Label</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def _pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _kind(kind: str) -> tuple[str, str]:
    """The class of a cell or item that names a target's kind (its mark, ■ or →, is the style's), and the word."""
    if kind in ("edge", "node"):
        return f' class="{kind}"', kind
    return "", _e(kind or "unknown kind")


def _lit(story: Story, keys: tuple[str, ...], expected: str) -> list[str]:
    out = []
    for key in keys:
        target = story.target(key)
        kind = target.kind if target else ""
        label = f" {_e(target.label)}" if target and target.label else ""
        missing = "" if target else " <em>(not a target)</em>"
        mismatch = f" <em>(a {kind}, expected a {expected})</em>" if target and kind and kind != expected else ""
        mark, word = _kind(kind or expected)
        out.append(f"<li{mark}>{word} <code>{_e(key)}</code>{label}{missing}{mismatch}</li>")
    return out


def _reading_bar(step: StepStory) -> str:
    if step.duration is None:
        return (
            f'<p class="timing">Needs {_seconds(step.reading, up=True)} to read; the step has no usable duration.</p>'
        )
    longest = max(step.duration, step.reading, 1)
    short = step.duration < step.reading
    verdict = "too short to read" if short else "long enough to read"
    return (
        f'<div class="timing{" short" if short else ""}">'
        f"<p>Shown {_seconds(step.duration)}, needs {_seconds(step.reading, up=True)} to read: "
        f"<strong>{'⚠ ' if short else ''}{verdict}</strong></p>"
        # the two bars are the style's (html.css), their lengths these two properties: an element, not three, a step
        f'<div class="bars" style="--shown:{100 * step.duration / longest:.0f}%;'
        f'--needed:{100 * step.reading / longest:.0f}%"></div></div>'
    )


def _frame(number: int, step: StepStory, story: Story, placed: _Placed) -> str:
    lit = _lit(story, step.active, "node") + _lit(story, step.paths, "edge")
    lit_html = f'<ul class="lit" aria-label="Lit targets">{"".join(lit)}</ul>' if lit else "<p>Lights nothing.</p>"
    state = "".join(
        f"<dt>{_e(v.label)}</dt>"
        + (f'<dd class="changed">{_e(v.value)} <b>changed</b></dd>' if v.changed else f"<dd>{_e(v.value)}</dd>")
        for v in step.state
    )
    results = placed.at(step.pointer)
    flag = f' <span class="count">({_plural(len(results), "finding")})</span>' if results else ""
    return (
        f'<li class="frame{" has-findings" if results else ""}" id="{_e(anchor(step.pointer))}"'
        f' data-duration="{step.duration if step.duration is not None else 0}">'
        f"<h4>Step {number}: {_e(step.title) or '<em>untitled</em>'}{flag}</h4>"
        f"<p>{_e(step.description)}</p>"
        f"{lit_html}"
        f"{_STATE.format(state) if state else ''}"
        f"{_reading_bar(step)}{placed.shown(results)}</li>"
    )


def _scenario(scenario: ScenarioStory, story: Story, placed: _Placed) -> str:
    frames = "".join(_frame(n, step, story, placed) for n, step in enumerate(scenario.steps, start=1))
    name = scenario.title or scenario.id or "untitled scenario"
    ident = f" <code>{_e(scenario.id)}</code>" if scenario.id and scenario.title else ""
    return (
        f'<section class="scenario"><h3>Scenario: {_e(name)}{ident}</h3>'
        f"<p>{_e(scenario.description)}</p>{placed.shown(placed.at(scenario.pointer))}"
        f'<ol class="frames">{frames}</ol></section>'
    )


def _known_parts(story: Story) -> set[str]:
    known = {s.pointer for s in story.sources}
    known |= {f"/targets/{_pointer_token(t.key)}" for t in story.targets}
    for scenario in story.scenarios:
        known.add(scenario.pointer)
        known |= {step.pointer for step in scenario.steps}
    return known


def _file_section(
    number: int, file: FileReport, open_: bool, provenance: bool, links: dict[str, str], diffs: dict[str, SourceDiff]
) -> str:
    placed = _Placed(file.results, links, number)
    story = file.story
    body = []
    if story is not None:
        placed.claim_unplaced(_known_parts(story))
    else:
        placed.claim_unplaced(set())
    tally = tally_span(file.results)
    heading = f'<h2 id="file-{number}"><code>{_name(file.path)}</code> <span class="count">({tally})</span></h2>'
    if story is not None:
        title = f'<p class="title"><strong>{_e(story.title) or "<em>no title</em>"}</strong></p>'
        alt = f'<p><span class="label">Alt text:</span> {_e(story.alt) or "<em>none</em>"}</p>'
        body.append(title + alt)
    if placed.file:
        body.append("<h3>About the whole file</h3>" + placed.shown(placed.file))
    if story is not None:
        body.append(_sources(story, placed, provenance, diffs))
        body.append(_targets(story, placed))
        body.extend(_scenario(s, story, placed) for s in story.scenarios)
    inside = "".join(body)
    if not open_:
        inside = _later(inside, story)
    state = " open" if open_ else ""
    return (
        f'<section class="file" aria-labelledby="file-{number}">{heading}'
        f'<details class="fold"{state}><summary>Findings and storyboard — {tally_span(file.results)}</summary>'
        f"{inside}</details></section>"
    )


def _later(inside: str, story: Story | None) -> str:
    """A folded file's storyboard, kept out of the page until it is unfolded, and its words for find-in-page.

    With scripts on, Chromium (as every browser) reads a ``noscript`` element's content as plain text: no elements,
    no style, no layout, however long it is; ``html.js`` turns that text into elements when the file is unfolded.
    Without scripts it is the storyboard, shown as it is. Every ``<`` from input is escaped, so nothing in it can
    end the element early; if something did, the storyboard stays in the page as it is. Find-in-page does not search
    a noscript's text: the storyboard's words go beside it, hidden until found (:mod:`~mechlint.report.htmlwords`).
    """
    if "</noscript" in inside.lower():
        return inside
    return f'<noscript class="later">{inside}</noscript>' + (story_words(story) if story is not None else "")


def _totals(report: Report, files: list[FileReport]) -> str:
    """The counts of the run, each marked with what it counts, so that the filters recount it (``html.js``)."""
    results = report.results
    by_level = Counter(r.level for r in results)
    by_family = Counter(r.rule_id.split("/", 1)[0] for r in results)
    level_rows = "".join(
        f'<tr><th scope="row">{level.label}</th><td data-count-level="{level.label}">{by_level[level]}</td></tr>'
        for level in _LEVELS
    )
    family_rows = "".join(
        f'<tr><th scope="row">{_e(f)}</th><td data-count-family="{_e(f)}">{n}</td></tr>'
        for f, n in sorted(by_family.items())
    )
    worst = [(n, f) for n, f in enumerate(files) if f.results][:10]
    worst_items = "".join(
        f'<li data-file-item="{n}"><a href="#file-{n}"><code>{_name(f.path)}</code></a>: '
        f'<span data-count-file="{n}">{len(f.results)}</span> finding{"" if len(f.results) == 1 else "s"}</li>'
        for n, f in worst
    )
    return (
        '<section aria-labelledby="totals"><h2 id="totals">Totals</h2>'
        f"<p>{_plural(report.files_checked, 'file')} checked, <span data-count-all>{len(results)}</span> "
        f"finding{'' if len(results) == 1 else 's'}"
        f"{f', {report.suppressed} suppressed' if report.suppressed else ''}.</p>"
        '<div class="tables"><table><caption>By level</caption><tbody>' + level_rows + "</tbody></table>"
        "<table><caption>By family</caption><tbody>"
        + (family_rows or '<tr><td colspan="2">none</td></tr>')
        + "</tbody></table></div>"
        + (f"<h3>Files with the most findings</h3><ol>{worst_items}</ol>" if worst_items else "")
        + "</section>"
    )


def _filters(report: Report) -> str:
    rules = sorted({r.rule_id for f in report.files for r in f.results})
    options = "".join(f'<option value="{_e(r)}">{_e(r)}</option>' for r in rules)
    boxes = "".join(
        f'<label><input type="checkbox" name="level" value="{level.label}" checked> {level.label}s</label>'
        for level in _LEVELS
    )
    return (
        '<form class="filters" aria-label="Filter findings" hidden>'
        f"<fieldset><legend>Levels</legend>{boxes}</fieldset>"
        '<label>Rule <select name="rule"><option value="">every rule</option>' + options + "</select></label> "
        '<button type="button" data-fold="open">Unfold every file</button> '
        '<button type="button" data-fold="close">Fold every file</button>'
        '<p role="status" aria-live="polite" class="shown-count"></p></form>'
    )


def render(report: Report, options: OutputOptions) -> str:
    files = sorted(report.files, key=lambda f: (-len(f.results), f.path))
    fold_open = len(files) <= FOLD_ABOVE
    provenance = any(rule.id.startswith("provenance/") for rule in report.rules)
    links = {rule.id: rule.help_uri for rule in report.rules}
    by_file: dict[str, dict[str, SourceDiff]] = {}
    for diff in options.run.diffs if options.run is not None else ():
        by_file.setdefault(diff.file, {})[diff.pointer] = diff
    sections = "".join(
        _file_section(n, f, fold_open, provenance, links, by_file.get(f.path, {})) for n, f in enumerate(files)
    )
    notices = "".join(
        f"<li>internal error in {_e(n.rule_id)} on <code>{_name(n.path)}</code></li>" for n in report.notifications
    )
    version = f" {_e(options.tool_version)}" if options.tool_version else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>mechlint review report</title><style>{_asset('html.css')}</style></head><body>"
        '<a class="skip" href="#main">Skip to the findings</a>'
        f"<header><h1>mechlint review report</h1>{run_header(options) or f'<p>Made by mechlint{version}.</p>'}"
        "</header>"
        f'<main id="main">{_totals(report, files)}{_filters(report)}{findings_index(files, links)}'
        # the script right after the index: the filters work while the files below are still arriving
        f"<script>{_asset('html.js')}</script>"
        + (
            f'<section aria-labelledby="notices"><h2 id="notices">Internal errors</h2><ul>{notices}</ul></section>'
            if notices
            else ""
        )
        + f'<div class="files" style="--files:{len(files)}">{sections}</div></main>'
        "<footer><p>Levels, kinds and changes are written out as words; colours only repeat them.</p></footer>"
        "</body></html>\n"
    )
