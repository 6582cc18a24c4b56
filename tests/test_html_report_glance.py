"""The HTML report, round 2 (issue 27, point 2): at a glance first, folded sections that say what they hold, a header
of the run, stale sources' diffs inline, and a page that fits 390 px.

The page is made by ``mechlint check -o html:FILE`` in a git repository built
here (the example content, committed, then its article edited: a stale
source), and read as text and, where behaviour is the point, in Chromium.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from mechlint.document.story import story_of
from mechlint.model import FileReport, Level, Region, Report, Result
from mechlint.report import OutputOptions, reporter
from mechlint.report.runfacts import RunFacts, SourceDiff

from .gitrepo import commit, git, init
from .test_html_report import AXE, CHROMIUM, _open, _playwright

ROOT = Path(__file__).resolve().parent.parent
POST = "content/blog/2026-06-11_life-of-a-request-vllm/post.md"
MECHANISM = "content/blog/2026-06-11_life-of-a-request-vllm/mechanisms/prefix-cache.json"
OLD_TAIL = "again and prefills only its new two-token tail."
NEW_TAIL = "again and prefills only its new tail, of <two> tokens."


def _blog(folder: Path) -> Path:
    """The example content in a repository, committed, then its article edited and committed: one stale source."""
    init(folder)
    shutil.copytree(ROOT / "fixtures" / "content", folder / "content")
    shutil.copytree(ROOT / "fixtures" / "research", folder / "research")
    git(folder, "add", "-A")
    commit(folder, "the example blog")
    post = (folder / POST).read_text(encoding="utf-8")
    assert OLD_TAIL in post
    commit(folder, "reword the tail", {POST: post.replace(OLD_TAIL, NEW_TAIL)})
    return folder


def _check_html(folder: Path, out: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "content", "-o", f"html:{out}"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def blog_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    folder = _blog(tmp_path_factory.mktemp("glance") / "blog")
    out = folder.parent / "report.html"
    return folder, out, _check_html(folder, out)


class _Ids(HTMLParser):
    """The ids of the page, and the links of the findings index with the rows' levels and rules."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: dict[str, dict[str, str | None]] = {}
        self.rows: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self._in_index = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids[str(found["id"])] = {"tag": tag, **found}
        if tag == "table" and "findings-index" in (found.get("class") or ""):
            self._in_index = True
        if self._in_index and tag == "tr" and "data-level" in found:
            self.rows.append(found)
        if self._in_index and tag == "a" and (found.get("href") or "").startswith("#finding-"):
            self.links.append(str(found["href"])[1:])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_index = False


def _parsed(page: str) -> _Ids:
    parser = _Ids()
    parser.feed(page)
    return parser


# -- at a glance: the index of every finding ---------------------------------------------------------------------


def test_every_finding_is_a_row_of_the_index_linking_to_its_place(blog_page: tuple[Path, Path, str]) -> None:
    _, _, page = blog_page
    parsed = _parsed(page)
    findings = {k: v for k, v in parsed.ids.items() if v["tag"] == "li" and "finding" in (v.get("class") or "").split()}
    assert len(findings) == page.count('<li class="finding ') > 5
    assert sorted(parsed.links) == sorted(findings)  # one row per finding, each to its own place
    levels = [row["data-level"] for row in parsed.rows]
    assert levels == sorted(levels, key=["error", "warning", "note"].index)  # worst first
    assert page.index('class="findings-index"') < page.index('<section class="file"')  # before the storyboards


def test_the_index_comes_right_after_the_totals_and_filters() -> None:
    page = reporter("html")(_report_with_a_target_finding(), OutputOptions())
    assert page.index('id="totals"') < page.index('class="filters"') < page.index('id="index"')
    assert '<h2 id="index">Every finding <span class="count">(<span class="tally" data-empty="no findings">' in page


def _report_with_a_target_finding() -> Report:
    data: dict[str, Any] = {
        "title": "t",
        "targets": {"cache": {"kind": "node", "label": "Cache"}, "queue": {"kind": "node", "label": "Queue"}},
        "scenarios": [{"id": "s", "title": "S", "steps": [{"title": "one", "duration": 9000, "active": ["cache"]}]}],
    }
    results = (
        Result(
            "m.json", "reference/unused-target", Level.ERROR, "queue is never lit", "/targets/queue", Region(3, 5, 3, 9)
        ),
        Result("m.json", "a11y/reading-time", Level.WARNING, "too fast", "/scenarios/0/steps/0", Region(9, 1, 9, 2)),
    )
    return Report(files=(FileReport("m.json", "m.json", results, story=story_of(data)),), files_checked=1)


def test_a_folded_section_says_what_it_holds() -> None:
    page = reporter("html")(_report_with_a_target_finding(), OutputOptions())
    assert '<summary>Targets (2) — <span class="tally" data-empty="no findings">1 error</span></summary>' in page
    assert (
        '<summary>Findings and storyboard — <span class="tally" data-empty="no findings">1 error, 1 warning</span>'
        in page
    )


# -- the header, and the stale source's diff ---------------------------------------------------------------------


def test_the_header_names_repository_branch_commit_time_version_configuration_and_command(
    blog_page: tuple[Path, Path, str],
) -> None:
    folder, out, page = blog_page
    head = git(folder, "rev-parse", "HEAD")
    header = page[page.index("<header>") : page.index("</header>")]
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", header))
    assert facts["Repository"] == "blog"
    assert facts["Branch"] == "main"
    assert facts["Commit"] == f"<code>{head[:12]}</code>"
    assert facts["mechlint"] == "0.1.0" or re.fullmatch(r"\d+\.\d+\.\d+.*", facts["mechlint"])
    assert facts["Configuration"] == "none (the defaults)"
    assert facts["Command"] == f"<code>mechlint check content -o html:{out}</code>"
    assert re.fullmatch(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">[^<]+</time>', facts["Time"])


def test_hostile_run_facts_are_escaped() -> None:
    run = RunFacts("<b>repo</b>", "feature/<script>x()</script>", "0" * 40, "2026-01-01T00:00:00Z", "a\x1b[2J.toml")
    summary = ("source x", "pinned bytes: <img src=x onerror=y()>")
    diff = SourceDiff("m.json", "/sources/0", summary, "+<script>\n", lines=(("add", "+<script>", ((1, 9),)),))
    data = {"title": "t", "sources": [{"path": "x.md", "sha256": "a" * 64, "description": "d"}], "scenarios": []}
    report = Report(files=(FileReport("m.json", "m.json", (), story=story_of(data)),), files_checked=1)
    page = reporter("html")(report, OutputOptions(run=run._replace(diffs=(diff,))))
    assert "<b>repo" not in page and "<script>x()" not in page and "<img src=x" not in page
    assert "feature/&lt;script&gt;x()&lt;/script&gt;" in page and "a\\x1b[2J.toml" in page
    assert '<span class="add">+<mark>&lt;script&gt;</mark>\n</span>' in page
    assert page.count("<script>") == 1


def test_a_stale_source_shows_its_diff_inline_folded_under_its_row(blog_page: tuple[Path, Path, str]) -> None:
    folder, _, page = blog_page
    first = git(folder, "rev-list", "--max-parents=0", "HEAD")
    row = page.index(f"<code>{POST}</code>")
    diff = page.index('<tr class="diff-row"><td colspan="3"><details class="diff">', row)
    assert diff < page.index("</table>", row)  # inside the Sources table, right under the source
    shown = page[diff : page.index("</details>", diff)]
    assert (
        '<summary>What changed since the pin <span class="changes">(1 line added, 1 removed)</span></summary>' in shown
    )
    assert f'<span class="meta">--- a/{POST}@{first[:12]}\n</span>' in shown
    # the sentence that changed is marked (here the whole line: the sentence's part on it)
    assert f'<span class="del">-<mark>{OLD_TAIL}</mark>\n</span>' in shown
    assert f'<span class="add">+<mark>{NEW_TAIL.replace("<", "&lt;").replace(">", "&gt;")}</mark>\n</span>' in shown


# -- in Chromium -------------------------------------------------------------------------------------------------


VISIBLE_ROWS = "Array.from(document.querySelectorAll('.findings-index tbody tr')).filter(r => !r.hidden).length"


def test_each_index_link_opens_its_folded_section_and_shows_the_finding(blog_page: tuple[Path, Path, str]) -> None:
    sync_playwright = _playwright()
    _, out, page_text = blog_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        page.click("button[data-fold=close]")
        links = page.locator(".findings-index tbody a[href^='#finding-']")
        count = links.count()
        assert count > 5
        reached = []
        for index in range(count):
            link = links.nth(index)
            target = (link.get_attribute("href") or "")[1:]
            link.click()
            reached.append(page.locator(f"[id='{target}']").is_visible())
        browser.close()
    assert all(reached) and count == page_text.count('<li class="finding ')  # every finding has its row


#: Each folded section of the page: the text of its summary, and the findings it holds by level.
FOLDED = """() => Array.from(document.querySelectorAll('details')).map(d => {
  const held = {error: 0, warning: 0, note: 0};
  d.querySelectorAll('li.finding').forEach(f => held[f.dataset.level]++);
  return {summary: d.querySelector(':scope > summary').textContent, held: held, open: d.open};
})"""


def _folded_sections(out: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each section of the page, every one folded; then again with warnings filtered out."""
    sync_playwright = _playwright()
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        page.click("button[data-fold=close]")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
        folded = page.evaluate(FOLDED)
        page.uncheck("input[name=level][value=warning]")
        filtered = page.evaluate(FOLDED)
        browser.close()
    return folded, filtered


def _says_what_it_holds(section: dict[str, Any], hidden: tuple[str, ...] = ()) -> bool:
    said = [f"{n} {level}{'' if n == 1 else 's'}" for level, n in section["held"].items() if n and level not in hidden]
    if any(level in section["summary"] for level in hidden):  # a count of what the filter hides
        return False
    if said:
        return all(words in section["summary"] for words in said)
    # a diff holds no finding and says what changed; a trace holds the steps of one; any other says it holds none
    return section["summary"].startswith(("What changed", "Trace")) or "no findings" in section["summary"]


def test_every_folded_section_that_holds_findings_says_so(blog_page: tuple[Path, Path, str], tmp_path: Path) -> None:
    """In Chromium, with every section folded: each summary names what its section holds, level by level (one that
    holds none says so), and after a filter what is left."""
    _, out, _ = blog_page
    targets = tmp_path / "targets.html"
    targets.write_text(reporter("html")(_report_with_a_target_finding(), OutputOptions()), encoding="utf-8")
    for page in (out, targets):
        folded, filtered = _folded_sections(page)
        assert [d for d in folded if sum(d["held"].values())] and not any(d["open"] for d in folded)
        assert all(_says_what_it_holds(d) for d in folded), folded
        assert all(_says_what_it_holds(d, hidden=("warning",)) for d in filtered), filtered
    held = {d["summary"].split(" —")[0]: d["held"] for d in folded}
    assert held["Targets (2)"] == {"error": 1, "warning": 0, "note": 0}


def test_filters_shorten_the_page_and_every_count_follows(blog_page: tuple[Path, Path, str]) -> None:
    sync_playwright = _playwright()
    _, out, _ = blog_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        # content-visibility:auto lays out only what is on screen, so a height would be an estimate: lay out all
        page.add_style_tag(content="*{content-visibility:visible!important}")
        before = page.evaluate("document.documentElement.scrollHeight")
        total = page.evaluate(VISIBLE_ROWS)
        page.select_option("select[name=rule]", "provenance/stale-source")
        after = page.evaluate("document.documentElement.scrollHeight")
        rows = page.evaluate(VISIBLE_ROWS)
        rules = page.evaluate(
            "Array.from(document.querySelectorAll('.findings-index tbody tr')).filter(r => !r.hidden)"
            ".map(r => r.dataset.rule)"
        )
        shown_files = page.evaluate(
            "Array.from(document.querySelectorAll('section.file')).filter(s => !s.hidden).length"
        )
        scenarios = page.evaluate(
            "Array.from(document.querySelectorAll('.scenario')).filter(s => s.offsetParent !== null).length"
        )
        counts = page.evaluate(
            "({all: document.querySelector('[data-count-all]').textContent,"
            " error: document.querySelector('[data-count-level=error]').textContent,"
            " warning: document.querySelector('[data-count-level=warning]').textContent,"
            " index: document.querySelector('#index .tally').textContent,"
            " file: Array.from(document.querySelectorAll('section.file')).filter(s => !s.hidden)"
            "   .map(s => s.querySelector('h2 .tally').textContent),"
            " status: document.querySelector('.shown-count').textContent})"
        )
        page.select_option("select[name=rule]", "")
        again = page.evaluate(VISIBLE_ROWS)
        browser.close()
    assert rules == ["provenance/stale-source"] and rows == 1 < total == again
    assert after < before / 2
    assert shown_files == 1 and scenarios == 0  # no storyboard holds a stale-source finding
    assert counts == {
        "all": "1",
        "error": "1",
        "warning": "0",
        "index": "1 error",
        "file": ["1 error"],
        "status": "1 finding shown; files and scenarios without one are hidden",
    }


def test_the_index_sorts_by_a_column_from_the_keyboard(blog_page: tuple[Path, Path, str]) -> None:
    sync_playwright = _playwright()
    _, out, _ = blog_page
    rules = "Array.from(document.querySelectorAll('.findings-index tbody tr')).map(r => r.dataset.rule)"
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        page.focus(".findings-index th[data-sort=rule] button")
        page.keyboard.press("Enter")
        ascending = page.evaluate(rules)
        sort = page.get_attribute(".findings-index th[data-sort=rule]", "aria-sort")
        page.keyboard.press("Enter")
        descending = page.evaluate(rules)
        browser.close()
    assert ascending == sorted(ascending) and descending == sorted(ascending, reverse=True)
    assert sort == "ascending" and len(set(ascending)) > 2


def test_no_sideways_scroll_at_390_px(blog_page: tuple[Path, Path, str]) -> None:
    sync_playwright = _playwright()
    _, out, _ = blog_page
    with sync_playwright() as p:
        browser, page, requests = _open(p, out, viewport={"width": 390, "height": 844})
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        width = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert width <= 390
    assert requests == [out.as_uri()]  # the page, its diff and its drawings fetch nothing


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_light_and_dark(blog_page: tuple[Path, Path, str], scheme: str) -> None:
    sync_playwright = _playwright()
    if AXE is None:
        pytest.skip("axe-core is not installed (npm install --prefix .ci/node axe-core); .ci/run installs it")
    _, out, _ = blog_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out, color_scheme=scheme)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate(
            "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        )
        browser.close()
    serious = [
        (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in found["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert found["passes"], "axe ran no check"


# -- play --------------------------------------------------------------------------------------------------------


SHOWN_FRAMES = (
    "Array.from(document.querySelectorAll('.scenario')[0].querySelectorAll('li.frame'))"
    ".filter(f => f.offsetParent !== null).map(f => f.querySelector('h4').textContent.split(':')[0])"
)


def _durations(page: Any) -> list[int]:
    found: list[int] = page.evaluate(
        "Array.from(document.querySelectorAll('.scenario')[0].querySelectorAll('li.frame'))"
        ".map(f => +f.dataset.duration)"
    )
    return found


def test_play_steps_through_a_scenario_with_each_steps_duration_and_stops(blog_page: tuple[Path, Path, str]) -> None:
    sync_playwright = _playwright()
    _, out, _ = blog_page
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.clock.install(time=0)
        page.goto(out.as_uri())
        page.clock.pause_at(1000)  # time moves only when the test says so
        durations = _durations(page)
        everything = page.evaluate(SHOWN_FRAMES)
        page.focus(".scenario .player button.play")
        page.keyboard.press("Enter")
        seen = [(page.evaluate(SHOWN_FRAMES), page.text_content(".scenario .now-playing"))]
        for n, duration in enumerate(durations):
            page.clock.run_for(duration - (50 if n == 0 else 100))  # to 50 ms before this step ends
            before = page.evaluate(SHOWN_FRAMES)
            page.clock.run_for(100)
            seen.append((before, page.evaluate(SHOWN_FRAMES)))
        status = page.text_content(".scenario .now-playing")
        label = page.text_content(".scenario .player button.play")
        browser.close()
    assert len(durations) >= 3 and all(d > 100 for d in durations)
    assert seen[0] == (["Step 1"], f"Step 1 of {len(durations)} ({durations[0] / 1000:.1f} s)")
    for n, (before, after) in enumerate(seen[1:], start=1):
        assert before == [f"Step {n}"]  # still on its step until its duration is over
        assert after == ([f"Step {n + 1}"] if n < len(durations) else everything)
    assert (status, label) == (f"Played all {len(durations)} steps", "Play")


def test_play_waits_for_next_step_when_reduced_motion_is_asked_and_can_be_stopped(
    blog_page: tuple[Path, Path, str],
) -> None:
    sync_playwright = _playwright()
    _, out, _ = blog_page
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(reduced_motion="reduce")
        page.clock.install(time=0)
        page.goto(out.as_uri())
        page.clock.pause_at(1000)
        everything = page.evaluate(SHOWN_FRAMES)
        page.click(".scenario .player button.play")
        page.clock.run_for(60_000)
        still = page.evaluate(SHOWN_FRAMES)
        page.focus(".scenario .player button.next")
        page.keyboard.press("Enter")
        stepped = page.evaluate(SHOWN_FRAMES)
        page.click(".scenario .player button.play")  # now "Stop"
        stopped = (page.evaluate(SHOWN_FRAMES), page.text_content(".scenario .now-playing"))
        browser.close()
    assert still == ["Step 1"] and stepped == ["Step 2"]
    assert stopped == (everything, "Stopped")


def test_without_scripts_the_storyboard_is_static_and_has_no_player(blog_page: tuple[Path, Path, str]) -> None:
    _, _, page = blog_page
    static = page[: page.index("<script>")] + page[page.index("</script>") :]
    assert 'class="player"' not in static and static.count('class="scenario"') > 0  # the script makes the players
    assert re.search(r'<li class="frame[^"]*" id="[^"]+" data-duration="\d+">', page)
