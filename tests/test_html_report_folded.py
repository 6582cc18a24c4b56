"""The HTML report of many files (issue 27: a 2,000-file report opens and filters fast): a folded file's storyboard is
kept out of the page until it is unfolded, yet every finding is reachable, filtered and counted, and a reader without
scripts still reads every storyboard.

The reports are made from :class:`~mechlint.model.Report` objects here: more files than
:data:`~mechlint.report.html.FOLD_ABOVE`, so that each starts folded. How fast the page is, is measured in
``benchmarks/html_report.py``, never here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from mechlint.document.story import story_of
from mechlint.model import FileReport, Level, Region, Report, Result
from mechlint.report import OutputOptions, reporter
from mechlint.report.html import FOLD_ABOVE
from mechlint.report.htmlindex import CHUNK

from .test_html_report import CHROMIUM, _open, _playwright

FILES = FOLD_ABOVE + 2
AT = Region(9, 1, 9, 2)


def _story(n: int) -> dict[str, Any]:
    return {
        "title": f"Mechanism {n}",
        "targets": {"cache": {"kind": "node", "label": "Cache"}, "queue": {"kind": "node", "label": "Queue"}},
        "scenarios": [
            {"id": "s", "title": f"Scenario {n}", "steps": [{"title": f"step of {n}", "duration": 900}]},
            {"id": "t", "title": f"Quiet scenario {n}", "steps": [{"title": "quiet", "duration": 9000}]},
        ],
    }


def _many(count: int = FILES) -> Report:
    """``count`` files; each has a reading-time warning on its first scenario's step, the last one also an error on a
    target (the rarest rule), which makes it the page's first file (worst first)."""
    files = []
    for n in range(count):
        path = f"m{n:02}.json"
        results = [Result(path, "a11y/reading-time", Level.WARNING, f"too fast {n}", "/scenarios/0/steps/0", AT)]
        if n == count - 1:
            results.append(Result(path, "reference/unused-target", Level.ERROR, "queue unused", "/targets/queue", AT))
        files.append(FileReport(path, path, tuple(results), story=story_of(_story(n))))
    return Report(files=tuple(files), files_checked=count)


@pytest.fixture(scope="module")
def folded_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("folded") / "report.html"
    page = reporter("html")(_many(), OutputOptions())
    out.write_text(page, encoding="utf-8")
    return out, page


def test_a_folded_files_storyboard_is_noscript_text_and_an_open_ones_is_in_the_page(
    folded_page: tuple[Path, str],
) -> None:
    _, page = folded_page
    assert page.count('<details class="fold">') == FILES  # all folded
    assert page.count('<noscript class="later">') == FILES
    start = page.index('<noscript class="later">')
    assert page.index('<ol class="frames">', start) < page.index("</noscript>", start)  # the storyboard is inside
    small = reporter("html")(Report(files=_many().files[:FOLD_ABOVE], files_checked=FOLD_ABOVE), OutputOptions())
    assert "<noscript" not in small and small.count('<details class="fold" open>') == FOLD_ABOVE


VISIBLE = "sel => Array.from(document.querySelectorAll(sel)).filter(e => e.offsetParent !== null).length"


def test_a_folded_storyboard_comes_into_the_page_when_unfolded_and_follows_the_filters(
    folded_page: tuple[Path, str],
) -> None:
    sync_playwright = _playwright()
    out, _ = folded_page
    with sync_playwright() as p:
        browser, page, requests = _open(p, out)
        before = page.evaluate("document.querySelectorAll('li.finding, .scenario, li.frame').length")
        page.select_option("select[name=rule]", "reference/unused-target")
        files = page.evaluate("Array.from(document.querySelectorAll('section.file')).filter(s => !s.hidden).length")
        tallies = page.evaluate(
            "Array.from(document.querySelectorAll('section.file')).map(s => s.querySelector('h2 .tally').textContent)"
        )
        page.click("section.file:not([hidden]) details.fold > summary")
        shown = page.evaluate(VISIBLE, "li.finding")
        scenarios = page.evaluate(VISIBLE, ".scenario")
        players = page.locator("section.file:not([hidden]) .player").count()
        page.select_option("select[name=rule]", "")
        again = page.evaluate(VISIBLE, "li.finding")
        scenarios_again = page.evaluate(VISIBLE, ".scenario")
        browser.close()
    assert before == 0  # nothing of a folded storyboard is in the page until it is unfolded
    assert files == 1
    assert tallies == ["1 error"] + ["no findings"] * (FILES - 1)  # counted from the index while folded
    assert (shown, scenarios, players) == (1, 0, 2)  # unfolded: the filter applies to it, and it plays
    assert (again, scenarios_again) == (2, 2)
    assert all(url.startswith("file:") for url in requests)


def test_an_index_link_into_a_folded_file_brings_and_shows_its_finding(folded_page: tuple[Path, str]) -> None:
    sync_playwright = _playwright()
    out, _ = folded_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        links = page.locator(".findings-index tbody a[href^='#finding-']")
        count = links.count()
        reached = []
        for index in range(count):
            target = (links.nth(index).get_attribute("href") or "")[1:]
            links.nth(index).click()
            reached.append(page.locator(f"[id='{target}']").is_visible())
        browser.close()
    assert count == FILES + 1 and all(reached)


#: Wait for two frames: what the script does when a section comes near the screen is done by then.
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))"
#: The files whose storyboard is in the page, by their number.
BUILT = (
    "Array.from(document.querySelectorAll('section.file')).filter(s => !s.querySelector('noscript'))"
    ".map(s => +s.querySelector('h2').id.slice(5))"
)


def test_unfold_every_file_opens_every_file_and_builds_each_storyboard_as_it_nears_the_screen(
    tmp_path: Path,
) -> None:
    """Unfolding two thousand files must not build two thousand storyboards at once: those near the screen are
    built, the others when scrolled to, and each holds its findings then."""
    count = 60
    out = tmp_path / "report.html"
    out.write_text(reporter("html")(_many(count), OutputOptions()), encoding="utf-8")
    sync_playwright = _playwright()
    with sync_playwright() as p:
        browser, page, _ = _open(p, out, viewport={"width": 1280, "height": 600})
        page.click("button[data-fold=open]")
        page.evaluate(SETTLED)
        opened = page.evaluate("Array.from(document.querySelectorAll('details.fold')).every(d => d.open)")
        above = page.evaluate(BUILT)  # the index of 60 rows fills the screen and the next one
        page.locator("section.file").first.scroll_into_view_if_needed()
        page.evaluate(SETTLED)
        first = page.evaluate(BUILT)
        page.locator("section.file").last.scroll_into_view_if_needed()
        page.evaluate(SETTLED)
        last = page.evaluate(BUILT)
        findings = page.evaluate(
            "Array.from(document.querySelectorAll('section.file')).at(-1).querySelectorAll('li.finding').length"
        )
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # printing needs every one
        left = page.evaluate("document.querySelectorAll('noscript').length")
        browser.close()
    assert opened and above == []
    assert 0 < len(first) < count // 2 and 0 in first  # the first screen's storyboards, not every one
    assert count - 1 in last and findings == 1
    assert left == 0


def test_a_large_report_unfolded_at_390_px_does_not_scroll_sideways(folded_page: tuple[Path, str]) -> None:
    sync_playwright = _playwright()
    out, _ = folded_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out, viewport={"width": 390, "height": 844})
        page.click("button[data-fold=open]")
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # every storyboard built and every section open
        built = page.evaluate("document.querySelectorAll('noscript').length")
        width = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert built == 0 and width <= 390


def test_without_scripts_a_folded_file_unfolds_to_its_static_storyboard(folded_page: tuple[Path, str]) -> None:
    """A regression guard: a reader without scripts keeps every storyboard."""
    sync_playwright = _playwright()
    out, _ = folded_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, out, java_script_enabled=False)
        last = page.locator("section.file").first
        last.locator("details.fold > summary").click()
        text = last.text_content() or ""
        frames = last.locator("li.frame").count()
        visible = last.locator("li.frame li.finding").first.is_visible()
        players = page.locator(".player").count()
        # the words kept for find-in-page are not shown, nor searched: the storyboard itself is in the page
        words = last.locator(".words").evaluate("e => getComputedStyle(e).display")
        searchable = page.evaluate("text => window.find(text)", f"Quiet scenario {FILES - 1}")
        browser.close()
    assert f"too fast {FILES - 1}" in text and "queue unused" in text and f"Scenario {FILES - 1}" in text
    assert (frames, visible, players, words, searchable) == (2, True, 0, "none", True)


def _crowded() -> Report:
    """One file with more findings than one body of the index holds: a warning per line, and an error on the last."""
    path = "m.json"
    results = [
        Result(path, "a11y/reading-time", Level.WARNING, f"too fast {n}", "/scenarios/0/steps/0", Region(n, 1, n, 2))
        for n in range(1, CHUNK + 31)
    ]
    results.append(Result(path, "reference/unused-target", Level.ERROR, "queue unused", "/targets/queue", AT))
    return Report(files=(FileReport(path, path, tuple(results), story=story_of(_story(0))),), files_checked=1)


def test_the_index_sorts_and_filters_across_its_bodies(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text(reporter("html")(_crowded(), OutputOptions()), encoding="utf-8")
    bodies = "Array.from(document.querySelectorAll('.findings-index tbody')).map(b => [b.rows.length, b.hidden])"
    sync_playwright = _playwright()
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        before = page.evaluate(bodies)
        page.click(".findings-index th[data-sort=rule] button")  # ascending: a11y/ before reference/
        rules = page.evaluate(
            "Array.from(document.querySelectorAll('.findings-index tbody tr')).map(r => r.dataset.rule)"
        )
        after = page.evaluate(bodies)
        page.select_option("select[name=rule]", "reference/unused-target")
        filtered = page.evaluate(bodies)
        browser.close()
    assert before == [[CHUNK, False], [31, False]]  # the error first (worst first), in the first body
    assert rules == ["a11y/reading-time"] * (CHUNK + 30) + ["reference/unused-target"]
    assert after == before
    assert filtered == [[CHUNK, True], [31, False]]  # the body left without a row is hidden


# -- find-in-page ------------------------------------------------------------------------------------------------
# Playwright cannot press Ctrl+F. A text fragment (``#:~:text=``) is searched by the same code in Chromium (its find
# buffer) and revealed the same way: a closed ``details`` opens, a ``hidden="until-found"`` element gets
# ``beforematch`` and is shown. ``window.find`` says whether the text is searchable at all (it reveals nothing).


def _find(p: Any, out: Path, text: str) -> tuple[Any, Any]:  # type: ignore[no-untyped-def]
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(f"{out.as_uri()}#:~:text={quote(text)}")
    page.evaluate(SETTLED)
    page.evaluate(SETTLED)
    return browser, page


ON_SCREEN = """text => {
  const all = Array.from(document.querySelectorAll('li.frame, tr, h2'));
  const hit = all.filter(e => e.offsetParent !== null && e.textContent.includes(text)).at(-1);
  if (!hit) return null;
  const box = hit.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}"""


ON_SCREEN_NODE = "e => { const box = e.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; }"


def test_find_in_page_finds_the_words_of_a_folded_storyboard_and_shows_them(folded_page: tuple[Path, str]) -> None:
    sync_playwright = _playwright()
    out, _ = folded_page
    wanted = f"Quiet scenario {FILES - 3}"
    with sync_playwright() as p:
        browser, page, _ = _open(p, out)
        searchable = page.evaluate("text => window.find(text)", wanted)
        built_before = page.evaluate(BUILT)
        browser.close()
        browser, page = _find(p, out, wanted)
        section = page.locator("section.file", has=page.locator(f"h2:has-text('m{FILES - 3:02}.json')"))
        built = section.locator("noscript").count() == 0
        opened = section.locator("details.fold").evaluate("d => d.open")
        found = section.locator(".words p")  # only the paragraph the search landed in is left, shown, on screen
        kept = (found.count(), found.first.is_visible(), found.first.evaluate(ON_SCREEN_NODE))
        found.first.locator("button").click()  # "Show the step"
        shown = page.evaluate(ON_SCREEN, "quiet")  # the frame of the step the words belong to
        heading = section.locator(".scenario h3", has_text=wanted).is_visible()
        browser.close()
    assert searchable and built_before == []  # searchable while folded, before anything is built
    assert (built, opened, kept, heading, shown) == (True, True, (1, True, True), True, True)


def test_find_in_page_opens_a_folded_targets_section() -> None:
    sync_playwright = _playwright()
    story = _story(0)
    story["targets"]["queue"]["label"] = "Zanzibar buffer"
    report = Report(files=(FileReport("m.json", "m.json", (), story=story_of(story)),), files_checked=1)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.html"
        out.write_text(reporter("html")(report, OutputOptions()), encoding="utf-8")
        with sync_playwright() as p:
            browser, page, _ = _open(p, out)
            closed = page.evaluate("document.querySelector('details.targets').open")
            browser.close()
            browser, page = _find(p, out, "Zanzibar buffer")
            opened = page.evaluate("document.querySelector('details.targets').open")
            shown = page.evaluate(ON_SCREEN, "Zanzibar buffer")
            browser.close()
    assert (closed, opened, shown) == (False, True, True)
