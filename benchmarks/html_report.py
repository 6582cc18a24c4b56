"""How large the HTML report of a big run is, and how long a browser takes to open it.

    python benchmarks/html_report.py [--files 2000] [--mode prose]

Makes a corpus with ``corpus.py`` in a temporary folder, writes the HTML
report of a ``mechlint check`` over it, then opens the report in Debian's
Chromium through playwright (``pip install playwright``; no browser download)
and prints the report's size, the time to write it, the time until the
page's ``load`` event and until the first file section is on screen, and
the time a filter (the rule with the fewest findings) takes until painted,
then the time to show every rule again and to unfold every file (which
builds every storyboard kept out of the page until then). Beside each wall-clock time it
prints what Chromium's own counters (``Performance.getMetrics`` over CDP)
say the renderer spent on it: script, style recalculation, layout, and all
its tasks (parsing the page is most of what is left of the tasks). The
machine may be shared: the processor times are steadier than the wall clock.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Chromium's counters of the renderer's time, in seconds (CDP ``Performance.getMetrics``).
COUNTERS = {
    "TaskDuration": "tasks",
    "ScriptDuration": "script",
    "RecalcStyleDuration": "style",
    "LayoutDuration": "layout",
}
#: Press "Unfold every file", and time it until the next frame is painted.
UNFOLD = """() => new Promise(done => {
  const start = performance.now();
  document.querySelector('button[data-fold=open]').click();
  requestAnimationFrame(() => setTimeout(() => done({
    ms: performance.now() - start, findings: document.querySelectorAll('li.finding').length}), 0));
})"""


def _counters(cdp: Any) -> dict[str, float]:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {m["name"]: m["value"] for m in metrics if m["name"] in COUNTERS}


def _spent(before: dict[str, float], after: dict[str, float]) -> str:
    return ", ".join(f"{word} {after[name] - before.get(name, 0.0):.2f} s" for name, word in COUNTERS.items())


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--mode", default="prose")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus"
        subprocess.run(
            [sys.executable, str(HERE / "corpus.py"), str(corpus), "--files", str(args.files), "--mode", args.mode],
            check=True,
            capture_output=True,
        )
        report = Path(folder) / "report.html"
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mechlint", "check", "--format", "html", "-o", str(report), "."],
            cwd=corpus,
            capture_output=True,
            text=True,
        )
        written = time.perf_counter() - start
        if done.returncode not in (0, 1):
            sys.exit(done.stderr)
        size = report.stat().st_size
        print(f"{args.files} files ({args.mode}): report {size / 2**20:.1f} MiB, written in {written:.2f} s")
        if chromium is None:
            print("no chromium: not opened")
            return
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            zero = _counters(cdp)
            start = time.perf_counter()
            page.goto(report.as_uri(), wait_until="load", timeout=120_000)
            loaded = time.perf_counter() - start
            page.wait_for_selector("section.file h2")
            shown = time.perf_counter() - start
            opened = _counters(cdp)
            findings = page.evaluate("document.querySelectorAll('.findings-index tbody tr').length")
            filtered = page.evaluate(FILTER, None)
            narrowed = _counters(cdp)
            again = page.evaluate(FILTER, "")
            widened = _counters(cdp)
            unfolded = page.evaluate(UNFOLD)
            built = _counters(cdp)
            browser.close()
        print(f"opened in Chromium: load event {loaded:.2f} s, first file on screen {shown:.2f} s, {findings} findings")
        print(f"  renderer: {_spent(zero, opened)}")
        print(f"filter by the rarest rule: {filtered['ms'] / 1000:.2f} s until painted, {filtered['rows']} rows left")
        print(f"  renderer: {_spent(opened, narrowed)}")
        print(f"every rule again: {again['ms'] / 1000:.2f} s until painted, {again['rows']} rows shown")
        print(f"  renderer: {_spent(narrowed, widened)}")
        print(f"unfold every file: {unfolded['ms'] / 1000:.2f} s until painted, {unfolded['findings']} findings built")
        print(f"  renderer: {_spent(widened, built)}")


if __name__ == "__main__":
    main()
