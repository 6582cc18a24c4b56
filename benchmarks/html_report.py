"""How large the HTML report of a big run is, and how long a browser takes to open it, filter it and unfold it.

    python benchmarks/html_report.py [--files 2000] [--mode prose] [--runs 5] [--report FILE]

Makes a corpus with ``corpus.py`` in a temporary folder and writes the HTML
report of a ``mechlint check`` over it (or, with ``--report``, takes a report
already written), then opens it ``--runs`` times in Debian's Chromium through
playwright (``pip install playwright``; no browser download), each time in a
fresh page, and prints for each run and as the median of the runs:

- opening: the time until the page's ``load`` event as the page itself
  measures it (``performance`` navigation timing), its first contentful
  paint, the time its script showed the filters (they work from then on,
  while the files below are still arriving), and the processor time the
  renderer's main thread spent until the load event;
- a filter to the rule with the fewest findings, and showing every rule
  again: the time until the next frame is painted;
- "Unfold every file": the time until two frames are painted (the
  storyboards of files near the screen are built in the second), and how many
  storyboards were built.

Beside each time, Chromium's own counter of the processor time of the
renderer's main thread (CDP ``Performance.getMetrics``, ``ThreadTime``): the
machine may be shared, and a loaded machine stretches the clock but not the
work. The load average (``os.getloadavg``) is printed before and after, so
that every time can be read with the load it was measured at.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Note when the page's script shows the filters (it runs right after the index, while the files are still arriving).
READY = """new MutationObserver((seen, watch) => {
  const form = document.querySelector('form.filters');
  if (form && !form.hidden) { window.filtersShown = performance.now(); watch.disconnect(); }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['hidden']});"""
#: The page's own measure of opening: milliseconds from navigation to the ``load`` event and to the first paint.
OPENED = """() => new Promise(done => requestAnimationFrame(() => setTimeout(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  done({load: nav.loadEventEnd, paint: paint ? paint.startTime : 0,
        filters: window.filtersShown || 0, elements: document.getElementsByTagName('*').length,
        findings: document.querySelectorAll('.findings-index tbody tr').length});
}, 0)))"""
#: Choose a rule in the filter (``null``: the one with the fewest findings), and time the change until the next frame
#: is painted.
FILTER = """wanted => new Promise(done => {
  const rows = Array.from(document.querySelectorAll('.findings-index tbody tr'));
  const counts = {};
  rows.forEach(r => counts[r.dataset.rule] = (counts[r.dataset.rule] || 0) + 1);
  const rule = wanted !== null ? wanted : Object.keys(counts).sort((a, b) => counts[a] - counts[b])[0] || '';
  const select = document.querySelector('select[name=rule]');
  const start = performance.now();
  select.value = rule;
  select.dispatchEvent(new Event('change', {bubbles: true}));
  requestAnimationFrame(() => setTimeout(() => done({
    ms: performance.now() - start, rows: rows.filter(r => !r.hidden).length}), 0));
})"""
#: Press "Unfold every file" and go to the first file, as a reader would, and time it until the second frame after it
#: is painted (storyboards near the screen are built on the way, when the browser reports which files came near it).
UNFOLD = """() => new Promise(done => {
  const start = performance.now();
  document.querySelector('button[data-fold=open]').click();
  document.querySelector('section.file').scrollIntoView();
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => done({
    ms: performance.now() - start,
    built: document.querySelectorAll('section.file').length - document.querySelectorAll('noscript.later').length,
    open: document.querySelectorAll('details.fold[open]').length}), 0)));
})"""


def _cpu(cdp: Any) -> float:
    """Seconds of processor time the renderer's main thread has spent (Chromium's ``ThreadTime``)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "ThreadTime"))


def _load() -> str:
    return "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def _one_run(browser: Any, uri: str) -> dict[str, float]:
    page = browser.new_page()
    page.add_init_script(READY)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    zero = _cpu(cdp)
    page.goto(uri, wait_until="load", timeout=300_000)
    opened = page.evaluate(OPENED)
    at_open = _cpu(cdp)
    narrowed = page.evaluate(FILTER, None)
    at_narrowed = _cpu(cdp)
    widened = page.evaluate(FILTER, "")
    at_widened = _cpu(cdp)
    unfolded = page.evaluate(UNFOLD)
    at_unfolded = _cpu(cdp)
    page.close()
    return {
        "load": opened["load"] / 1000,
        "paint": opened["paint"] / 1000,
        "filters": opened["filters"] / 1000,
        "open cpu": at_open - zero,
        "elements": opened["elements"],
        "findings": opened["findings"],
        "filter": narrowed["ms"] / 1000,
        "filter cpu": at_narrowed - at_open,
        "rows left": narrowed["rows"],
        "again": widened["ms"] / 1000,
        "again cpu": at_widened - at_narrowed,
        "unfold": unfolded["ms"] / 1000,
        "unfold cpu": at_unfolded - at_widened,
        "built": unfolded["built"],
        "opened files": unfolded["open"],
    }


def _line(run: dict[str, float]) -> str:
    return (
        f"load event {run['load']:.2f} s (main thread cpu {run['open cpu']:.2f} s, first paint {run['paint']:.2f} s,"
        f" filters usable {run['filters']:.2f} s);"
        f" rarest rule {run['filter']:.2f} s (cpu {run['filter cpu']:.2f}); every rule again {run['again']:.2f} s"
        f" (cpu {run['again cpu']:.2f}); unfold every file {run['unfold']:.2f} s (cpu {run['unfold cpu']:.2f},"
        f" {run['built']:.0f} storyboards built)"
    )


def _write_report(folder: Path, files: int, mode: str) -> Path:
    corpus = folder / "corpus"
    subprocess.run(
        [sys.executable, str(HERE / "corpus.py"), str(corpus), "--files", str(files), "--mode", mode],
        check=True,
        capture_output=True,
    )
    report = folder / "report.html"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mechlint", "check", "--format", "html", "-o", str(report), "."],
        cwd=corpus,
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 1):
        sys.exit(done.stderr)
    print(f"{files} files ({mode}): written in {time.perf_counter() - start:.2f} s")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--mode", default="prose")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--report", type=Path, help="open this report instead of writing one")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as folder:
        report = args.report or _write_report(Path(folder), args.files, args.mode)
        print(f"report {report.stat().st_size / 2**20:.1f} MiB")
        if chromium is None:
            print("no chromium: not opened")
            return
        from playwright.sync_api import sync_playwright

        print(f"before: {_load()}")
        runs = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for n in range(args.runs):
                runs.append(_one_run(browser, report.resolve().as_uri()))
                print(f"run {n + 1}: {_line(runs[-1])}", flush=True)
            browser.close()
        print(f"after: {_load()}")
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(
            f"{median['findings']:.0f} findings, {median['elements']:.0f} elements at load,"
            f" {median['rows left']:.0f} rows left by the rarest rule"
        )
        print(f"median of {len(runs)}: {_line(median)}")


if __name__ == "__main__":
    main()
