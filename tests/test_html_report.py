"""The HTML review report: content, escaping, and the page as a browser and axe-core see it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mechlint.document.story import story_of
from mechlint.model import FileReport, Level, LocatedTrace, Region, Report, Result
from mechlint.report import OutputOptions, reporter

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SEED = next((FIXTURES / "seed" / "mechanisms").glob("*.json"))


def _mechlint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mechlint", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def _hostile_report() -> Report:
    data = json.loads(SEED.read_text(encoding="utf-8"))
    data["title"] = "<script>alert(1)</script> & <b>bold</b>"
    data["scenarios"][0]["steps"][0]["title"] = 'Step "one" <img src=x onerror=alert(2)>'
    result = Result(
        path="content/<evil>.json",
        rule_id="reference/unknown-target",
        level=Level.ERROR,
        message='names "</li><script>x()</script>"',
        pointer="/scenarios/0/steps/0/active/0",
        region=Region(3, 4, 3, 9),
        trace=(LocatedTrace(Region(5, 1, 5, 2), "a <trace> step", "/scenarios/0/steps/1"),),
    )
    story = story_of(data)
    return Report(files=(FileReport("content/<evil>.json", "x", (result,), story=story),), files_checked=1)


def test_everything_from_input_is_escaped() -> None:
    page = reporter("html")(_hostile_report(), OutputOptions())
    assert "<script>alert(1)" not in page
    assert "<img src=x" not in page
    assert "</li><script>x()" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script>") == 1  # only the report's own


def test_findings_are_placed_on_the_frame_they_point_at() -> None:
    page = reporter("html")(_hostile_report(), OutputOptions())
    frame = page.index('id="-scenarios-0-steps-0"')
    next_frame = page.index('id="-scenarios-0-steps-1"')
    storyboard = page.index('<section class="file"')  # the index of every finding comes first
    assert frame < page.index('data-rule="reference/unknown-target"', storyboard) < next_frame


def test_a_finding_whose_part_the_story_lacks_is_shown_for_the_whole_file() -> None:
    result = Result(
        "f.json", "schema/violation", Level.ERROR, "broken step", "/scenarios/9/steps/0", Region(1, 1, 1, 2)
    )
    story = story_of({"title": "t", "scenarios": []})
    report = Report(files=(FileReport("f.json", "f.json", (result,), story=story),), files_checked=1)
    page = reporter("html")(report, OutputOptions())
    assert page.index("About the whole file") < page.index("broken step", page.index('<section class="file"'))


def test_reading_time_agrees_with_the_rule() -> None:
    """The storyboard's "needs" is the time the a11y/reading-time rule computes."""
    data = json.loads(SEED.read_text(encoding="utf-8"))
    story = story_of(data)
    steps = [step for scenario in story.scenarios for step in scenario.steps]
    from mechlint.run.engine import lint_bytes

    fired = {r.pointer.rsplit("/", 1)[0] for r in lint_bytes(SEED.read_bytes()) if r.rule_id == "a11y/reading-time"}
    short = {s.pointer for s in steps if s.duration is not None and s.duration < s.reading}
    assert fired and short == fired


def test_story_survives_malformed_documents() -> None:
    for data in ({}, [], "x", {"scenarios": [1, {"steps": [None, {"state": [], "duration": True}]}]}, {"targets": []}):
        story = story_of(data)
        reporter("html")(Report(files=(FileReport("f", "f", (), story=story),), files_checked=1), OutputOptions())


def test_cli_writes_an_html_report_with_every_file(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = _mechlint("check", "--root", "fixtures", "fixtures/content", "fixtures/clean", "-o", f"html:{out}")
    assert done.returncode in (0, 1), done.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "clean" in page  # a file without findings still has its storyboard
    # each rule id links to the documentation the report's rule metadata names (SARIF's helpUri)
    assert 'href="https://github.com/mechlint/mechlint/blob/main/docs/rules/a11y/reading-time.md"' in page
    assert "http://" not in page.replace("http-equiv", "")


# --- in a real browser ----------------------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
AXE_CANDIDATES = [
    os.environ.get("MECHLINT_AXE_JS", ""),
    str(ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js"),
    str(ROOT / "node_modules" / "axe-core" / "axe.min.js"),
]
AXE = next((Path(p) for p in AXE_CANDIDATES if p and Path(p).is_file()), None)


def _playwright():  # type: ignore[no-untyped-def]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install '.[test]')")
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium); .ci/run installs it")
    return sync_playwright


@pytest.fixture(scope="module")
def report_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    folder = tmp_path_factory.mktemp("html")
    out, data = folder / "report.html", folder / "report.json"
    done = _mechlint("check", "--root", "fixtures", "fixtures", "-o", f"html:{out}", "-o", f"json:{data}")
    assert done.returncode in (0, 1), done.stderr
    return out, json.loads(data.read_text(encoding="utf-8"))


def _open(p, path: Path, **context_options):  # type: ignore[no-untyped-def]
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    context = browser.new_context(bypass_csp=True, **context_options)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    return browser, page, requests


def test_browser_shows_every_finding_and_step_and_requests_nothing(
    report_page: tuple[Path, dict[str, object]],
) -> None:
    sync_playwright = _playwright()
    path, data = report_page
    with sync_playwright() as p:
        browser, page, requests = _open(p, path)
        text = page.evaluate("document.body.textContent")
        browser.close()
    assert [url for url in requests if url != path.as_uri()] == []
    results = data["results"]
    assert isinstance(results, list) and results
    for result in results:
        assert result["message"] in text, result["message"]
    for mechanism in sorted((FIXTURES / "content").rglob("mechanisms/*.json")):
        for scenario in json.loads(mechanism.read_text(encoding="utf-8"))["scenarios"]:
            for step in scenario["steps"]:
                assert step["title"] in text


def test_filters_and_folding_work_from_the_keyboard(report_page: tuple[Path, dict[str, object]]) -> None:
    sync_playwright = _playwright()
    path, _ = report_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, path)
        visible = "Array.from(document.querySelectorAll('.finding')).filter(f => !f.hidden).length"
        total = page.evaluate(visible)
        warnings = page.evaluate("document.querySelectorAll('.finding[data-level=warning]').length")
        page.focus("input[name=level][value=warning]")
        page.keyboard.press("Space")
        assert page.evaluate(visible) == total - warnings
        page.focus("button[data-fold=open]")
        page.keyboard.press("Enter")
        assert page.evaluate("Array.from(document.querySelectorAll('details.fold')).every(d => d.open)")
        page.focus("details.fold > summary")
        page.keyboard.press("Enter")
        assert not page.evaluate("document.querySelector('details.fold').open")
        browser.close()


def test_readable_with_scripts_off(report_page: tuple[Path, dict[str, object]]) -> None:
    sync_playwright = _playwright()
    path, data = report_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, path, java_script_enabled=False)
        hidden_form = page.locator("form.filters").is_hidden()
        text = page.locator("main").text_content() or ""
        browser.close()
    assert hidden_form  # the page's script, which shows the filters, did not run
    results = data["results"]
    assert isinstance(results, list) and results
    assert all(r["message"] in text for r in results)


def test_axe_finds_no_serious_wcag_violation(report_page: tuple[Path, dict[str, object]]) -> None:
    sync_playwright = _playwright()
    if AXE is None:
        pytest.skip("axe-core is not installed (npm install --prefix .ci/node axe-core); .ci/run installs it")
    path, _ = report_page
    with sync_playwright() as p:
        browser, page, _ = _open(p, path)
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
