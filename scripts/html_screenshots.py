"""Remake the screenshots of the HTML review report in docs/ (the README shows the first).

    python scripts/html_screenshots.py [--out docs]

Builds the example content (``fixtures/content`` and ``fixtures/research``) in
a git repository in a temporary folder, commits it, then edits a sentence of
its article and commits again, so that the article is a stale source with a
diff to show; writes ``mechlint check content -o html:report.html`` there and
photographs the page in Debian's Chromium through playwright (light scheme):

- ``html-report.png``: the top of the page at 1280 px (the run, the totals,
  the filters and the index of every finding);
- ``html-report-390.png``: the same at 390 px, a phone;
- ``html-report-stale-source.png``: the stale article's row in the Sources
  table with its diff since the pin unfolded, at 1280 px.

The commits' dates are fixed, so that only the commit ids and the time of the
run change from one making to the next.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POST = "content/blog/2026-06-11_life-of-a-request-vllm/post.md"
OLD = "again and prefills only its new two-token tail."
NEW = "again and prefills only its new tail, of two tokens."


def _git(folder: Path, *args: str, date: str = "2025-06-15T12:00:00Z") -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "A. Writer",
        "GIT_AUTHOR_EMAIL": "writer@example.org",
        "GIT_COMMITTER_NAME": "A. Writer",
        "GIT_COMMITTER_EMAIL": "writer@example.org",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def _blog(folder: Path) -> Path:
    """The example content, committed, then its article reworded and committed: one stale source."""
    folder.mkdir()
    _git(folder, "init", "-q", "-b", "main")
    shutil.copytree(ROOT / "fixtures" / "content", folder / "content")
    shutil.copytree(ROOT / "fixtures" / "research", folder / "research")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "the example blog")
    post = folder / POST
    text = post.read_text(encoding="utf-8")
    if OLD not in text:
        sys.exit(f"{POST}: the sentence this script rewords is gone; change OLD in {Path(__file__).name}")
    post.write_text(text.replace(OLD, NEW), encoding="utf-8")
    _git(folder, "commit", "-q", "-am", "reword the tail", date="2025-06-20T12:00:00Z")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("no chromium on this machine: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        blog = _blog(Path(scratch) / "blog")
        done = subprocess.run(
            [sys.executable, "-m", "mechlint", "check", "content", "-o", "html:report.html"],
            cwd=blog,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        if done.returncode not in (0, 1):
            sys.exit(done.stderr)
        uri = (blog / "report.html").as_uri()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for width, height, name in ((1280, 1100, "html-report.png"), (390, 1400, "html-report-390.png")):
                page = browser.new_page(viewport={"width": width, "height": height}, color_scheme="light")
                page.goto(uri)
                page.screenshot(path=str(args.out / name))
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme="light")
            page.goto(uri)
            page.evaluate("document.querySelectorAll('details.diff').forEach(d => d.open = true)")
            sources = page.locator(".table-wrap", has=page.locator("table.sources")).first
            sources.scroll_into_view_if_needed()
            # a section off screen is not laid out (content-visibility): let it be, then photograph it
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            sources.screenshot(path=str(args.out / "html-report-stale-source.png"))
            if os.environ.get("MECHLINT_SHOT_WHOLE"):  # the whole page too, to look it over (not in docs/)
                page.screenshot(path=os.environ["MECHLINT_SHOT_WHOLE"], full_page=True)
            browser.close()
    for name in ("html-report.png", "html-report-390.png", "html-report-stale-source.png"):
        print(args.out / name)


if __name__ == "__main__":
    main()
